import type { INestMicroservice } from '@nestjs/common';
import type { MessageBus, RespondOptions, SubscribeOptions } from '@ringfence/bus';
import { startBusControllers } from '@ringfence/bus/testing';
import { EventTopics, type MessageEnvelope, RpcTopics, StateGroups } from '@ringfence/contracts';
import { GRAPH_STORE, type GraphChange, type GraphScope, type GraphStore } from '@ringfence/graph-engine';
import { TypeOrmGraphStore, GRAPH_STORE_SCHEMA } from '@ringfence/graph-store';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { DEFAULT_ROW_ATTEMPTS, InMemorySetAsideStore, SetAsideRows, createLogger } from '@ringfence/platform';
import { Neo4jError, error as neo4jErrors } from 'neo4j-driver';
import { ROOT_LOGGER } from '@ringfence/service-runtime';
import { GraphQueryResponders } from './graph-query.responders';
import { GRAPH_WRITER, GraphUpdatesConsumer, GraphUpdatesController } from './graph-updates.consumer';
import { type GraphRoute, graphRouteOf } from './graph-routes';
import { TenantGraphs } from './tenant-graphs.service';

const NOW = 1_700_000_000_000;
const UNBOUNDED = { graphMaxNodes: 1_000_000_000, accountSharePercent: 100 };
const logger = createLogger({ level: 'silent', service: 'test' });

function setup(tableStore?: GraphStore, setAsideStore = new InMemorySetAsideStore()) {
  const events: string[] = [];
  const store: GraphStore = tableStore ?? {
    write: async (_scope: GraphScope, changes: readonly GraphChange[]) => {
      events.push(`store:${changes.length}`);
    },
    scopes: async () => [],
    customNodeTypes: async () => [],
    load: async function* () {
      yield* [];
    },
  };
  const graphs = new TenantGraphs(store, logger, [], UNBOUNDED);
  const apply = graphs.apply.bind(graphs);
  jest.spyOn(graphs, 'apply').mockImplementation(async (scope, changes, traceId) => {
    events.push(`index:${changes.length}`);
    return apply(scope, changes, traceId);
  });
  const setAside = new SetAsideRows(setAsideStore);
  const consumer = new GraphUpdatesConsumer(store, graphs, setAside);
  return { consumer, graphs, events, store, setAside, setAsideStore };
}

const envelope = (payload: object, accountId = 'acc_1'): MessageEnvelope<object> => ({
  eventId: 'e1',
  accountId,
  environment: 'live',
  subjectId: 's',
  acceptedAt: NOW,
  traceId: 't',
  payload,
});

describe(GraphUpdatesConsumer.name, () => {
  it('applies to the index at once and writes the store behind it, one write per flush for every event handled meanwhile', async () => {
    const { consumer, graphs, events } = setup();
    const route = graphRouteOf(EventTopics.customerUpdated)!;
    await consumer.handle(route, envelope({ timestamp: NOW, customer: { customerId: 'c1', email: 'Ada@Example.com' } }));
    await consumer.handle(route, envelope({ timestamp: NOW, customer: { customerId: 'c2', email: 'ada@example.com' } }));
    expect(events).toEqual(['index:2', 'index:2']);
    expect((await graphs.get('acc_1', 'live')).index.degreeOf('email', 'ada@example.com')).toBe(2);
    await consumer.flush();
    expect(events).toEqual(['index:2', 'index:2', 'store:4']);
    await consumer.flush();
    expect(events).toHaveLength(3);
  });

  it('writes only what the store may lack: a returning customer’s links again only when one is first seen earlier', async () => {
    const { consumer, store } = setup();
    const written: GraphChange[][] = [];
    store.write = async (_scope, changes) => {
      written.push([...changes]);
    };
    const route = graphRouteOf(EventTopics.customerUpdated)!;
    const customerAt = (timestamp: number) => envelope({ timestamp, customer: { customerId: 'c1', email: 'ada@example.com' } });
    const typesOf = (changes: readonly GraphChange[]) => changes.map((change) => change.type);

    await consumer.handle(route, customerAt(NOW));
    await consumer.flush();
    expect(typesOf(written[0])).toEqual(['node', 'link']);

    await consumer.handle(route, customerAt(NOW + 1000));
    await consumer.flush();
    expect(typesOf(written[1])).toEqual(['node']);

    await consumer.handle(route, customerAt(NOW - 1000));
    await consumer.flush();
    expect(written[2]).toEqual([expect.objectContaining({ type: 'node' }), expect.objectContaining({ type: 'link', firstSeenMs: NOW - 1000 })]);
  });

  it('keeps the changes of a failed store write for the next flush, so no offset passes an unwritten change', async () => {
    const { consumer, store } = setup();
    const written: number[] = [];
    let failures = 1;
    store.write = async (_scope, changes) => {
      if (failures-- > 0) throw new Error('the store is down');
      written.push(changes.length);
    };
    const route = graphRouteOf(EventTopics.customerUpdated)!;
    await consumer.handle(route, envelope({ timestamp: NOW, customer: { customerId: 'c1', email: 'ada@example.com' } }));
    await expect(consumer.flush()).rejects.toThrow('the store is down');
    await consumer.handle(route, envelope({ timestamp: NOW, customer: { customerId: 'c2', email: 'ada@example.com' } }));
    await consumer.flush();
    expect(written).toEqual([4]);
  });

  it('marks the customer of a disputed transaction whether the dispute is handled before or after the transaction, and stores both facts', async () => {
    const transaction = { timestamp: NOW, transaction: { transactionId: 't1' }, customer: { customerId: 'c9' } };
    const dispute = { timestamp: NOW + 1, dispute: { disputeId: 'd1', transactionId: 't1', stage: 'CHARGEBACK' } };
    const events: Array<[string, object]> = [
      [EventTopics.disputeUpdated, dispute],
      [EventTopics.transactionUpdated, transaction],
    ];
    for (const order of [events, [...events].reverse()]) {
      const { consumer, graphs, store } = setup();
      const written: GraphChange[] = [];
      store.write = async (_scope, changes) => {
        written.push(...changes);
      };
      for (const [topic, payload] of order) await consumer.handle(graphRouteOf(topic)!, envelope(payload));
      expect((await graphs.get('acc_1', 'live')).index.isFraudster('c9')).toBe(true);
      await consumer.flush();
      expect(written).toEqual(
        expect.arrayContaining([
          { type: 'transaction-owner', transactionId: 't1', customerId: 'c9', firstSeenMs: NOW },
          { type: 'dispute', chargebackId: 'd1', transactionId: 't1', firstSeenMs: NOW + 1 },
        ]),
      );
    }
  });

  it('applies a customer label event, and writes nothing for a supplier label', async () => {
    const { consumer, graphs, events } = setup();
    const route = graphRouteOf(EventTopics.customerLabelUpdated)!;
    const label = { accountId: 'acc_1', environment: 'live', subjectKind: 'customer', subjectId: 'c1', category: 'PAYMENT_FRAUD', review: 'FRAUDSTER', previous: null, eventTime: NOW, reviewer: null, comment: null };
    await consumer.handle(route, envelope(label));
    expect((await graphs.get('acc_1', 'live')).index.labelOf('c1')).toBe('FRAUDSTER');
    events.length = 0;
    await consumer.handle(route, envelope({ ...label, subjectKind: 'supplier' }));
    expect(events).toEqual([]);
  });
});

describe(`${GraphUpdatesConsumer.name}: a change the store refuses (ADR-0016)`, () => {
  const customerUpdated = graphRouteOf(EventTopics.customerUpdated)!;
  /** A route whose events carry changes as given, to hand the store what validation no longer lets through. */
  const routeOf = (changes: GraphChange[]): GraphRoute => ({ ...customerUpdated, changes: () => changes });
  const customerEvent = (customerId: string, accountId = 'acc_1') => envelope({ timestamp: NOW, customer: { customerId, email: `${customerId}@example.com` } }, accountId);
  const flushOutcome = (consumer: GraphUpdatesConsumer) => consumer.flush().then(() => 'written', () => 'not written');

  async function stored(store: GraphStore, scope: GraphScope): Promise<GraphChange[]> {
    const changes: GraphChange[] = [];
    for await (const batch of store.load(scope)) changes.push(...batch);
    return changes;
  }
  const customersIn = (changes: readonly GraphChange[]) => changes.flatMap((change) => (change.type === 'node' && change.node.kind === 'customer' ? [change.node.identity] : []));

  describe('on the tables store', () => {
    const database = useEmbeddedTestDatabase(GRAPH_STORE_SCHEMA);

    it('writes every other change (its tenant’s and another’s) at once, sets the refused one aside after its attempts, and writes the next events', async () => {
      const tables = new TypeOrmGraphStore(database.dataSource());
      const { consumer, setAsideStore } = setup(tables);
      // A time that is not integer milliseconds: both stores refuse it (RangeError), nothing else of its write.
      const poisoned: GraphChange = { type: 'link', a: { kind: 'customer', identity: 'c-poisoned' }, b: { kind: 'email', identity: 'p@example.com' }, firstSeenMs: 1.5 };
      await consumer.handle(routeOf([{ type: 'node', node: { kind: 'customer', identity: 'c-poisoned' } }, poisoned]), envelope({}, 'acc_poisoned'));
      await consumer.handle(customerUpdated, customerEvent('c-good', 'acc_poisoned'));
      await consumer.handle(customerUpdated, customerEvent('c-neighbour', 'acc_neighbour'));

      expect(await flushOutcome(consumer)).toBe('not written');
      expect(customersIn(await stored(tables, { accountId: 'acc_poisoned', environment: 'live' })).sort()).toEqual(['c-good', 'c-poisoned']);
      expect(customersIn(await stored(tables, { accountId: 'acc_neighbour', environment: 'live' }))).toEqual(['c-neighbour']);
      for (let attempt = 2; attempt < DEFAULT_ROW_ATTEMPTS; attempt += 1) expect(await flushOutcome(consumer)).toBe('not written');
      expect(setAsideStore.rows).toEqual([]);

      expect(await flushOutcome(consumer)).toBe('written');
      expect(setAsideStore.rows).toEqual([
        expect.objectContaining({ writer: GRAPH_WRITER, accountId: 'acc_poisoned', environment: 'live', row: JSON.stringify({ scope: { accountId: 'acc_poisoned', environment: 'live' }, change: poisoned }), attempts: DEFAULT_ROW_ATTEMPTS }),
      ]);
      expect(setAsideStore.rows[0].error).toMatch(/^RangeError: firstSeenMs must be an integer/);

      await consumer.handle(customerUpdated, customerEvent('c-later', 'acc_poisoned'));
      expect(await flushOutcome(consumer)).toBe('written');
      expect(customersIn(await stored(tables, { accountId: 'acc_poisoned', environment: 'live' })).sort()).toEqual(['c-good', 'c-later', 'c-poisoned']);
    });
  });

  describe('on Neo4j', () => {
    /** A store that answers like Neo4j: a statement error for changes naming `refusedCustomer`, an outage while `down`. */
    function neo4jLike() {
      const written: GraphChange[] = [];
      const neo4j = { down: false, refusedCustomer: 'c-poisoned' as string | undefined, written };
      const store: GraphStore = {
        write: async (_scope, changes) => {
          if (neo4j.down) throw new Neo4jError('Could not perform discovery', neo4jErrors.SERVICE_UNAVAILABLE, '08000', 'error: connection exception');
          if (changes.some((change) => JSON.stringify(change).includes(`"${neo4j.refusedCustomer}"`))) {
            throw new Neo4jError('Property values can only be of primitive types', 'Neo.ClientError.Statement.TypeError', '22G03', 'error: data exception - invalid value type');
          }
          written.push(...changes);
        },
        scopes: async () => [],
        customNodeTypes: async () => [],
        load: async function* () {
          yield* [];
        },
      };
      return { neo4j, store };
    }

    it('writes the others at once and sets aside the change Neo4j refuses with a statement error, after its attempts', async () => {
      const { neo4j, store } = neo4jLike();
      const { consumer, setAsideStore } = setup(store);
      await consumer.handle(customerUpdated, customerEvent('c-poisoned'));
      await consumer.handle(customerUpdated, customerEvent('c-good', 'acc_2'));

      expect(await flushOutcome(consumer)).toBe('not written');
      expect(customersIn(neo4j.written)).toEqual(['c-good']);
      for (let attempt = 2; attempt < DEFAULT_ROW_ATTEMPTS; attempt += 1) expect(await flushOutcome(consumer)).toBe('not written');
      expect(await flushOutcome(consumer)).toBe('written');

      // The customer's node and its link to the e-mail are each refused: two changes aside, nothing else.
      expect(setAsideStore.rows.map(({ writer, accountId }) => [writer, accountId])).toEqual([
        [GRAPH_WRITER, 'acc_1'],
        [GRAPH_WRITER, 'acc_1'],
      ]);
      expect(setAsideStore.rows[0].error).toContain('Neo.ClientError.Statement.TypeError');
      expect(neo4j.written.filter((change) => JSON.stringify(change).includes('c-poisoned'))).toEqual([]);
    });

    it('sets nothing aside while Neo4j is unavailable, however many flushes fail, and writes everything when it returns', async () => {
      const { neo4j, store } = neo4jLike();
      neo4j.refusedCustomer = undefined;
      neo4j.down = true;
      const { consumer, setAsideStore } = setup(store);
      await consumer.handle(customerUpdated, customerEvent('c1'));
      for (let flush = 0; flush < DEFAULT_ROW_ATTEMPTS + 2; flush += 1) expect(await flushOutcome(consumer)).toBe('not written');
      expect(setAsideStore.rows).toEqual([]);

      neo4j.down = false;
      await consumer.handle(customerUpdated, customerEvent('c2'));
      expect(await flushOutcome(consumer)).toBe('written');
      expect(customersIn(neo4j.written).sort()).toEqual(['c1', 'c2']);
    });

    it('writes a set-aside change, and puts it back in the index rebuilt since, when an operator replays it after the cause is fixed', async () => {
      const { neo4j, store } = neo4jLike();
      const before = setup(store);
      await before.consumer.handle(customerUpdated, customerEvent('c-poisoned'));
      for (let attempt = 0; attempt < DEFAULT_ROW_ATTEMPTS; attempt += 1) await flushOutcome(before.consumer);
      const [node, linked] = before.setAsideStore.rows;
      expect(await before.setAside.replay(linked.id)).toEqual(expect.objectContaining({ outcome: 'not-written' }));

      // A restart: the index is rebuilt from the store, which lacks the set-aside changes.
      const { graphs, setAside, setAsideStore } = setup(store, before.setAsideStore);
      neo4j.refusedCustomer = undefined;
      expect(await setAside.replay(linked.id)).toEqual(expect.objectContaining({ outcome: 'written' }));
      expect(await setAside.replay(node.id)).toEqual(expect.objectContaining({ outcome: 'written' }));

      expect(customersIn(neo4j.written)).toEqual(['c-poisoned']);
      expect(setAsideStore.rows).toEqual([]);
      expect((await graphs.get('acc_1', 'live')).index.degreeOf('email', 'c-poisoned@example.com')).toBe(1);
    });
  });
});

describe(`${GraphUpdatesConsumer.name} on the tables store`, () => {
  const database = useEmbeddedTestDatabase(GRAPH_STORE_SCHEMA);

  it('writes, with returning customers’ links left out, what rebuilds the same index: every node, edge and earliest first-seen time', async () => {
    const tables = new TypeOrmGraphStore(database.dataSource());
    const { consumer, graphs } = setup(tables);
    const route = graphRouteOf(EventTopics.customerUpdated)!;
    const event = (customerId: string, device: string, timestamp: number) =>
      envelope({ timestamp, customer: { customerId, email: `${customerId}@example.com` }, deviceId: device }, 'acc_rebuilt');
    for (const [customerId, device, timestamp] of [
      ['c1', 'd1', NOW],
      ['c2', 'd1', NOW + 1000],
      ['c1', 'd1', NOW + 2000],
      ['c1', 'd2', NOW + 3000],
      ['c2', 'd1', NOW - 5000],
      ['c1', 'd1', NOW + 4000],
    ] as const) {
      await consumer.handle(route, event(customerId, device, timestamp));
      await consumer.flush();
    }

    const rebuilt = new TenantGraphs(tables, logger, [], UNBOUNDED);
    await rebuilt.rebuild();
    const live = (await graphs.get('acc_rebuilt', 'live')).index;
    const fromStore = (await rebuilt.get('acc_rebuilt', 'live')).index;
    const neighbours = (index: typeof live) =>
      ['c1', 'c2'].map((customerId) => index.neighboursOf('customer', customerId).sort((x, y) => x.identity.localeCompare(y.identity)));
    expect(neighbours(fromStore)).toEqual(neighbours(live));
    expect(neighbours(live)[1]).toContainEqual({ kind: 'device', identity: 'd1', firstSeenMs: NOW - 5000 });
    expect([fromStore.nodeCount, fromStore.edgeCount]).toEqual([live.nodeCount, live.edgeCount]);
  });
});

describe('the graph service on the bus', () => {
  const running: INestMicroservice[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((microservice) => microservice.close()));
  });

  type Handler = (message: MessageEnvelope<unknown>) => Promise<unknown>;

  /** What the transporter registers for the graph's controllers, and the handlers, called as the bus calls them. */
  async function register() {
    const { consumer, graphs, events, store } = setup();
    const subscriptions = new Map<string, { options: SubscribeOptions; handler: Handler }>();
    const responders = new Map<string, { options: RespondOptions; handler: Handler }>();
    const bus = {
      subscribe: (topic: string, options: SubscribeOptions, handler: Handler) => subscriptions.set(topic, { options, handler }),
      handle: (topic: string, options: RespondOptions, handler: Handler) => responders.set(topic, { options, handler }),
      start: async () => undefined,
      stop: async () => undefined,
    } as unknown as MessageBus;
    running.push(
      await startBusControllers(bus, {
        controllers: [GraphUpdatesController, GraphQueryResponders],
        providers: [
          { provide: GRAPH_STORE, useValue: store },
          { provide: ROOT_LOGGER, useValue: logger },
          { provide: TenantGraphs, useValue: graphs },
          { provide: GraphUpdatesConsumer, useValue: consumer },
        ],
      }),
    );
    return { subscriptions, responders, events };
  }

  it('consumes exactly the graph state group’s topics, in that group, writing the store before each commit', async () => {
    const { subscriptions, events } = await register();

    expect([...subscriptions.keys()].sort()).toEqual([...StateGroups.graph.topics].sort());
    expect(new Set([...subscriptions.values()].map(({ options }) => options.group))).toEqual(new Set([StateGroups.graph.group]));

    const customerUpdated = subscriptions.get(EventTopics.customerUpdated)!;
    await customerUpdated.handler(envelope({ timestamp: NOW, customer: { customerId: 'c1', email: 'ada@example.com' } }));
    expect(events).toEqual(['index:2']);
    await customerUpdated.options.beforeCommit!();
    expect(events).toEqual(['index:2', 'store:2']);
  });

  it('skips an invalid event instead of retrying it', async () => {
    const { subscriptions, events } = await register();

    await expect(subscriptions.get(EventTopics.customerUpdated)!.handler(envelope({ timestamp: 'yesterday' }))).resolves.toBeUndefined();
    expect(events).toEqual([]);
  });

  it('answers the graph queries in the graph group, once the graph group has handled the account’s earlier events', async () => {
    const { responders } = await register();

    expect([...responders.keys()].sort()).toEqual([RpcTopics.graphConnect, RpcTopics.graphNeighbourhood, RpcTopics.graphNetworkFeatures, RpcTopics.graphVoucherUses].sort());
    for (const { options } of responders.values()) expect(options).toEqual({ group: 'graph', consistentWith: [StateGroups.graph] });
    await expect(responders.get(RpcTopics.graphConnect)!.handler(envelope({ customerId: '' }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const neighbourhood = { subjectKind: 'customer', subjectId: 'c1', depth: 2, limit: 10, nowMs: NOW };
    await expect(responders.get(RpcTopics.graphNeighbourhood)!.handler(envelope({ ...neighbourhood, depth: 4 }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(responders.get(RpcTopics.graphNeighbourhood)!.handler(envelope(neighbourhood))).resolves.toMatchObject({ nodes: [{ id: 'customer:c1', subject: true }], truncated: false });
  });
});
