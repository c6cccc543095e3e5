import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { type GraphChange, type GraphNodeRef, type GraphScope, type GraphStore, TenantGraph, customNodeIdentity } from '@ringfence/graph-engine';
import { CUSTOMERS, HOUR, MERCHANTS, NOW, VOUCHER_CODES, graphChanges, reorderedBatches, splitInto } from './graph-change.arbitraries';

export interface GraphStoreBehaviourOptions {
  /** A new account id the store accepts (the SQL store needs its `accounts` row). */
  newAccountId?: () => Promise<string>;
  /** fast-check runs per property; each run writes a few tenants. */
  numRuns?: number;
}

// Each property writes and loads a few tenants per run; a failing one also shrinks.
const PROPERTY_TIMEOUT_MS = 120_000;

const customer = (identity: string): GraphNodeRef => ({ kind: 'customer', identity });
const email = (identity: string): GraphNodeRef => ({ kind: 'email', identity });
const custom = (nodeType: string, id: string): GraphNodeRef => ({ kind: 'custom', nodeType, identity: customNodeIdentity(nodeType, id) });
const link = (a: GraphNodeRef, b: GraphNodeRef, firstSeenMs: number): GraphChange => ({ type: 'link', a, b, firstSeenMs });

/** Every change `load` yields, flattened. */
export async function loadAll(store: GraphStore, scope: GraphScope, batchSize?: number): Promise<GraphChange[]> {
  const changes: GraphChange[] = [];
  for await (const batch of store.load(scope, batchSize)) changes.push(...batch);
  return changes;
}

/**
 * A load as a sorted list of facts, independent of the order of rows and of which endpoint
 * of an edge is stored first (that follows the slots, which follow arrival order).
 */
export function canonical(changes: readonly GraphChange[]): string[] {
  const node = (ref: GraphNodeRef) => (ref.kind === 'custom' ? ['custom', ref.nodeType, ref.identity] : [ref.kind, ref.identity]);
  return changes
    .flatMap((change): unknown[][] => {
      switch (change.type) {
        case 'node':
          return [['node', ...node(change.node)]];
        case 'link':
          return [['link', ...[JSON.stringify(node(change.a)), JSON.stringify(node(change.b))].sort(), change.firstSeenMs]];
        case 'label':
          return [['label', change.customerId, change.label, change.atMs]];
        case 'chargeback':
          return [['chargeback', change.chargebackId, change.forgiven, change.atMs]];
        case 'tags':
          return Object.entries(change.tags).map(([name, value]) => ['tag', change.customerId, name, value, change.atMs]);
        case 'redemption':
          return [['redemption', change.customerId, change.voucherCode, change.redemptionTimeMs, change.success, change.atMs]];
        case 'transaction-owner':
          return [['transaction-owner', change.transactionId, change.customerId, change.firstSeenMs]];
        case 'dispute':
          return [['dispute', change.transactionId, change.chargebackId, change.firstSeenMs]];
        case 'merchant-customer':
          return [['merchant-customer', change.merchantId, change.customerId, change.firstSeenMs]];
      }
    })
    .map((fact) => JSON.stringify(fact))
    .sort();
}

/** What callers observe of a tenant graph: connect from every customer, and voucher uses. */
function observe(graph: TenantGraph) {
  return [...CUSTOMERS, 'unknown'].map((id) => ({
    connect: graph.index.connect(id, { depth: 20, nowMs: NOW }),
    fraudster: graph.index.isFraudster(id),
    label: graph.index.labelOf(id),
    network: [...graph.index.customersWithin(id, 10)].sort(),
    uses: VOUCHER_CODES.map((code) => graph.redemptions.successfulUses(code, graph.index.customersWithin(id, 10))),
    merchants: MERCHANTS.map((merchantId) => graph.merchantFraud(merchantId, id, 'customer')),
  }));
}

/**
 * What any GraphStore adapter must do (the port's merge rules, which are `TenantGraph.apply`'s);
 * run against each database by its spec files.
 */
export function itBehavesLikeAGraphStore(makeStore: () => GraphStore | Promise<GraphStore>, options: GraphStoreBehaviourOptions = {}): void {
  const newAccountId = options.newAccountId ?? (async () => `acc_${randomUUID().replaceAll('-', '')}`);
  const numRuns = options.numRuns ?? 25;
  const newScope = async (environment = 'test'): Promise<GraphScope> => ({ accountId: await newAccountId(), environment });

  it('loads what was written: nodes, links earliest first, labels, chargebacks, tags, redemptions, transaction owners, disputes, merchants’ customers, in that order', async () => {
    const store = await makeStore();
    const scope = await newScope();
    await store.write(scope, [
      { type: 'node', node: { kind: 'supplier', identity: 's1' } },
      link(customer('c2'), email('b@x.io'), NOW),
      link(email('a@x.io'), customer('c1'), NOW - HOUR),
      link(customer('c1'), custom('store', '7'), NOW - 2 * HOUR),
      { type: 'label', customerId: 'c1', label: 'FRAUDSTER', atMs: NOW },
      { type: 'chargeback', chargebackId: 'cb1', forgiven: true, atMs: NOW },
      { type: 'tags', customerId: 'c2', tags: { vip: true, new: false }, atMs: NOW },
      { type: 'redemption', customerId: 'c2', voucherCode: 'V1', redemptionTimeMs: NOW - HOUR, success: true, atMs: NOW },
      { type: 'dispute', chargebackId: 'cb1', transactionId: 't1', firstSeenMs: NOW },
      { type: 'transaction-owner', transactionId: 't1', customerId: 'c2', firstSeenMs: NOW - HOUR },
      { type: 'merchant-customer', merchantId: 'm1', customerId: 'c2', firstSeenMs: NOW },
      { type: 'merchant-customer', merchantId: 'm1', customerId: 'c2', firstSeenMs: NOW - HOUR },
      { type: 'merchant-customer', merchantId: 'm0', customerId: 'c3', firstSeenMs: NOW },
    ]);

    const loaded = await loadAll(store, scope);

    expect(loaded).toEqual([
      { type: 'node', node: { kind: 'chargeback', identity: 'cb1' } },
      { type: 'node', node: custom('store', '7') },
      { type: 'node', node: customer('c1') },
      { type: 'node', node: customer('c2') },
      { type: 'node', node: customer('c3') },
      { type: 'node', node: email('a@x.io') },
      { type: 'node', node: email('b@x.io') },
      { type: 'node', node: { kind: 'supplier', identity: 's1' } },
      // Endpoints in the stored order: by kind, then identity ('customNode1' < 'customer').
      { type: 'link', a: custom('store', '7'), b: customer('c1'), firstSeenMs: NOW - 2 * HOUR },
      { type: 'link', a: customer('c1'), b: email('a@x.io'), firstSeenMs: NOW - HOUR },
      { type: 'link', a: customer('c2'), b: email('b@x.io'), firstSeenMs: NOW },
      { type: 'label', customerId: 'c1', label: 'FRAUDSTER', atMs: NOW },
      { type: 'chargeback', chargebackId: 'cb1', forgiven: true, atMs: NOW },
      { type: 'tags', customerId: 'c2', tags: { new: false }, atMs: NOW },
      { type: 'tags', customerId: 'c2', tags: { vip: true }, atMs: NOW },
      { type: 'redemption', customerId: 'c2', voucherCode: 'V1', redemptionTimeMs: NOW - HOUR, success: true, atMs: NOW },
      { type: 'transaction-owner', transactionId: 't1', customerId: 'c2', firstSeenMs: NOW - HOUR },
      { type: 'dispute', chargebackId: 'cb1', transactionId: 't1', firstSeenMs: NOW },
      { type: 'merchant-customer', merchantId: 'm0', customerId: 'c3', firstSeenMs: NOW },
      { type: 'merchant-customer', merchantId: 'm1', customerId: 'c2', firstSeenMs: NOW - HOUR },
    ]);
    await expect(store.customNodeTypes(scope)).resolves.toEqual(['store']);
  });

  it('keeps each transaction owner and dispute once with its earliest time, and a rebuild links the chargeback to the customer whichever came first', async () => {
    const store = await makeStore();
    const scope = await newScope();
    const owner = (transactionId: string, customerId: string, firstSeenMs: number): GraphChange => ({ type: 'transaction-owner', transactionId, customerId, firstSeenMs });
    const dispute = (chargebackId: string, transactionId: string, firstSeenMs: number): GraphChange => ({ type: 'dispute', chargebackId, transactionId, firstSeenMs });
    // The dispute is written before its transaction's owner, in another batch.
    await store.write(scope, [dispute('cb1', 't1', NOW), dispute('cb1', 't1', NOW - HOUR), dispute('cb2', 't2', NOW)]);
    await store.write(scope, [owner('t1', 'c1', NOW), owner('t1', 'c1', NOW + HOUR)]);
    await store.write(scope, [owner('t1', 'c1', NOW - 2 * HOUR), dispute('cb1', 't1', NOW + HOUR), owner('t3', 'c3', NOW)]);

    const loaded = await loadAll(store, scope);

    expect(loaded.filter((change) => change.type === 'transaction-owner' || change.type === 'dispute')).toEqual([
      owner('t1', 'c1', NOW - 2 * HOUR),
      owner('t3', 'c3', NOW),
      dispute('cb1', 't1', NOW - HOUR),
      dispute('cb2', 't2', NOW),
    ]);
    // Each fact stores its customer or chargeback node; the derived edge is no stored link.
    expect(loaded.filter((change) => change.type === 'node')).toEqual([
      { type: 'node', node: { kind: 'chargeback', identity: 'cb1' } },
      { type: 'node', node: { kind: 'chargeback', identity: 'cb2' } },
      { type: 'node', node: customer('c1') },
      { type: 'node', node: customer('c3') },
    ]);
    expect(loaded.filter((change) => change.type === 'link')).toEqual([]);
    const rebuilt = new TenantGraph();
    rebuilt.applyAll(loaded);
    expect(rebuilt.index.isFraudster('c1')).toBe(true);
    expect(rebuilt.index.connect('c1', { depth: 1, nowMs: NOW })).toMatchObject({ hopsToFraud: 0, chargebackCount: 1, edgeLocalCount: 1, edgeLocalMeanAge: 3600 });
    expect(rebuilt.index.isFraudster('c3')).toBe(false);
  });

  it('stores one undirected edge per pair with its earliest first-seen time, in one batch or across batches', async () => {
    const store = await makeStore();
    const scope = await newScope();
    await store.write(scope, [link(customer('c1'), email('a@x.io'), NOW), link(email('a@x.io'), customer('c1'), NOW - 3 * HOUR), link(customer('c1'), email('a@x.io'), NOW - HOUR)]);
    await store.write(scope, [link(email('a@x.io'), customer('c1'), NOW - 2 * HOUR)]);
    await store.write(scope, [link(customer('c1'), customer('c1'), NOW)]);

    const links = (await loadAll(store, scope)).filter((change) => change.type === 'link');

    expect(links).toEqual([{ type: 'link', a: customer('c1'), b: email('a@x.io'), firstSeenMs: NOW - 3 * HOUR }]);
    await store.write(scope, [link(customer('c1'), email('a@x.io'), NOW - 4 * HOUR)]);
    expect((await loadAll(store, scope)).filter((change) => change.type === 'link')).toEqual([
      { type: 'link', a: customer('c1'), b: email('a@x.io'), firstSeenMs: NOW - 4 * HOUR },
    ]);
  });

  it('keeps the newest label, chargeback state, tag value and redemption state; an equal time replaces, an older one is ignored', async () => {
    const store = await makeStore();
    const scope = await newScope();
    const redemption = { type: 'redemption', customerId: 'c1', voucherCode: 'V1', redemptionTimeMs: NOW - HOUR } as const;
    // In one batch, the pre-merge decides; across batches, the statements' conditions.
    await store.write(scope, [
      { type: 'label', customerId: 'c1', label: 'FRAUDSTER', atMs: NOW },
      { type: 'label', customerId: 'c1', label: 'GENUINE', atMs: NOW - 1 },
      { type: 'chargeback', chargebackId: 'cb1', forgiven: false, atMs: NOW },
      { type: 'tags', customerId: 'c1', tags: { vip: true, new: true }, atMs: NOW },
      { ...redemption, success: true, atMs: NOW },
    ]);
    await store.write(scope, [
      { type: 'label', customerId: 'c1', label: 'GENUINE', atMs: NOW - 1 },
      { type: 'chargeback', chargebackId: 'cb1', forgiven: true, atMs: NOW - 1 },
      { type: 'tags', customerId: 'c1', tags: { vip: false }, atMs: NOW - 1 },
      { ...redemption, success: false, atMs: NOW - 1 },
    ]);
    await store.write(scope, [
      { type: 'label', customerId: 'c1', label: null, atMs: NOW },
      { type: 'chargeback', chargebackId: 'cb1', forgiven: true, atMs: NOW },
      { type: 'tags', customerId: 'c1', tags: { new: false }, atMs: NOW },
      { ...redemption, success: false, atMs: NOW },
      { type: 'tags', customerId: 'c2', tags: { vip: true }, atMs: NOW },
      { type: 'tags', customerId: 'c2', tags: { vip: false }, atMs: NOW },
    ]);

    const loaded = await loadAll(store, scope);

    expect(loaded.filter((change) => change.type !== 'node' && change.type !== 'link')).toEqual([
      { type: 'label', customerId: 'c1', label: null, atMs: NOW },
      { type: 'chargeback', chargebackId: 'cb1', forgiven: true, atMs: NOW },
      { type: 'tags', customerId: 'c1', tags: { new: false }, atMs: NOW },
      { type: 'tags', customerId: 'c1', tags: { vip: true }, atMs: NOW },
      { type: 'tags', customerId: 'c2', tags: { vip: false }, atMs: NOW },
      { ...redemption, success: false, atMs: NOW },
    ]);
    // The facts create their customer and chargeback nodes, as TenantGraph.apply does.
    expect(loaded.filter((change) => change.type === 'node')).toEqual([
      { type: 'node', node: { kind: 'chargeback', identity: 'cb1' } },
      { type: 'node', node: customer('c1') },
      { type: 'node', node: customer('c2') },
    ]);
  });

  it('changes nothing when the same changes are written again', async () => {
    await fc.assert(
      fc.asyncProperty(graphChanges({ customNodeTypes: 7, stateFromTime: false }), async (changes) => {
        const store = await makeStore();
        const scope = await newScope();
        await store.write(scope, changes);
        const once = await loadAll(store, scope);
        const slots = await store.customNodeTypes(scope);

        await store.write(scope, changes);

        expect(await loadAll(store, scope)).toEqual(once);
        expect(await store.customNodeTypes(scope)).toEqual(slots);
      }),
      { numRuns },
    );
  }, PROPERTY_TIMEOUT_MS);

  it('stores the same facts whatever the order and batching of the writes', async () => {
    const orders = graphChanges({ customNodeTypes: 4, stateFromTime: true }).chain((changes) => fc.tuple(fc.constant(changes), reorderedBatches(changes)));
    await fc.assert(
      fc.asyncProperty(orders, async ([changes, batches]) => {
        const store = await makeStore();
        const inOrder = await newScope();
        const reordered = await newScope();
        await store.write(inOrder, changes);
        for (const batch of batches) await store.write(reordered, batch);

        expect(canonical(await loadAll(store, reordered))).toEqual(canonical(await loadAll(store, inOrder)));
        expect([...(await store.customNodeTypes(reordered))].sort()).toEqual([...(await store.customNodeTypes(inOrder))].sort());
      }),
      { numRuns },
    );
  }, PROPERTY_TIMEOUT_MS);

  it('rebuilds a TenantGraph that answers connect and voucher uses exactly like one that applied the changes directly', async () => {
    const writes = graphChanges({ customNodeTypes: 7, stateFromTime: false, maxLength: 60 }).chain((changes) =>
      fc.tuple(fc.constant(changes), fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 10, size: 'max' })),
    );
    await fc.assert(
      fc.asyncProperty(writes, fc.integer({ min: 1, max: 7 }), async ([changes, sizes], batchSize) => {
        const store = await makeStore();
        const scope = await newScope();
        for (const batch of splitInto(changes, sizes)) await store.write(scope, batch);
        const direct = new TenantGraph();
        direct.applyAll(changes);

        const rebuilt = new TenantGraph({ customNodeTypes: await store.customNodeTypes(scope) });
        for await (const batch of store.load(scope, batchSize)) rebuilt.applyAll(batch);

        expect(rebuilt.index.customNodeTypes()).toEqual(direct.index.customNodeTypes());
        expect(rebuilt.index.nodeCount).toBe(direct.index.nodeCount);
        expect(rebuilt.index.edgeCount).toBe(direct.index.edgeCount);
        expect(observe(rebuilt)).toEqual(observe(direct));
      }),
      { numRuns },
    );
  }, PROPERTY_TIMEOUT_MS);

  it('gives custom node types the five slots in order of first appearance and never stores a sixth type or its links', async () => {
    const store = await makeStore();
    const scope = await newScope();
    await store.write(scope, [
      link(customer('c1'), custom('t1', '1'), NOW),
      { type: 'node', node: custom('t2', '1') },
      link(custom('t3', '1'), custom('t4', '1'), NOW),
    ]);
    // t5 takes the last slot although the link that names it is dropped for t6.
    await store.write(scope, [link(custom('t5', '1'), custom('t6', '1'), NOW), link(customer('c1'), custom('t6', '2'), NOW), { type: 'node', node: custom('t6', '3') }]);
    await store.write(scope, [link(customer('c1'), custom('t1', '2'), NOW), link(customer('c2'), custom('t7', '1'), NOW)]);

    await expect(store.customNodeTypes(scope)).resolves.toEqual(['t1', 't2', 't3', 't4', 't5']);
    const loaded = await loadAll(store, scope);
    expect(loaded.filter((change) => change.type === 'node')).toEqual([
      { type: 'node', node: custom('t1', '1') },
      { type: 'node', node: custom('t1', '2') },
      { type: 'node', node: custom('t2', '1') },
      { type: 'node', node: custom('t3', '1') },
      { type: 'node', node: custom('t4', '1') },
      { type: 'node', node: customer('c1') },
    ]);
    expect(canonical(loaded.filter((change) => change.type === 'link'))).toEqual(
      canonical([link(customer('c1'), custom('t1', '1'), NOW), link(custom('t3', '1'), custom('t4', '1'), NOW), link(customer('c1'), custom('t1', '2'), NOW)]),
    );
  });

  it('assigns each slot once when writers meet new custom types at the same time', async () => {
    const store = await makeStore();
    const scope = await newScope();
    const types = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7'];

    await Promise.all(types.map((nodeType) => store.write(scope, [link(customer('c1'), custom(nodeType, '1'), NOW)])));

    const slots = await store.customNodeTypes(scope);
    expect(slots).toHaveLength(5);
    expect(new Set(slots).size).toBe(5);
    const customNodes = (await loadAll(store, scope)).flatMap((change) => (change.type === 'node' && change.node.kind === 'custom' ? [change.node.nodeType] : []));
    expect(customNodes.sort()).toEqual([...slots].sort());
  });

  it('keeps tenants apart by account and by environment', async () => {
    const store = await makeStore();
    const live = await newScope('live');
    const test = { ...live, environment: 'test' };
    const other = await newScope('live');
    await store.write(live, [link(customer('c1'), custom('store', '1'), NOW), { type: 'label', customerId: 'c1', label: 'FRAUDSTER', atMs: NOW }]);
    await store.write(test, [link(customer('c1'), email('a@x.io'), NOW - HOUR)]);

    expect(canonical(await loadAll(store, live))).toEqual(
      canonical([
        { type: 'node', node: customer('c1') },
        { type: 'node', node: custom('store', '1') },
        link(customer('c1'), custom('store', '1'), NOW),
        { type: 'label', customerId: 'c1', label: 'FRAUDSTER', atMs: NOW },
      ]),
    );
    expect(canonical(await loadAll(store, test))).toEqual(
      canonical([{ type: 'node', node: customer('c1') }, { type: 'node', node: email('a@x.io') }, link(customer('c1'), email('a@x.io'), NOW - HOUR)]),
    );
    await expect(loadAll(store, other)).resolves.toEqual([]);
    await expect(store.customNodeTypes(test)).resolves.toEqual([]);
    await expect(store.customNodeTypes(other)).resolves.toEqual([]);
  });

  it('lists every tenant with graph data in scopes()', async () => {
    const store = await makeStore();
    const first = await newScope('live');
    const second = { ...first, environment: 'test' };
    const third = await newScope('test');
    const empty = await newScope('test');
    await store.write(first, [{ type: 'node', node: customer('c1') }]);
    await store.write(second, [{ type: 'label', customerId: 'c1', label: 'GENUINE', atMs: NOW }]);
    await store.write(third, [link(customer('c1'), email('a@x.io'), NOW)]);
    await store.write(empty, []);

    const scopes = await store.scopes();

    expect(scopes).toEqual(expect.arrayContaining([first, second, third]));
    expect(scopes).not.toContainEqual(empty);
    expect(new Set(scopes.map((scope) => JSON.stringify(scope))).size).toBe(scopes.length);
  });

  it('streams a load in batches of at most batchSize', async () => {
    const store = await makeStore();
    const scope = await newScope();
    const links = Array.from({ length: 10 }, (_, index) => link(customer(`c${index}`), email('shared@x.io'), NOW - index * HOUR));
    await store.write(scope, links);

    const batches: GraphChange[][] = [];
    for await (const batch of store.load(scope, 3)) batches.push(batch);

    const linkBatches = batches.filter((batch) => batch.some((change) => change.type === 'link'));
    expect(linkBatches.length).toBeGreaterThan(1);
    expect(batches.every((batch) => batch.length >= 1 && batch.length <= 3)).toBe(true);
    const loadedLinks = batches.flat().filter((change) => change.type === 'link');
    expect(loadedLinks.map((change) => change.firstSeenMs)).toEqual(links.map((change) => (change.type === 'link' ? change.firstSeenMs : 0)).reverse());
    expect(canonical(loadedLinks)).toEqual(canonical(links));
    expect(batches.flat().filter((change) => change.type === 'node')).toHaveLength(11);
  });

  it('refuses a time that is not whole milliseconds and writes nothing of that batch', async () => {
    const store = await makeStore();
    const scope = await newScope();

    await expect(store.write(scope, [{ type: 'node', node: customer('c1') }, link(customer('c1'), email('a@x.io'), NOW + 0.5)])).rejects.toThrow(RangeError);

    await expect(loadAll(store, scope)).resolves.toEqual([]);
  });
}
