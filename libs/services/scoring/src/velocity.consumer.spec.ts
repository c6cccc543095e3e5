import type { INestMicroservice } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { InProcessMessageBus, type MessageBus, MessageBusController, SILENT_BUS_LOGGER, type SubscribeOptions } from '@ringfence/bus';
import { InMemoryEventLogStore, startBusControllers } from '@ringfence/bus/testing';
import { EventTopics, type MessageEnvelope, RpcTopics, StateGroups } from '@ringfence/contracts';
import type { StoredVelocityKey, StoredVelocityOccurrence, VelocitySnapshotStore, VelocityTenantWrite } from '@ringfence/scoring-store';
import { InMemorySetAsideStore, SetAsideRows, createLogger } from '@ringfence/platform';
import { ROOT_LOGGER } from '@ringfence/service-runtime';
import type { EntityDocument } from '@ringfence/entities';
import type { CheckpointFacts } from './checkpoint-facts';
import { VelocityConsumer } from './velocity.consumer';
import { VelocityState } from './velocity-state.service';

const T = Date.UTC(2025, 10, 22, 12);
const logger = createLogger({ level: 'silent', service: 'test' });
const CONFIG = { velocityMaxKeys: 2_000_000, accountSharePercent: 100 };

/** The store as the tables keep it: JSON, rows replaced by key, writes all or nothing. */
class InMemoryVelocityStore implements VelocitySnapshotStore {
  readonly keys = new Map<string, StoredVelocityKey>();
  readonly occurrences = new Map<string, StoredVelocityOccurrence>();
  readonly recorded: Array<{ scope: VelocityTenantWrite['scope']; eventIds: string[] }> = [];
  writes = 0;
  failing: Error | undefined;
  /** Writes carrying this account's changes are refused, as PostgreSQL refuses a value it cannot store. */
  refusedAccountId: string | undefined;

  async write(changes: readonly VelocityTenantWrite[]): Promise<void> {
    if (this.failing) throw this.failing;
    if (changes.some(({ scope }) => scope.accountId === this.refusedAccountId)) {
      throw Object.assign(new Error('bigint out of range'), { code: '22003' });
    }
    this.writes += 1;
    for (const { scope, keys, occurrences, recordedEventIds } of JSON.parse(JSON.stringify(changes)) as VelocityTenantWrite[]) {
      for (const { dimension, key, snapshot } of keys) {
        const id = JSON.stringify([scope, dimension, key]);
        const stored = this.keys.get(id)?.snapshot as { older?: object } | undefined;
        // As the table does: a write without the older part keeps the one stored.
        if (snapshot === null) this.keys.delete(id);
        else this.keys.set(id, { scope, dimension, key, snapshot: { ...snapshot, older: (snapshot as { older?: object }).older ?? stored?.older } });
      }
      for (const occurrence of occurrences) this.occurrences.set(JSON.stringify([scope, occurrence.occurrence]), { scope, ...occurrence });
      if (recordedEventIds.length > 0) this.recorded.push({ scope, eventIds: [...recordedEventIds] });
    }
  }

  async keysAfter(after: unknown, limit: number): Promise<StoredVelocityKey[]> {
    return after === undefined ? [...this.keys.values()].slice(0, limit) : [];
  }

  async occurrencesAfter(after: unknown, limit: number): Promise<StoredVelocityOccurrence[]> {
    return after === undefined ? [...this.occurrences.values()].slice(0, limit) : [];
  }

  async recordedEventIds(): Promise<Array<{ scope: VelocityTenantWrite['scope']; eventIds: string[] }>> {
    return this.recorded;
  }
}

/** Ingestion's transaction documents, as `CheckpointFacts.transaction` answers them: what a dispute's keys are read from. */
class StoredTransactions {
  readonly documents = new Map<string, EntityDocument>();
  readonly facts = { transaction: async (_message: unknown, transactionId: string) => this.documents.get(transactionId) ?? null } as unknown as CheckpointFacts;

  store(transactionId: string, fields: Record<string, unknown>): void {
    this.documents.set(transactionId, { fields, fieldTimestamps: {} } as unknown as EntityDocument);
  }
}
const storedTransactions = new StoredTransactions();

let sequence = 0;
function envelope(payload: object, overrides: Partial<MessageEnvelope<object>> = {}): MessageEnvelope<object> {
  sequence += 1;
  return { eventId: `evt-${sequence}`, accountId: 'acc_1', environment: 'live', subjectId: 'cus-1', acceptedAt: T, traceId: `trace-${sequence}`, payload, ...overrides };
}

/** A PSP transaction update as the gateway publishes it (valid for its payload class). */
const transaction = (transactionId: string, at = T, extra: Record<string, unknown> = {}) => ({
  timestamp: at,
  transaction: { transactionId, amount: 1_250, currency: 'GBP', mid: 'mid-1', ...extra },
  customer: { customerId: 'cus-1' },
  paymentMethod: { instrumentId: 'card-1' },
  device: { deviceId: 'dev-1', ipAddress: '203.0.113.7' },
});

/**
 * A checkpoint responder as scoring declares it (consistent with the velocity group), answering
 * with what the scorer would read: the call the scorer makes.
 */
@MessageBusController()
class VelocityReadingResponder {
  constructor(private readonly velocity: VelocityState) {}

  @MessagePattern(RpcTopics.transactionCheckpoint, { group: 'scoring', consistentWith: [StateGroups.scoringVelocity] })
  score(@Payload() message: MessageEnvelope<object>): Record<string, number | null> | null {
    return this.velocity.featuresFor(EventTopics.transactionUpdated, message);
  }
}

describe(VelocityConsumer.name, () => {
  const running: INestMicroservice[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((microservice) => microservice.close()));
  });

  describe('its declaration', () => {
    type Handler = (message: MessageEnvelope<unknown>) => Promise<void>;

    async function subscribe(state: VelocityState) {
      const subscriptions = new Map<string, { options: SubscribeOptions; handler: Handler }>();
      const bus = {
        subscribe: (topic: string, options: SubscribeOptions, handler: Handler) => subscriptions.set(topic, { options, handler }),
        start: async () => undefined,
        stop: async () => undefined,
      } as unknown as MessageBus;
      running.push(
        await startBusControllers(bus, {
          controllers: [VelocityConsumer],
          providers: [
            { provide: VelocityState, useValue: state },
            { provide: ROOT_LOGGER, useValue: logger },
          ],
        }),
      );
      return subscriptions;
    }

    it('consumes exactly the velocity state group’s topics, in that group, writing the counters before each commit', async () => {
      const store = new InMemoryVelocityStore();
      const state = new VelocityState(store, logger, [], CONFIG, new SetAsideRows(new InMemorySetAsideStore()), storedTransactions.facts);
      const subscriptions = await subscribe(state);

      expect([...subscriptions.keys()].sort()).toEqual([...StateGroups.scoringVelocity.topics].sort());
      expect(new Set([...subscriptions.values()].map(({ options }) => options.group))).toEqual(new Set(['scoring-velocity']));

      await subscriptions.get(EventTopics.transactionUpdated)!.handler(envelope(transaction('tx-1')));
      expect(store.writes).toBe(0);
      await subscriptions.get(EventTopics.customerUpdated)!.options.beforeCommit!();
      expect(store.writes).toBe(1);
      expect([...store.keys.values()].map((key) => key.dimension).sort()).toEqual(['card', 'cardMerchant', 'customer', 'device', 'ipAddress', 'merchant']);
    });

    it('skips an invalid event instead of retrying it, and keeps the changes of a failed write for the next', async () => {
      const store = new InMemoryVelocityStore();
      const state = new VelocityState(store, logger, [], CONFIG, new SetAsideRows(new InMemorySetAsideStore()), storedTransactions.facts);
      const subscriptions = await subscribe(state);
      const transactions = subscriptions.get(EventTopics.transactionUpdated)!;

      await expect(transactions.handler(envelope({ timestamp: 'yesterday' }))).resolves.toBeUndefined();
      await transactions.handler(envelope(transaction('tx-1')));
      store.failing = new Error('the database is down');
      await expect(transactions.options.beforeCommit!()).rejects.toThrow('the database is down');
      store.failing = undefined;
      await transactions.options.beforeCommit!();
      expect(store.keys.size).toBe(6);
      expect(store.recorded.flatMap((write) => write.eventIds)).toHaveLength(1);
    });

    it("sets a tenant's refused changes aside after their attempts and writes the other tenants' at once (ADR-0016)", async () => {
      const store = new InMemoryVelocityStore();
      const setAsideStore = new InMemorySetAsideStore();
      const state = new VelocityState(store, logger, [], CONFIG, new SetAsideRows(setAsideStore), storedTransactions.facts);
      const transactions = (await subscribe(state)).get(EventTopics.transactionUpdated)!;
      store.refusedAccountId = 'acc_poisoned';
      await transactions.handler(envelope(transaction('tx-poisoned'), { accountId: 'acc_poisoned' }));
      await transactions.handler(envelope(transaction('tx-1')));
      const flush = () => transactions.options.beforeCommit!().then(() => 'written', () => 'not written');

      expect(await flush()).toBe('not written');
      expect(store.keys.size).toBe(6);
      expect(await flush()).toBe('not written');
      expect(setAsideStore.rows).toEqual([]);
      expect(await flush()).toBe('written');

      expect(setAsideStore.rows).toEqual([expect.objectContaining({ writer: 'velocity-counters', accountId: 'acc_poisoned', environment: 'live', attempts: 3 })]);
      await transactions.handler(envelope(transaction('tx-2')));
      expect(await flush()).toBe('written');
      expect(store.recorded.flatMap((write) => write.eventIds)).toHaveLength(2);
    });

    it('sets nothing aside while the store is down (ADR-0016)', async () => {
      const store = new InMemoryVelocityStore();
      const setAsideStore = new InMemorySetAsideStore();
      const state = new VelocityState(store, logger, [], CONFIG, new SetAsideRows(setAsideStore), storedTransactions.facts);
      const transactions = (await subscribe(state)).get(EventTopics.transactionUpdated)!;
      await transactions.handler(envelope(transaction('tx-1')));
      store.failing = new Error('Connection terminated unexpectedly');
      for (let flush = 0; flush < 5; flush += 1) await expect(transactions.options.beforeCommit!()).rejects.toThrow();

      store.failing = undefined;
      await transactions.options.beforeCommit!();

      expect(setAsideStore.rows).toEqual([]);
      expect(store.keys.size).toBe(6);
    });

    it('says not ready, and answers no features, until the stored counters are loaded', async () => {
      let loadStore!: () => void;
      const store = new InMemoryVelocityStore();
      const gate = new Promise<void>((resolve) => (loadStore = resolve));
      const slowStore = { ...store, write: store.write.bind(store), keysAfter: async () => gate.then(() => []), occurrencesAfter: store.occurrencesAfter.bind(store), recordedEventIds: store.recordedEventIds.bind(store) };
      const checks: Array<{ name: string; isReady(): Promise<boolean> }> = [];
      const state = new VelocityState(slowStore, logger, checks, CONFIG, new SetAsideRows(new InMemorySetAsideStore()), storedTransactions.facts);
      state.onModuleInit();
      state.onApplicationBootstrap();

      expect(checks.map((check) => check.name)).toEqual(['velocity']);
      await expect(checks[0].isReady()).resolves.toBe(false);
      expect(state.featuresFor(EventTopics.transactionUpdated, envelope(transaction('tx-1')))).toBeNull();
      loadStore();
      await state.load();
      await expect(checks[0].isReady()).resolves.toBe(true);
    });
  });

  describe('its load at start', () => {
    it('skips a stored key it cannot read back, and loads the rest', async () => {
      const store = new InMemoryVelocityStore();
      const writer = new VelocityState(store, logger, [], CONFIG, new SetAsideRows(new InMemorySetAsideStore()), storedTransactions.facts);
      await writer.record(EventTopics.transactionUpdated, envelope(transaction('tx-1')));
      await writer.flush();
      const scope = { accountId: 'acc_1', environment: 'live' };
      store.keys.set('broken', { scope, dimension: 'customer', key: 'cus-broken', snapshot: { older: { buckets: 'none' }, fresh: {} } });

      const reader = new VelocityState(store, logger, [], CONFIG, new SetAsideRows(new InMemorySetAsideStore()), storedTransactions.facts);
      await expect(reader.load()).resolves.toMatchObject({ keys: 6, unreadableKeys: 1, recordedEventIds: 1 });
      expect(reader.featuresFor(EventTopics.transactionUpdated, envelope(transaction('tx-2')))).toMatchObject({ customerTransactionCount1h: 1 });
    });
  });

  describe('on the in-process bus', () => {
    async function startService(eventLog: InMemoryEventLogStore, store: VelocitySnapshotStore) {
      const bus = new InProcessMessageBus({ eventLog, logger: SILENT_BUS_LOGGER, commitIntervalMs: 5 });
      const state = new VelocityState(store, logger, [], CONFIG, new SetAsideRows(new InMemorySetAsideStore()), storedTransactions.facts);
      const microservice = await startBusControllers(bus, {
        controllers: [VelocityConsumer, VelocityReadingResponder],
        providers: [
          { provide: VelocityState, useValue: state },
          { provide: ROOT_LOGGER, useValue: logger },
        ],
      });
      running.push(microservice);
      /** What a checkpoint does: publish its event, then ask with the same trace id. */
      const checkpoint = async (payload: object) => {
        const ingest = envelope(payload);
        await bus.publish(EventTopics.transactionUpdated, ingest as never);
        return (await bus.request(RpcTopics.transactionCheckpoint, { ...ingest, eventId: `${ingest.eventId}-request` } as never, { timeoutMs: 5_000 })) as unknown as Record<string, number | null>;
      };
      return { bus, state, checkpoint, microservice };
    }

    it('answers a checkpoint with the windows before its own event and after every earlier one', async () => {
      const { checkpoint } = await startService(new InMemoryEventLogStore(), new InMemoryVelocityStore());

      expect((await checkpoint(transaction('tx-1'))).customerTransactionCount1h).toBe(0);
      expect((await checkpoint(transaction('tx-2', T + 1_000))).customerTransactionCount1h).toBe(1);
      // The after-authorisation update of tx-2: the same transaction, now declined.
      const afterAuth = await checkpoint(transaction('tx-2', T + 2_000, { success: false }));
      expect(afterAuth).toMatchObject({ customerTransactionCount1h: 2, customerFailedPaymentCount1h: 0, cardDistinctCustomers1h: 1, merchantTransactionSum24h: 25 });
      expect((await checkpoint(transaction('tx-3', T + 3_000))).customerFailedPaymentCount1h).toBe(1);
    });

    it('counts each dispute once, at its own time, against its transaction\'s card, customer and merchant, and no earlier', async () => {
      const { bus, checkpoint } = await startService(new InMemoryEventLogStore(), new InMemoryVelocityStore());
      const day = 86_400_000;
      await checkpoint(transaction('tx-d1', T, { amount: 1_000 }));
      await checkpoint(transaction('tx-d2', T + 1_000, { amount: 3_000 }));
      storedTransactions.store('tx-d1', { mid: 'mid-1', customerId: 'cus-1', paymentMethod: { instrumentId: 'card-1' } });
      const dispute = (disputeId: string, transactionId: string, at: number, extra: Record<string, unknown> = {}) =>
        bus.publish(EventTopics.disputeUpdated, envelope({ timestamp: at, dispute: { disputeId, transactionId, stage: 'CHARGEBACK', outcome: 'LOST', ...extra } }) as never);
      await dispute('dsp-1', 'tx-d1', T + 7 * day);
      // The same dispute again (a stage update), one already won by the merchant, and one whose transaction is unknown: none counts.
      await dispute('dsp-1', 'tx-d1', T + 7 * day + 1_000, { stage: 'PRE_ARBITRATION' });
      await dispute('dsp-2', 'tx-d1', T + 7 * day + 2_000, { outcome: 'WON' });
      await dispute('dsp-3', 'tx-unknown', T + 7 * day + 3_000);

      // A payment dated before the dispute arrived does not see it (event time); one after does.
      expect(await checkpoint(transaction('tx-d3', T + 7 * day - 60_000))).toMatchObject({ merchantDisputeCount7d: 0, cardDisputeCount30d: 0 });
      const after = await checkpoint(transaction('tx-d4', T + 7 * day + 60_000));
      expect(after).toMatchObject({ merchantDisputeCount24h: 1, merchantDisputeCount7d: 1, cardDisputeCount30d: 1, customerDisputeCount30d: 1 });
      // The dispute added no distinct link and no payment: the card's customers and payments are those of the payments.
      expect(after).toMatchObject({ cardDistinctCustomers30d: 1, merchantTransactionCount30d: 3, cardMerchantTransactionCount30d: 3 });
    });

    it('keeps the sum of squared amounts beside the sum, and counts each card at each merchant', async () => {
      const { checkpoint } = await startService(new InMemoryEventLogStore(), new InMemoryVelocityStore());
      await checkpoint(transaction('tx-s1', T, { amount: 1_000 }));
      await checkpoint(transaction('tx-s2', T + 1_000, { amount: 3_000 }));
      const third = await checkpoint(transaction('tx-s3', T + 2_000, { amount: 2_000, mid: 'mid-2' }));
      expect(third).toMatchObject({ customerTransactionSum1h: 40, customerTransactionSquareSum1h: 1_000, cardTransactionSquareSum24h: 1_000 });
      expect(third).toMatchObject({ cardMerchantTransactionCount30d: 0, merchantTransactionCount30d: 0 });
      expect(await checkpoint(transaction('tx-s4', T + 3_000, { mid: 'mid-1' }))).toMatchObject({ cardMerchantTransactionCount30d: 2 });
    });

    it('survives a crash between its write and the offset commit without counting the replayed events twice', async () => {
      const eventLog = new InMemoryEventLogStore();
      const store = new InMemoryVelocityStore();
      const first = await startService(eventLog, store);
      eventLog.failWith('commitOffsets', new Error('the commit is lost'));
      // Refunds without a refundId: nothing but their event id tells a replay from a new one.
      for (let i = 0; i < 3; i += 1) await first.bus.publish(EventTopics.refundRequested, envelope({ timestamp: T, customer: { customerId: 'cus-1' }, refund: { amount: 500, currency: 'GBP' }, order: {} }) as never);
      for (let i = 0; i < 5; i += 1) await first.checkpoint(transaction(`tx-${i}`, T + i * 1_000));
      await first.state.flush();
      expect(store.recorded.flatMap((write) => write.eventIds)).toHaveLength(8);
      await first.microservice.close();
      running.splice(running.indexOf(first.microservice), 1);
      expect(eventLog.offsets.size).toBe(0);

      eventLog.recover();
      const second = await startService(eventLog, store);
      // The eight events are delivered again from offset 0 and dropped; the next checkpoint sees exactly them.
      expect(await second.checkpoint(transaction('tx-5', T + 5_000))).toMatchObject({ customerTransactionCount1h: 5, customerRefundCount1h: 3, customerRefundSum1h: 15 });
      expect(second.state.stats().keys).toBe(6);
    });
  });
});
