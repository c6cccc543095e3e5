import fc from 'fast-check';
import type { GraphChange, GraphNodeRef } from './graph-change';
import { customNodeIdentity } from './node-identity';
import { TenantGraph } from './tenant-graph';

const NOW = 1_700_000_000_000;
const HOUR = 3_600_000;
const CUSTOMERS = ['c0', 'c1', 'c2', 'c3'];
const TRANSACTIONS = ['t0', 't1', 't2'];
const MERCHANTS = ['m0', 'm1'];

const customer = fc.constantFrom(...CUSTOMERS).map((identity): GraphNodeRef => ({ kind: 'customer', identity }));
const attribute = fc.oneof(
  fc.tuple(fc.constantFrom('email', 'device', 'card', 'phone', 'chargeback', 'supplier' as const), fc.constantFrom('0', '1', '2')).map(
    ([kind, identity]): GraphNodeRef => ({ kind, identity }),
  ),
  fc.constantFrom('store', 'driver').map((nodeType): GraphNodeRef => ({ kind: 'custom', nodeType, identity: customNodeIdentity(nodeType, '1') })),
);
const time = fc.integer({ min: NOW - 48 * HOUR, max: NOW });
const change: fc.Arbitrary<GraphChange> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ type: fc.constant('link' as const), a: customer, b: attribute, firstSeenMs: time }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('node' as const), node: customer }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('label' as const),
      customerId: fc.constantFrom(...CUSTOMERS),
      label: fc.constantFrom('FRAUDSTER', 'GENUINE', null),
      atMs: time,
    }),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('chargeback' as const), chargebackId: fc.constantFrom('0', '1', '2'), forgiven: fc.boolean(), atMs: time }) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('tags' as const), customerId: fc.constantFrom(...CUSTOMERS), tags: fc.dictionary(fc.constantFrom('vip', 'new'), fc.boolean()), atMs: time }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('redemption' as const),
      customerId: fc.constantFrom(...CUSTOMERS),
      voucherCode: fc.constantFrom('V1', 'V2'),
      redemptionTimeMs: fc.constantFrom(NOW - HOUR, NOW),
      success: fc.boolean(),
      atMs: time,
    }),
  },
  // PSP transactions and their disputes, over the chargebacks the other changes name too.
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('transaction-owner' as const),
      transactionId: fc.constantFrom(...TRANSACTIONS),
      customerId: fc.constantFrom(...CUSTOMERS),
      firstSeenMs: time,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('dispute' as const), chargebackId: fc.constantFrom('0', '1', '2'), transactionId: fc.constantFrom(...TRANSACTIONS), firstSeenMs: time }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('merchant-customer' as const), merchantId: fc.constantFrom(...MERCHANTS), customerId: fc.constantFrom(...CUSTOMERS), firstSeenMs: time }),
  },
);
// Distinct times per label and chargeback: with two facts of equal time the order decides (an
// equal time replaces), which is the one case the store resolves by arrival order.
const changes = fc.array(change, { maxLength: 40 }).map(withDistinctStateTimes);

function withDistinctStateTimes(list: GraphChange[]): GraphChange[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    if (item.type !== 'label' && item.type !== 'chargeback' && item.type !== 'tags' && item.type !== 'redemption') return true;
    const key = JSON.stringify([item.type, 'customerId' in item ? item.customerId : item.chargebackId, item.atMs]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Everything a caller can observe of a tenant graph, for every customer. */
function observe(graph: TenantGraph) {
  return CUSTOMERS.map((id) => ({
    connect: graph.index.connect(id, { depth: 20, nowMs: NOW }),
    fraudster: graph.index.isFraudster(id),
    label: graph.index.labelOf(id),
    uses: ['V1', 'V2'].map((code) => graph.redemptions.successfulUses(code, graph.index.customersWithin(id, 10))),
    merchants: MERCHANTS.map((merchantId) => graph.merchantFraud(merchantId, id, 'customer')),
  }));
}

const applied = (list: readonly GraphChange[]) => {
  const graph = new TenantGraph();
  graph.applyAll(list);
  return graph;
};

describe('TenantGraph', () => {
  it('gives the same graph whatever order the changes arrive in (what a rebuild and redelivery rely on)', () => {
    fc.assert(
      fc.property(changes, fc.infiniteStream(fc.double({ noNaN: true })), (list, keys) => {
        const order = list.map((item, index) => ({ item, key: keys.next().value as number, index }));
        order.sort((left, right) => left.key - right.key || left.index - right.index);
        // Custom slots follow first appearance, so both orders declare the types the same way first.
        const slots = ['store', 'driver'];
        const first = new TenantGraph({ customNodeTypes: slots });
        first.applyAll(list);
        const second = new TenantGraph({ customNodeTypes: slots });
        second.applyAll(order.map(({ item }) => item));
        expect(observe(second)).toEqual(observe(first));
      }),
      { numRuns: 300 },
    );
  });

  it('says a change adds nodes exactly when applying it adds some, and changes nothing by saying so (ADR-0016)', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 30 }), change, (history, next) => {
        const graph = new TenantGraph();
        graph.applyAll(history);
        const slotsBefore = graph.index.customNodeTypes();
        const nodesBefore = graph.index.nodeCount;

        const adds = graph.addsNodes(next);
        expect(graph.index.nodeCount).toBe(nodesBefore);
        expect(graph.index.customNodeTypes()).toEqual(slotsBefore);

        graph.apply(next);
        expect(adds).toBe(graph.index.nodeCount > nodesBefore);
      }),
    );
  });

  it('changes nothing when the same changes are applied again', () => {
    fc.assert(
      fc.property(changes, (list) => {
        const twice = applied(list);
        twice.applyAll(list);
        expect(observe(twice)).toEqual(observe(applied(list)));
      }),
    );
  });

  it('keeps the newest label; an equal time replaces; an older one is ignored', () => {
    const graph = applied([
      { type: 'label', customerId: 'c0', label: 'FRAUDSTER', atMs: NOW },
      { type: 'label', customerId: 'c0', label: 'GENUINE', atMs: NOW - 1 },
    ]);
    expect(graph.index.labelOf('c0')).toBe('FRAUDSTER');
    graph.apply({ type: 'label', customerId: 'c0', label: null, atMs: NOW });
    expect(graph.index.labelOf('c0')).toBeNull();
  });

  it('counts a redemption once per customer, code and time, with its newest success', () => {
    const graph = applied([
      { type: 'link', a: { kind: 'customer', identity: 'c0' }, b: { kind: 'email', identity: 'shared@x.io' }, firstSeenMs: NOW },
      { type: 'link', a: { kind: 'customer', identity: 'c1' }, b: { kind: 'email', identity: 'shared@x.io' }, firstSeenMs: NOW },
      { type: 'redemption', customerId: 'c0', voucherCode: 'V1', redemptionTimeMs: NOW, success: true, atMs: NOW },
      { type: 'redemption', customerId: 'c0', voucherCode: 'V1', redemptionTimeMs: NOW, success: true, atMs: NOW },
      { type: 'redemption', customerId: 'c1', voucherCode: 'V1', redemptionTimeMs: NOW, success: true, atMs: NOW },
      { type: 'redemption', customerId: 'c1', voucherCode: 'V1', redemptionTimeMs: NOW, success: false, atMs: NOW + 1 },
      { type: 'redemption', customerId: 'c1', voucherCode: 'V1', redemptionTimeMs: NOW + 5, success: true, atMs: NOW + 5 },
    ]);
    expect(graph.redemptions.successfulUses('V1', graph.index.customersWithin('c0', 2))).toBe(2);
    expect(graph.redemptions.successfulUses('V1', graph.index.customersWithin('c0', 1))).toBe(1);
    expect(graph.redemptions.successfulUses('V2', ['c0', 'c1'])).toBe(0);
  });

  describe('merchant fraud rates', () => {
    const paid = (merchantId: string, customerId: string): GraphChange => ({ type: 'merchant-customer', merchantId, customerId, firstSeenMs: NOW });
    const label = (customerId: string, value: string | null, atMs = NOW): GraphChange => ({ type: 'label', customerId, label: value, atMs });

    it('keep each merchant’s fraudster count equal to a recount after any changes (labels, chargebacks, disputes, forgiving)', () => {
      fc.assert(
        fc.property(changes, (list) => {
          const graph = applied(list);
          for (const merchantId of MERCHANTS) {
            const customers = new Set(list.flatMap((item) => (item.type === 'merchant-customer' && item.merchantId === merchantId ? [item.customerId] : [])));
            const fraudsters = [...customers].filter((id) => graph.index.isFraudster(id)).length;
            expect(graph.merchantFraud(merchantId, 'nobody', 'customer')).toEqual({
              customers: customers.size,
              fraudCustomers: fraudsters,
              fraudRate: customers.size === 0 ? 0 : fraudsters / customers.size,
            });
          }
        }),
        { numRuns: 300 },
      );
    });

    it('leave the subject out, count a customer once, and follow a label as soon as it is given or removed', () => {
      const graph = applied([paid('m0', 'c0'), paid('m0', 'c1'), paid('m0', 'c1'), paid('m0', 'c2'), paid('m1', 'c1'), label('c1', 'FRAUDSTER')]);
      expect(graph.merchantFraud('m0', 'c0', 'customer')).toEqual({ customers: 2, fraudCustomers: 1, fraudRate: 0.5 });
      expect(graph.merchantFraud('m0', 'c1', 'customer')).toEqual({ customers: 2, fraudCustomers: 0, fraudRate: 0 });
      expect(graph.merchantFraud('m1', 'c0', 'customer')).toEqual({ customers: 1, fraudCustomers: 1, fraudRate: 1 });
      graph.apply(label('c1', 'GENUINE', NOW + 1));
      expect(graph.merchantFraud('m0', 'c0', 'customer').fraudCustomers).toBe(0);
      expect(graph.merchantFraud('m1', 'c0', 'customer').fraudCustomers).toBe(0);
    });

    it('count a customer with an unforgiven chargeback until it is forgiven, and answer 0 for an unknown merchant', () => {
      const graph = applied([paid('m0', 'c1'), { type: 'transaction-owner', transactionId: 't0', customerId: 'c1', firstSeenMs: NOW }]);
      graph.apply({ type: 'dispute', chargebackId: 'd1', transactionId: 't0', firstSeenMs: NOW });
      expect(graph.merchantFraud('m0', 'c0', 'customer').fraudCustomers).toBe(1);
      graph.apply({ type: 'chargeback', chargebackId: 'd1', forgiven: true, atMs: NOW + 1 });
      expect(graph.merchantFraud('m0', 'c0', 'customer').fraudCustomers).toBe(0);
      expect(graph.merchantFraud('unknown', 'c0', 'customer')).toEqual({ customers: 0, fraudCustomers: 0, fraudRate: 0 });
      // A supplier is never one of a merchant's customers, whatever its id.
      expect(graph.merchantFraud('m0', 'c1', 'supplier').customers).toBe(1);
    });
  });

  describe('PSP disputes, which name only their transaction', () => {
    const owner = (transactionId: string, customerId: string, firstSeenMs = NOW): GraphChange => ({ type: 'transaction-owner', transactionId, customerId, firstSeenMs });
    const dispute = (chargebackId: string, transactionId: string, firstSeenMs = NOW): GraphChange => ({ type: 'dispute', chargebackId, transactionId, firstSeenMs });
    const state = (chargebackId: string, forgiven: boolean, atMs: number): GraphChange => ({ type: 'chargeback', chargebackId, forgiven, atMs });
    const orders = <T>(items: readonly T[]): T[][] =>
      items.length <= 1 ? [[...items]] : items.flatMap((item, index) => orders([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]));

    it('mark the transaction’s customer whether the dispute arrives before, with or after the transaction', () => {
      for (const list of orders([owner('t0', 'c0'), dispute('d1', 't0'), state('d1', false, NOW)])) {
        const graph = applied(list);
        expect(graph.index.isFraudster('c0')).toBe(true);
        expect(graph.index.connect('c0', { depth: 1, nowMs: NOW })).toMatchObject({ hopsToFraud: 0, chargebackCount: 1 });
        expect(graph.customersOfTransaction('t0')).toEqual(['c0']);
      }
      // Both in one batch, dispute first.
      expect(applied([dispute('d1', 't0'), owner('t0', 'c0')]).index.isFraudster('c0')).toBe(true);
    });

    it('are forgiven by a later state whatever the order, and a replay changes nothing', () => {
      const list = [owner('t0', 'c0'), dispute('d1', 't0', NOW), state('d1', false, NOW), dispute('d1', 't0', NOW + HOUR), state('d1', true, NOW + HOUR)];
      for (const order of orders(list)) {
        const graph = applied(order);
        graph.applyAll(order);
        expect(graph.index.isFraudster('c0')).toBe(false);
        expect(graph.index.connect('c0', { depth: 1, nowMs: NOW + HOUR })).toMatchObject({ hopsToFraud: -1, chargebackCount: 1 });
      }
    });

    it('link the chargeback at the earliest time the dispute was seen, to every customer the transaction names', () => {
      const graph = applied([dispute('d1', 't0', NOW), owner('t0', 'c0', NOW - 3 * HOUR), owner('t0', 'c1', NOW), dispute('d1', 't0', NOW - HOUR), owner('t0', 'c0', NOW)]);
      expect(graph.customersOfTransaction('t0')).toEqual(['c0', 'c1']);
      expect(graph.index.degreeOf('chargeback', 'd1')).toBe(2);
      // One edge per customer, first seen an hour before "now".
      expect(graph.index.connect('c0', { depth: 1, nowMs: NOW })).toMatchObject({ edgeLocalCount: 1, edgeLocalMeanAge: 3600 });
      expect(graph.index.isFraudster('c1')).toBe(true);
    });

    it('leave other transactions’ customers alone, and a dispute without a known customer only makes its chargeback node', () => {
      const graph = applied([owner('t0', 'c0'), dispute('d1', 't1'), owner('t2', 'c2')]);
      expect(graph.index.isFraudster('c0')).toBe(false);
      expect(graph.index.isFraudster('c2')).toBe(false);
      expect(graph.index.degreeOf('chargeback', 'd1')).toBe(0);
      expect(graph.index.nodeCount).toBe(3);
      expect(graph.customersOfTransaction('t1')).toEqual([]);
    });
  });

  it('gives five custom node types their slots and links nothing for a sixth', () => {
    const types = ['t1', 't2', 't3', 't4', 't5', 't6'];
    const graph = applied(
      types.map((nodeType): GraphChange => ({
        type: 'link',
        a: { kind: 'customer', identity: 'c0' },
        b: { kind: 'custom', nodeType, identity: customNodeIdentity(nodeType, 'x') },
        firstSeenMs: NOW,
      })),
    );
    expect(graph.index.customNodeTypes()).toEqual(types.slice(0, 5));
    expect(graph.index.degreeOf('customer', 'c0')).toBe(5);
    expect(graph.index.connect('c0', { depth: 1, nowMs: NOW }).customNode5Count).toBe(1);
  });
});
