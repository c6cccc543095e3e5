import type { MessageBus } from '@ringfence/bus';
import { EventTopics, type MessageEnvelope } from '@ringfence/contracts';
import { type EntityDocument, type EntityDocumentRepository, type EntityRef, hasUnforgivenChargeback } from '@ringfence/entities';
import { createLogger } from '@ringfence/platform';
import { EntityIngestHandler } from './entity-ingest.handler';
import { INGEST_ROUTES } from './ingest-routes';

const T = 1_763_800_000_000;
const logger = createLogger({ level: 'silent', service: 'test' });

/** The entity store in a map (one writer at a time here; the CAS races are libs/entities' tests). */
function documents() {
  const stored = new Map<string, EntityDocument>();
  const key = (ref: EntityRef) => `${ref.kind}:${ref.entityId}`;
  const repository: EntityDocumentRepository = {
    find: async (ref) => stored.get(key(ref)) ?? null,
    update: async (ref, merge) => {
      const current = stored.get(key(ref)) ?? null;
      const next = merge(current);
      if (next !== null) stored.set(key(ref), next);
      return next ?? current;
    },
  };
  return { repository, stored };
}

const envelope = (payload: object): MessageEnvelope<object> => ({
  eventId: 'e1',
  accountId: 'acc_1',
  environment: 'test',
  subjectId: 's',
  acceptedAt: T,
  traceId: 't',
  payload,
});

const routeOf = (topic: string) => INGEST_ROUTES.find((route) => route.topic === topic)!;
const transaction = [EventTopics.transactionUpdated, { timestamp: T, transaction: { transactionId: 'tx1', amount: 100 }, customer: { customerId: 'c1' } }] as const;
const lost = [EventTopics.disputeUpdated, { timestamp: T + 1, dispute: { disputeId: 'd1', transactionId: 'tx1', stage: 'CHARGEBACK' } }] as const;
const won = [EventTopics.disputeUpdated, { timestamp: T + 2, dispute: { disputeId: 'd1', transactionId: 'tx1', stage: 'CHARGEBACK', outcome: 'WON' } }] as const;

describe(EntityIngestHandler.name, () => {
  async function ingest(events: ReadonlyArray<readonly [string, object]>) {
    const { repository, stored } = documents();
    const handler = new EntityIngestHandler({} as MessageBus, repository, logger);
    for (const [topic, payload] of events) await handler.handle(routeOf(topic), envelope(payload));
    return stored;
  }

  it('gives the customer a PSP dispute’s chargeback whether the dispute comes before or after its transaction', async () => {
    for (const order of [
      [transaction, lost],
      [lost, transaction],
    ]) {
      const stored = await ingest(order);
      expect(stored.get('customer:c1')?.fields).toEqual({ chargebacks: { d1: { forgiven: false } } });
      expect(hasUnforgivenChargeback(stored.get('customer:c1')?.fields)).toBe(true);
    }
  });

  it('forgives it with a later WON outcome in any order, and a replay changes nothing', async () => {
    const orders = [
      [transaction, lost, won],
      [won, lost, transaction],
      [lost, transaction, won],
      [won, transaction, lost],
    ];
    const results = await Promise.all(orders.map((order) => ingest([...order, ...order])));
    for (const stored of results) {
      expect(hasUnforgivenChargeback(stored.get('customer:c1')?.fields)).toBe(false);
      expect(stored).toEqual(results[0]);
    }
  });
});
