import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EventTopics } from '@ringfence/contracts';
import { VELOCITY_DIMENSIONS, VELOCITY_FEATURE_DEFINITIONS, VELOCITY_MEASURES_BY_DIMENSION, type VelocityDimension } from './velocity-dimensions';
import { type VelocityEvent, type VelocityKeys, velocityEventOf } from './velocity-events';
import { VelocityFeatures } from './velocity-features';
import type { VelocityKeySnapshot, VelocityTenantChanges } from './velocity-key-changes';
import type { VelocityScope } from './velocity-scope';
import { VELOCITY_KEY_RETENTION_MILLIS, VELOCITY_WINDOWS } from './velocity-window-definitions';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T = Date.UTC(2025, 10, 22, 12, 0, 0);
const SCOPE: VelocityScope = { accountId: 'acc_1', environment: 'live' };

let eventIds = 0;
const nextEventId = () => `evt-${(eventIds += 1)}`;

/** A PSP transaction update as velocity reads it, with defaults and overrides of its parts. */
function transaction(
  overrides: { at?: number; transaction?: Record<string, unknown>; customer?: Record<string, unknown>; card?: string | null; device?: Record<string, unknown> } = {},
  eventId = nextEventId(),
): VelocityEvent {
  const payload = {
    timestamp: overrides.at ?? T,
    transaction: { transactionId: `tx-${eventId}`, amount: 1_000, currency: 'GBP', mid: 'mid-1', ...overrides.transaction },
    customer: { customerId: 'cus-1', email: 'ada@example.com', ...overrides.customer },
    ...(overrides.card === null ? {} : { paymentMethod: { instrumentId: overrides.card ?? 'card-1' } }),
    device: { deviceId: 'dev-1', ipAddress: '203.0.113.7', ...overrides.device },
  };
  return velocityEventOf(EventTopics.transactionUpdated, payload, eventId) as VelocityEvent;
}

function customerUpdate(customerId: string, deviceId: string, at = T): VelocityEvent {
  return velocityEventOf(EventTopics.customerUpdated, { timestamp: at, customer: { customerId }, deviceId }, nextEventId()) as VelocityEvent;
}

const KEYS: VelocityKeys = { customer: 'cus-1', cards: ['card-1'], device: 'dev-1', email: 'ada@example.com', ipAddress: '203.0.113.7', merchant: 'mid-1' };

function velocity(options: ConstructorParameters<typeof VelocityFeatures>[0] = {}) {
  return new VelocityFeatures({ now: () => T, ...options });
}

/**
 * What the writes of `changes` (one after another) would store, through JSON, as the table keeps
 * it (a key's older part kept when a write has none), loaded into a fresh instance.
 */
function restoredFrom(writes: ReadonlyArray<readonly VelocityTenantChanges[]>, options: ConstructorParameters<typeof VelocityFeatures>[0] = {}): VelocityFeatures {
  const keys = new Map<string, { scope: VelocityScope; dimension: VelocityDimension; key: string; snapshot: VelocityKeySnapshot }>();
  const restored = velocity(options);
  for (const changes of writes) {
    for (const tenant of JSON.parse(JSON.stringify(changes)) as VelocityTenantChanges[]) {
      for (const { dimension, key, snapshot } of tenant.keys) {
        const id = JSON.stringify([tenant.scope, dimension, key]);
        if (snapshot === null) keys.delete(id);
        else keys.set(id, { scope: tenant.scope, dimension, key, snapshot: { older: snapshot.older ?? keys.get(id)?.snapshot.older, fresh: snapshot.fresh } });
      }
      for (const occurrence of tenant.occurrences) restored.restoreOccurrence(tenant.scope, occurrence);
      restored.restoreRecordedEventIds(tenant.scope, tenant.recordedEventIds);
    }
  }
  for (const { scope, dimension, key, snapshot } of keys.values()) restored.restoreKey(scope, dimension, key, snapshot);
  return restored;
}

describe(VelocityFeatures.name, () => {
  describe('feature definitions', () => {
    it('name every measure of every dimension over every window once, with its CEL type', () => {
      const names = VELOCITY_FEATURE_DEFINITIONS.map((definition) => definition.name);
      expect(new Set(names).size).toBe(names.length);
      const measures = VELOCITY_DIMENSIONS.reduce((count, dimension) => count + VELOCITY_MEASURES_BY_DIMENSION[dimension].length, 0);
      expect(names).toHaveLength(measures * VELOCITY_WINDOWS.length);
      expect(names).toEqual(
        expect.arrayContaining([
          'customerTransactionCount1h',
          'cardDistinctCustomers24h',
          'deviceDistinctCustomers7d',
          'ipTransactionCount1h',
          'merchantTransactionSum24h',
          'customerFailedPaymentCount24h',
          'emailDistinctCustomers30d',
          'phoneRegistrationCount24h',
        ]),
      );
      for (const definition of VELOCITY_FEATURE_DEFINITIONS) {
        expect(definition.type).toBe(definition.measure.endsWith('Sum') ? 'double' : 'int');
        expect(definition.description).toMatch(/in the last/);
      }
    });

    it('fill vectors in their order', () => {
      const features = velocity();
      features.record(SCOPE, transaction());
      const vector = features.featureVectorAt(SCOPE, KEYS, T + MINUTE);
      expect(vector).toHaveLength(VELOCITY_FEATURE_DEFINITIONS.length);
      const index = VELOCITY_FEATURE_DEFINITIONS.findIndex((definition) => definition.name === 'merchantTransactionSum24h');
      expect(vector[index]).toBe(10);
    });
  });

  describe('counting', () => {
    it('counts a transaction once across its before- and after-authorisation updates, its failure once and its amount once', () => {
      const features = velocity();
      features.record(SCOPE, transaction({ transaction: { transactionId: 'tx-1' } }));
      features.record(SCOPE, transaction({ at: T + MINUTE, transaction: { transactionId: 'tx-1', success: false, declineCode: 'DO_NOT_HONOR' } }));
      features.record(SCOPE, transaction({ at: T + 2 * MINUTE, transaction: { transactionId: 'tx-1', success: false } }));

      expect(features.featuresAt(SCOPE, KEYS, T + 3 * MINUTE)).toMatchObject({
        customerTransactionCount1h: 1,
        customerFailedPaymentCount1h: 1,
        customerTransactionSum1h: 10,
        cardTransactionCount1h: 1,
        ipFailedPaymentCount1h: 1,
        merchantTransactionCount24h: 1,
        deviceFailedPaymentCount1h: 1,
      });
    });

    it('does not count a refund step as a payment', () => {
      const features = velocity();
      features.record(SCOPE, transaction({ transaction: { type: 'refund' } }));
      expect(features.featuresAt(SCOPE, KEYS, T).customerTransactionCount1h).toBe(0);
    });

    it('excludes the event being decided when queried before it is recorded', () => {
      const features = velocity();
      features.record(SCOPE, transaction({ at: T - 10 * MINUTE }));
      const decided = transaction();
      const before = features.featuresAt(SCOPE, decided.keys, decided.timestampMillis);
      features.record(SCOPE, decided);
      expect(before.customerTransactionCount1h).toBe(1);
      expect(features.featuresAt(SCOPE, decided.keys, decided.timestampMillis).customerTransactionCount1h).toBe(2);
    });

    it('counts over each window in event time', () => {
      const features = velocity();
      features.record(SCOPE, transaction({ at: T - 2 * HOUR }));
      features.record(SCOPE, transaction({ at: T - 3 * DAY }));
      features.record(SCOPE, transaction({ at: T - 20 * DAY }));
      features.record(SCOPE, transaction({ at: T - 10 * MINUTE }));
      const counts = VELOCITY_WINDOWS.map((window) => features.featuresAt(SCOPE, KEYS, T)[`customerTransactionCount${window.name}`]);
      expect(counts).toEqual([1, 2, 3, 4]);
    });

    it('counts distinct customers per card, device and IP, and distinct cards per customer, from every event that links them', () => {
      const features = velocity();
      for (const customerId of ['cus-1', 'cus-2', 'cus-3', 'cus-2']) features.record(SCOPE, transaction({ customer: { customerId } }));
      features.record(SCOPE, transaction({ card: 'card-2' }));
      features.record(SCOPE, customerUpdate('cus-9', 'dev-1'));
      const at = features.featuresAt(SCOPE, KEYS, T);
      expect(at).toMatchObject({ cardDistinctCustomers24h: 3, ipDistinctCustomers1h: 3, deviceDistinctCustomers7d: 4, customerDistinctCards1h: 2, merchantDistinctCards30d: 2 });
    });

    it('sums in major units of each key’s own currency, and does not sum another currency or an amount without one', () => {
      const features = velocity();
      features.record(SCOPE, transaction({ transaction: { amount: 1_999, currency: 'gbp' } }));
      features.record(SCOPE, transaction({ transaction: { amount: 5_000, currency: 'EUR' } }));
      features.record(SCOPE, transaction({ transaction: { amount: 700, currency: undefined } }));
      features.record(SCOPE, transaction({ customer: { customerId: 'cus-jp' }, card: 'card-jp', transaction: { amount: 1_500, currency: 'JPY', mid: 'mid-jp' } }));
      expect(features.featuresAt(SCOPE, KEYS, T)).toMatchObject({ customerTransactionCount1h: 3, customerTransactionSum1h: 19.99 });
      expect(features.featuresAt(SCOPE, { customer: 'cus-jp', cards: [] }, T).customerTransactionSum1h).toBe(1_500);
    });

    it('answers null for a dimension the keys do not name, 0 for a key never seen, and the largest value over several keys of one dimension', () => {
      const features = velocity();
      features.record(SCOPE, transaction({ card: 'card-1' }));
      features.record(SCOPE, transaction({ card: 'card-2' }));
      features.record(SCOPE, transaction({ card: 'card-2' }));
      const at = features.featuresAt(SCOPE, { customer: 'cus-new', cards: ['card-1', 'card-2'] }, T);
      expect(at).toMatchObject({ customerTransactionCount1h: 0, cardTransactionCount1h: 2, deviceTransactionCount1h: null, merchantTransactionSum24h: null });
    });

    it('drops an event id it recorded lately (a redelivery)', () => {
      const features = velocity();
      const event = transaction();
      expect(features.record(SCOPE, event)).toBe('recorded');
      expect(features.record(SCOPE, { ...event, occurrence: undefined })).toBe('duplicate');
      expect(features.featuresAt(SCOPE, KEYS, T).deviceDistinctCustomers1h).toBe(1);
    });

    it('keeps tenants apart', () => {
      const features = velocity();
      features.record(SCOPE, transaction());
      expect(features.featuresAt({ ...SCOPE, environment: 'test' }, KEYS, T).customerTransactionCount1h).toBe(0);
      expect(features.featuresAt({ ...SCOPE, accountId: 'acc_2' }, KEYS, T).customerTransactionCount1h).toBe(0);
    });
  });

  describe('snapshots and restart', () => {
    it('restores from what it handed over exactly what it had, and a replay of the covered events counts nothing', () => {
      const features = velocity();
      const events = [transaction({ at: T - 5 * DAY }), transaction({ at: T - HOUR, transaction: { transactionId: 'tx-a' } }), customerUpdate('cus-7', 'dev-1', T - MINUTE)];
      for (const event of events) features.record(SCOPE, event);
      const restored = restoredFrom([features.takeChanges()]);

      expect(restored.featureVectorAt(SCOPE, KEYS, T)).toEqual(features.featureVectorAt(SCOPE, KEYS, T));
      for (const event of events) expect(restored.record(SCOPE, event)).toBe('duplicate');
      // A later update of a transaction counted before the restart counts nothing again.
      expect(restored.featuresAt(SCOPE, KEYS, T).customerTransactionCount24h).toBe(1);
      restored.record(SCOPE, transaction({ transaction: { transactionId: 'tx-a', success: true } }));
      expect(restored.featuresAt(SCOPE, KEYS, T).customerTransactionCount24h).toBe(1);
    });

    it('writes a busy key’s older buckets only when they change, and restores the same from the parts stored', () => {
      const features = velocity({ now: () => T + DAY });
      const writes: VelocityTenantChanges[][] = [];
      const customerChange = () => writes[writes.length - 1][0].keys.find((change) => change.dimension === 'customer')!;
      const last = T - 10 * DAY + 199 * HOUR;
      for (let i = 0; i < 200; i += 1) features.record(SCOPE, transaction({ at: T - 10 * DAY + i * HOUR }));
      writes.push(features.takeChanges());
      expect(customerChange().snapshot?.older?.buckets.length).toBeGreaterThan(10);
      // Within the newest minute: only the fresh bucket is written.
      features.record(SCOPE, transaction({ at: last + 5_000 }));
      writes.push(features.takeChanges());
      expect(customerChange().snapshot?.older).toBeUndefined();
      expect(customerChange().snapshot?.fresh.buckets).toHaveLength(1);
      // A late event changes an older bucket: the next write carries the older part again.
      features.record(SCOPE, transaction({ at: T - 9 * DAY }));
      writes.push(features.takeChanges());
      expect(customerChange().snapshot?.older).toBeDefined();
      features.record(SCOPE, transaction({ at: last + 9_000 }));
      writes.push(features.takeChanges());
      expect(customerChange().snapshot?.older).toBeUndefined();
      const at = last + 10_000;
      expect(restoredFrom(writes).featureVectorAt(SCOPE, KEYS, at)).toEqual(features.featureVectorAt(SCOPE, KEYS, at));
    });

    it('writes a key whole again after a failed write, whose older part the store may not hold', () => {
      const features = velocity();
      features.record(SCOPE, transaction());
      features.takeChanges();
      features.record(SCOPE, transaction({ at: T + 1_000 }));
      const failed = features.takeChanges();
      expect(failed[0].keys.every((change) => change.snapshot?.older === undefined)).toBe(true);
      features.returnChanges(failed);
      expect(features.takeChanges()[0].keys.every((change) => change.snapshot?.older !== undefined)).toBe(true);
    });

    it('hands over only what changed since the last call, and deletes a key it forgot', () => {
      const features = velocity();
      features.record(SCOPE, transaction({ customer: { customerId: 'cus-old' }, at: T - 40 * DAY, card: null, device: { deviceId: undefined, ipAddress: undefined } }));
      features.takeChanges();
      expect(features.takeChanges()).toEqual([]);
      // Each event moves the sweep on a few keys; the old key is idle past the retention.
      for (let i = 0; i < 10; i += 1) features.record(SCOPE, transaction());
      const [tenant] = features.takeChanges();
      expect(tenant.keys).toContainEqual({ dimension: 'customer', key: 'cus-old', snapshot: null });
      expect(features.stats().evictedKeys).toBeGreaterThan(0);
    });

    it('hands over again, after a failed write, what the write took', () => {
      const features = velocity();
      features.record(SCOPE, transaction({ transaction: { transactionId: 'tx-f' } }));
      const failed = features.takeChanges();
      features.returnChanges(failed);
      const again = features.takeChanges();
      expect(again[0].keys.map((change) => change.key).sort()).toEqual(failed[0].keys.map((change) => change.key).sort());
      expect(again[0].occurrences).toEqual(failed[0].occurrences);
      expect(again[0].recordedEventIds).toEqual(failed[0].recordedEventIds);
    });

    it('refuses a stored key it could not have written', () => {
      const features = velocity();
      expect(() => features.restoreKey(SCOPE, 'customer', 'c', { newest: T, buckets: [1], numbers: [] })).toThrow(RangeError);
      features.record(SCOPE, transaction());
      const [tenant] = features.takeChanges();
      const customer = tenant.keys.find((change) => change.dimension === 'customer')!;
      const { older, fresh } = customer.snapshot!;
      expect(() => features.restoreKey(SCOPE, 'customer', 'c', { older, fresh: { ...fresh, currency: 'XYZ' } })).toThrow(RangeError);
      expect(() => features.restoreKey(SCOPE, 'customer', 'c', { fresh })).toThrow(RangeError);
      expect(() => features.restoreKey(SCOPE, 'customer', 'c', { older: { ...older!, freshFrom: Number.MAX_SAFE_INTEGER }, fresh })).toThrow(RangeError);
      expect(() => features.restoreKey(SCOPE, 'customer', 'c', { older, fresh: { ...fresh, numbers: 'none' } })).toThrow(RangeError);
      expect(() => features.restoreKey(SCOPE, 'nowhere' as never, 'c', customer.snapshot)).toThrow(RangeError);
    });
  });

  describe('memory', () => {
    it('forgets keys idle for 30 days and the allowance behind the tenant’s newest event', () => {
      const features = velocity({ now: () => T + 40 * DAY });
      features.record(SCOPE, customerUpdate('cus-idle', 'dev-idle', T));
      for (let i = 0; i < 10; i += 1) features.record(SCOPE, customerUpdate(`cus-${i}`, 'dev-busy', T + VELOCITY_KEY_RETENTION_MILLIS - MINUTE));
      expect(features.featuresAt(SCOPE, { customer: 'cus-idle', cards: [] }, T).customerDistinctDevices30d).toBe(1);
      for (let i = 0; i < 10; i += 1) features.record(SCOPE, customerUpdate(`cus-${i}`, 'dev-busy', T + VELOCITY_KEY_RETENTION_MILLIS + MINUTE));
      expect(features.featuresAt(SCOPE, { customer: 'cus-idle', cards: [] }, T).customerDistinctDevices30d).toBe(0);
    });

    it('does not let a timestamp far in the future make every key look idle', () => {
      const features = velocity();
      features.record(SCOPE, customerUpdate('cus-1', 'dev-1', T));
      for (let i = 0; i < 10; i += 1) features.record(SCOPE, customerUpdate(`cus-future-${i}`, 'dev-2', T + 400 * DAY));
      expect(features.featuresAt(SCOPE, { customer: 'cus-1', cards: [] }, T).customerDistinctDevices1h).toBe(1);
    });

    it('holds at most maxKeys, forgetting keys not recorded lately first', () => {
      const features = velocity({ maxKeys: 200 });
      for (let i = 0; i < 2_000; i += 1) {
        features.record(SCOPE, customerUpdate(`cus-${i}`, 'dev-hot', T + i));
        expect(features.stats().keys).toBeLessThanOrEqual(201);
      }
      expect(features.featuresAt(SCOPE, { device: 'dev-hot', cards: [] }, T + 2_000).deviceDistinctCustomers1h).toBeGreaterThan(1_500);
    });

    describe("an account's share (ADR-0016)", () => {
      const FLOODER: VelocityScope = { accountId: 'acc_flooder', environment: 'live' };
      const FLOODER_SANDBOX: VelocityScope = { accountId: 'acc_flooder', environment: 'test' };
      const NEIGHBOUR: VelocityScope = { accountId: 'acc_neighbour', environment: 'live' };
      const neighbourKeys = (i: number): VelocityKeys => ({ customer: `cus-${i}`, cards: [], device: `dev-${i}` });

      it('makes no new key for an account at its share, both data sets together, and never evicts another account’s keys for it', () => {
        const features = velocity({ maxKeys: 1_000, accountMaxKeys: 250 });
        for (let i = 0; i < 100; i += 1) features.record(NEIGHBOUR, customerUpdate(`cus-${i}`, `dev-${i}`, T + i));
        const neighbourBefore = Array.from({ length: 100 }, (_, i) => features.featureVectorAt(NEIGHBOUR, neighbourKeys(i), T + HOUR));

        const outcomes = new Map<string, number>();
        for (let i = 0; i < 5_000; i += 1) {
          const outcome = features.record(i % 2 === 0 ? FLOODER : FLOODER_SANDBOX, customerUpdate(`flood-${i}`, `flood-dev-${i}`, T + i));
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }

        expect(features.accountKeys('acc_flooder')).toBe(250);
        expect(features.accountIsAtShare('acc_flooder')).toBe(true);
        expect(outcomes.get('recorded')).toBe(125);
        expect(outcomes.get('recorded-without-new-keys')).toBe(5_000 - 125);
        expect(features.stats()).toMatchObject({ keys: 450, evictedKeys: 0 });
        // The neighbour's counters are exactly what they were, key for key.
        expect(features.accountKeys('acc_neighbour')).toBe(200);
        for (let i = 0; i < 100; i += 1) expect(features.featureVectorAt(NEIGHBOUR, neighbourKeys(i), T + HOUR)).toEqual(neighbourBefore[i]);
        // The neighbour still adds keys; nothing of its own is given up for the flood.
        expect(features.record(NEIGHBOUR, customerUpdate('cus-new', 'dev-new', T + HOUR))).toBe('recorded');
        expect(features.accountKeys('acc_neighbour')).toBe(202);
      });

      it('keeps the counters of an account that came when others had filled maxKeys, up to its fair part, and brings the others down to theirs as they record', () => {
        const features = velocity({ maxKeys: 200 });
        for (let i = 0; i < 100; i += 1) features.record(FLOODER, customerUpdate(`flood-${i}`, `flood-dev-${i}`, T + i));
        expect(features.accountKeys('acc_flooder')).toBe(200);

        for (let i = 0; i < 40; i += 1) features.record(NEIGHBOUR, customerUpdate(`cus-${i}`, 'dev-shared', T + HOUR + i));

        // Below its fair part (200 ÷ 2): nothing of the newcomer's is forgotten, however full the bound.
        expect(features.accountKeys('acc_neighbour')).toBe(41);
        for (let i = 0; i < 40; i += 1) expect(features.featuresAt(NEIGHBOUR, { customer: `cus-${i}`, cards: [] }, T + 2 * HOUR).customerDistinctDevices24h).toBe(1);
        for (let i = 100; i < 400; i += 1) features.record(FLOODER, customerUpdate(`flood-${i}`, `flood-dev-${i}`, T + 2 * HOUR + i));
        expect(features.accountKeys('acc_flooder')).toBeLessThanOrEqual(160);
        expect(features.stats().keys).toBeLessThanOrEqual(201);
        expect(features.accountKeys('acc_neighbour')).toBe(41);
      });

      it('still counts the events of an account at its share into the keys it holds', () => {
        const features = velocity({ accountMaxKeys: 2 });
        features.record(FLOODER, customerUpdate('cus-kept', 'dev-kept', T));

        expect(features.record(FLOODER, customerUpdate('cus-kept', 'dev-new', T + MINUTE))).toBe('recorded-without-new-keys');
        expect(features.record(FLOODER, customerUpdate('cus-kept', 'dev-kept', T + 2 * MINUTE))).toBe('recorded');

        expect(features.featuresAt(FLOODER, { customer: 'cus-kept', cards: [] }, T + HOUR).customerDistinctDevices1h).toBe(2);
        expect(features.featuresAt(FLOODER, { device: 'dev-new', cards: [] }, T + HOUR).deviceDistinctCustomers1h).toBe(0);
      });

      it('makes keys again once the account’s own idle keys are forgotten, and loads every stored key at start whatever the share', () => {
        const features = velocity({ accountMaxKeys: 2, now: () => T + 40 * DAY });
        features.record(FLOODER, customerUpdate('cus-old', 'dev-old', T));
        const late = T + VELOCITY_KEY_RETENTION_MILLIS + DAY;
        // Its clock moves on: this event finds the account at its share, and the sweep (a few keys an event) forgets the idle ones.
        expect(features.record(FLOODER, customerUpdate('cus-late', 'dev-late', late))).toBe('recorded-without-new-keys');
        const outcomes = Array.from({ length: 10 }, () => features.record(FLOODER, customerUpdate('cus-late', 'dev-late', late)));

        expect(outcomes.at(-1)).toBe('recorded');
        expect(features.accountKeys('acc_flooder')).toBe(2);
        expect(features.featuresAt(FLOODER, { customer: 'cus-late', cards: [] }, late + 1).customerDistinctDevices1h).toBe(1);
        expect(features.featuresAt(FLOODER, { customer: 'cus-old', cards: [] }, T + 1).customerDistinctDevices1h).toBe(0);

        const restored = restoredFrom([[...features.takeChanges()]], { accountMaxKeys: 1 });
        expect(restored.accountKeys('acc_flooder')).toBe(2);
      });
    });

    it('takes under a kilobyte of heap for a customer key with a device, the device key and their link', () => {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      const features = velocity();
      const events = Array.from({ length: 20_000 }, (_, i) => customerUpdate(`cus-${i}`, `dev-${i}`, T + i * 1_000));
      gc();
      const before = process.memoryUsage().heapUsed;
      for (const event of events) features.record(SCOPE, event);
      features.takeChanges();
      gc();
      const bytesPerKey = (process.memoryUsage().heapUsed - before) / features.stats().keys;
      expect(features.stats().keys).toBe(40_000);
      expect(bytesPerKey).toBeLessThan(1_024);
    });
  });
});
