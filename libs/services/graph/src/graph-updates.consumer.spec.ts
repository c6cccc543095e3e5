import type { MessageBus } from '@ringfence/bus';
import { EventTopics, type MessageEnvelope } from '@ringfence/contracts';
import type { GraphChange, GraphScope, GraphStore } from '@ringfence/graph-engine';
import { createLogger } from '@ringfence/platform';
import { GraphUpdatesConsumer } from './graph-updates.consumer';
import { graphRouteOf } from './graph-routes';
import { TenantGraphs } from './tenant-graphs.service';

const NOW = 1_700_000_000_000;
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
  const graphs = new TenantGraphs(store, logger, []);
  const apply = graphs.apply.bind(graphs);
  jest.spyOn(graphs, 'apply').mockImplementation(async (scope, changes) => {
    events.push(`index:${changes.length}`);
    return apply(scope, changes);
  });
  const consumer = new GraphUpdatesConsumer({} as MessageBus, store, logger, graphs);
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
