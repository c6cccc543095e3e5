import type { INestMicroservice } from '@nestjs/common';
import type { MessageBus, SubscribeOptions } from '@ringfence/bus';
import { startBusControllers } from '@ringfence/bus/testing';
import { EventTopics, type MessageEnvelope, StateGroups } from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocument, type EntityDocumentRepository, type EntityRef, hasUnforgivenChargeback } from '@ringfence/entities';
import { createLogger } from '@ringfence/platform';
import { ROOT_LOGGER } from '@ringfence/service-runtime';
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
    const handler = new EntityIngestHandler(repository, logger);
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

describe(`${EntityIngestHandler.name} on the bus`, () => {
  const running: INestMicroservice[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((microservice) => microservice.close()));
  });

  /** What the transporter subscribes, and the handlers, called as the bus calls them. */
  async function subscribe(repository: EntityDocumentRepository) {
    const subscriptions = new Map<string, { options: SubscribeOptions; handler: (message: MessageEnvelope<unknown>) => Promise<void> }>();
    const bus = {
      subscribe: (topic: string, options: SubscribeOptions, handler: (message: MessageEnvelope<unknown>) => Promise<void>) => subscriptions.set(topic, { options, handler }),
      start: async () => undefined,
      stop: async () => undefined,
    } as unknown as MessageBus;
    running.push(
      await startBusControllers(bus, {
        controllers: [EntityIngestHandler],
        providers: [
          { provide: ENTITY_DOCUMENT_REPOSITORY, useValue: repository },
          { provide: ROOT_LOGGER, useValue: logger },
        ],
      }),
    );
    return subscriptions;
  }

  it('consumes exactly the ingestion state group’s topics, in that group', async () => {
    const subscriptions = await subscribe(documents().repository);

    expect([...subscriptions.keys()].sort()).toEqual([...StateGroups.ingestion.topics].sort());
    expect(new Set([...subscriptions.values()].map(({ options }) => options.group))).toEqual(new Set([StateGroups.ingestion.group]));
  });

  it('flushes a write-behind store before the bus commits, and has no hook for a store that writes through', async () => {
    const writeThrough = await subscribe(documents().repository);
    expect([...writeThrough.values()].every(({ options }) => options.beforeCommit === undefined)).toBe(true);

    let flushes = 0;
    const writeBehind = await subscribe({ ...documents().repository, flush: async () => void (flushes += 1) });
    await writeBehind.get(EventTopics.customerUpdated)!.options.beforeCommit!();
    expect(flushes).toBe(1);
  });

  it('stores the event of the topic it came on, and skips an invalid one instead of retrying it', async () => {
    const { repository, stored } = documents();
    const subscriptions = await subscribe(repository);

    await subscriptions.get(transaction[0])!.handler(envelope(transaction[1]));
    await expect(subscriptions.get(EventTopics.customerUpdated)!.handler(envelope({ timestamp: 'yesterday' }))).resolves.toBeUndefined();

    expect([...stored.keys()].sort()).toEqual(['customer:c1', 'transaction:tx1']);
  });
});
