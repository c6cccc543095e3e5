import type { INestMicroservice } from '@nestjs/common';
import type { MessageBus, RespondOptions, SubscribeOptions } from '@ringfence/bus';
import { startBusControllers } from '@ringfence/bus/testing';
import { EventTopics, type MessageEnvelope, RpcTopics, StateGroups } from '@ringfence/contracts';
import { GRAPH_STORE, type GraphChange, type GraphScope, type GraphStore } from '@ringfence/graph-engine';
import { createLogger } from '@ringfence/platform';
import { ROOT_LOGGER } from '@ringfence/service-runtime';
import { GraphQueryResponders } from './graph-query.responders';
import { GraphUpdatesConsumer, GraphUpdatesController } from './graph-updates.consumer';
import { graphRouteOf } from './graph-routes';
import { TenantGraphs } from './tenant-graphs.service';

const NOW = 1_700_000_000_000;
const UNBOUNDED = { graphMaxNodes: 1_000_000_000, accountSharePercent: 100 };
const logger = createLogger({ level: 'silent', service: 'test' });

function setup() {
  const events: string[] = [];
  const store: GraphStore = {
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
  const consumer = new GraphUpdatesConsumer(store, graphs);
  return { consumer, graphs, events, store };
}

const envelope = (payload: object): MessageEnvelope<object> => ({
  eventId: 'e1',
  accountId: 'acc_1',
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
