import { minorUnitDigits } from '../currency-amounts';
import { distinctHash } from './distinct-hash';
import { OccurrenceFlags, type OccurrenceRecord, OccurrenceRegistry } from './occurrence-registry';
import { RecordedEventIds } from './recorded-event-ids';
import { VelocityBuckets, type VelocityBucketsPart } from './velocity-buckets';
import {
  type DimensionPlan,
  VELOCITY_DIMENSION_PLANS,
  VELOCITY_DIMENSION_PLAN,
  VELOCITY_FEATURE_DEFINITIONS,
  VELOCITY_MEASURES,
  type VelocityDimension,
  type VelocityMeasureName,
} from './velocity-dimensions';
import type { VelocityEvent, VelocityKeys, VelocityOccurrence } from './velocity-events';
import { VELOCITY_KEY_RETENTION_MILLIS, VELOCITY_WINDOWS } from './velocity-window-definitions';

/** One account and environment (data set): velocity never mixes two. */
export interface VelocityScope {
  accountId: string;
  environment: string;
}

export interface VelocityFeaturesOptions {
  /**
   * Keys held in memory at most, over every tenant and dimension. Past it, keys not recorded
   * since the last sweep went by are forgotten first (a CLOCK approximation of least recently
   * used). Keys idle for 30 days + the late allowance are forgotten anyway. Default 2,000,000.
   */
  maxKeys?: number;
  /**
   * Keys one account may hold, both its data sets together (decisions §16, "Tenants share
   * fairly"). An event of an account that holds this many adds to its existing keys but makes
   * no new one (`record` says so), and nothing of another account's is evicted for it. Keys
   * loaded at start are always loaded (accepted data is kept). Default: `maxKeys` (no share).
   */
  accountMaxKeys?: number;
  /** The wall clock (epoch ms): the age of remembered event ids, the future guard below. */
  now?: () => number;
  /** How long the ids of recorded events are remembered to drop redeliveries (processing time). Default 5 min. */
  recordedEventMemoryMillis?: number;
  /** How long the ids loaded by `restoreRecordedEventIds` are remembered: the replay after a restart must pass them. Default 1 h. */
  restoredEventMemoryMillis?: number;
  /**
   * Events stamped further ahead of the wall clock than this are counted but do not move their
   * tenant's clock, so one wrong timestamp cannot make every key look idle. Default one day.
   */
  futureToleranceMillis?: number;
}

/**
 * The result of `record`. `recorded-without-new-keys`: recorded into the keys the account
 * holds, but a key the event names was not made, because the account holds its share.
 */
export type RecordOutcome = 'recorded' | 'recorded-without-new-keys' | 'duplicate';

/**
 * One key as stored, in two parts so that a busy key (hundreds of buckets, written at every
 * flush) rewrites only what changed: `older`, its buckets starting before `freshFrom` (which
 * change about once a minute, when old buckets merge), and `fresh`, the others with the newest
 * time and the currency. `older` is absent from a write when it is the same as the one stored.
 */
export interface VelocityKeySnapshot {
  older?: VelocityBucketsPart & { freshFrom: number };
  fresh: VelocityBucketsPart & { newest: number; currency?: string };
}

/** A key to write (its snapshot) or to delete (null: forgotten, nothing left to count). */
export interface VelocityKeyChange {
  dimension: VelocityDimension;
  key: string;
  snapshot: VelocityKeySnapshot | null;
}

/** What changed in one tenant since the last `takeChanges`: one write's worth. */
export interface VelocityTenantChanges {
  scope: VelocityScope;
  keys: VelocityKeyChange[];
  occurrences: OccurrenceRecord[];
  /** The store may forget occurrences of days before this one. */
  occurrencesForgottenBefore: number | undefined;
  /** The events this write covers: a replay of any of them must not count again. */
  recordedEventIds: string[];
}

/** A key in memory: its buckets, the currency of its sums, the CLOCK bit of the eviction, and what the store holds of it. */
class VelocityKey extends VelocityBuckets {
  currency: string | undefined = undefined;
  recentlyUsed = true;
  /** The `changeVersion` and fresh boundary of the `older` part last handed over; -1: none (write it whole). */
  writtenVersion = -1;
  writtenFreshFrom = Number.NEGATIVE_INFINITY;
}

/** A fresh part of more buckets than this is written with a new `older` part, to keep writes small. */
const MAX_FRESH_BUCKETS = 8;

/** What one account holds over its data sets: the count its share bounds. */
interface AccountHolding {
  keys: number;
}

interface Tenant {
  scope: VelocityScope;
  /** Shared by the account's data sets. */
  holding: AccountHolding;
  /** Per dimension (VELOCITY_DIMENSION_PLANS' order), by key value. */
  keys: Array<Map<string, VelocityKey>>;
  /** The newest event time recorded (within the future tolerance). */
  clockMillis: number;
  occurrences: OccurrenceRegistry;
  recorded: RecordedEventIds;
  /** Per dimension, the keys changed (or forgotten) since the last `takeChanges`. */
  dirty: Array<Set<string>>;
  /** Where the eviction sweep stands: the dimension, and the position in its keys. */
  cursorDimension: number;
  cursor: Iterator<[string, VelocityKey]> | undefined;
}

const PLAN_INDEX = new Map(VELOCITY_DIMENSION_PLANS.map((plan, index) => [plan.dimension, index]));
/** The dimensions whose values distinct measures count, and each one's position in the hash scratch. */
const DISTINCT_OF: readonly VelocityDimension[] = [
  ...new Set(VELOCITY_DIMENSION_PLANS.flatMap((plan) => plan.distinctMeasures.map((name) => (VELOCITY_MEASURES[name] as { of: VelocityDimension }).of))),
];
const FEATURE_COUNT = VELOCITY_FEATURE_DEFINITIONS.length;
const WINDOWS = VELOCITY_WINDOWS.length;
const MAX_NUMBERS = Math.max(...VELOCITY_DIMENSION_PLANS.map((plan) => plan.layout.numbers));
const MAX_STRIDE = Math.max(...VELOCITY_DIMENSION_PLANS.map((plan) => plan.layout.numbers + plan.layout.distincts));
/** The occurrence kinds each dimension counts or sums. */
const COUNTED_KINDS = new Map(
  VELOCITY_DIMENSION_PLANS.map((plan) => [
    plan.dimension,
    new Set(plan.numberMeasures.map((name) => VELOCITY_MEASURES[name]).flatMap((measure) => (measure.kind === 'distinct' ? [] : [measure.occurrence]))),
  ]),
);
/** The keys of an event that names none: what `countsOnly` events hash for distinct links. */
const NO_KEYS: VelocityKeys = { cards: [] };
/** Keys the eviction sweep looks at per recorded event: enough to pass over every key between two visits. */
const SWEEP_STEPS = 2;

const valuesOf = (keys: VelocityKeys, dimension: VelocityDimension): readonly string[] => {
  if (dimension === 'card') return keys.cards;
  if (dimension === 'cardMerchant') return cardMerchantKeys(keys);
  const value = keys[dimension];
  return value === undefined ? [] : [value];
};

/** Each card of the event at its merchant, as one key: JSON of the pair, so no separator inside an id can make two pairs collide. */
function cardMerchantKeys({ cards, merchant }: VelocityKeys): readonly string[] {
  if (merchant === undefined || cards.length === 0) return [];
  return cards.map((card) => JSON.stringify([card, merchant]));
}

/**
 * Velocity features in event time (decisions §12): per tenant, per dimension (customer, card,
 * device, e-mail, phone, IP address, merchant) and per key, counts, sums and distinct counts
 * over 1 h, 24 h, 7 d and 30 d (VELOCITY_FEATURE_DEFINITIONS).
 *
 * - `record(scope, event)` adds one event to the keys it names, O(1) per key (velocity-buckets.ts);
 *   an event id recorded lately is dropped as a redelivery; each occurrence (a transaction, a
 *   refund…) counts once whatever its updates (occurrence-registry.ts).
 * - `featureVectorAt` / `featuresAt` read the windows (t − w, t] at an event time t. Query before
 *   recording the event being decided: the windows then exclude it.
 * - Sums are in major units of each key's currency (the first currency it was summed in); no
 *   exchange rates, so amounts in another currency, or without one, are counted but not summed.
 * - Memory is bounded: keys idle for 30 d + the late allowance are forgotten, past `maxKeys`
 *   the recording tenant's least recently recorded go first, and an account holding
 *   `accountMaxKeys` (its share, decisions §16) makes no new key until some of its own are
 *   forgotten.
 * - `takeChanges` hands over what changed since the last call (keys to write or delete,
 *   occurrences, the event ids covered) for a write-behind store; `restoreKey`,
 *   `restoreOccurrence` and `restoreRecordedEventIds` load it back.
 *
 * Synchronous and framework-free; one instance per process holds every tenant.
 */
export class VelocityFeatures {
  private readonly tenants = new Map<string, Tenant>();
  private readonly holdings = new Map<string, AccountHolding>();
  private lastTenant: Tenant | undefined;
  private readonly maxKeys: number;
  private readonly accountMaxKeys: number;
  private readonly now: () => number;
  private readonly recordedEventMemoryMillis: number;
  private readonly restoredEventMemoryMillis: number;
  private readonly futureToleranceMillis: number;
  private keyCount = 0;
  private evictedKeys = 0;
  private keysRefused = 0;
  /** Accounts holding at least one key: the fair part of `maxKeys` is shared among them. */
  private accountsHoldingKeys = 0;
  // Scratch of `record` and of the queries: they are synchronous, so one set serves every call.
  private readonly numbers = new Float64Array(MAX_NUMBERS);
  private readonly hashes: number[] = [];
  private readonly valueHashes: number[][] = DISTINCT_OF.map(() => []);
  private readonly totals = new Float64Array(WINDOWS * MAX_STRIDE);

  constructor(options: VelocityFeaturesOptions = {}) {
    this.maxKeys = options.maxKeys ?? 2_000_000;
    this.accountMaxKeys = options.accountMaxKeys ?? this.maxKeys;
    this.now = options.now ?? Date.now;
    this.recordedEventMemoryMillis = options.recordedEventMemoryMillis ?? 5 * 60_000;
    this.restoredEventMemoryMillis = options.restoredEventMemoryMillis ?? 60 * 60_000;
    this.futureToleranceMillis = options.futureToleranceMillis ?? 24 * 3_600_000;
  }

  /** Adds one event to the counters of every key it names. */
  record(scope: VelocityScope, event: VelocityEvent): RecordOutcome {
    const { timestampMillis, keys, occurrence } = event;
    if (!Number.isFinite(timestampMillis)) throw new RangeError(`velocity: timestamp must be finite epoch milliseconds, got ${timestampMillis}`);
    const tenant = this.tenantOf(scope);
    if (tenant.recorded.has(event.eventId)) return 'duplicate';
    tenant.recorded.add(event.eventId);
    if (timestampMillis <= this.now() + this.futureToleranceMillis) tenant.clockMillis = Math.max(tenant.clockMillis, timestampMillis);
    const granted = occurrence === undefined ? 0 : this.claim(tenant, occurrence, timestampMillis);
    let refused = false;
    // An event that says nothing of who was seen with whom (a dispute, weeks after its payment) adds no distinct link.
    this.hashValues(event.countsOnly === true ? NO_KEYS : keys);
    VELOCITY_DIMENSION_PLANS.forEach((plan, planIndex) => {
      const values = valuesOf(keys, plan.dimension);
      if (values.length === 0) return;
      this.collectDistinctHashes(plan);
      // Nothing to add (a later update of a transaction, to a key without distinct fields): no key is made for it.
      if (this.hashes.length === 0 && (granted === 0 || occurrence === undefined || !COUNTED_KINDS.get(plan.dimension)?.has(occurrence.kind))) return;
      const dimensionKeys = tenant.keys[planIndex];
      for (const value of values) {
        let state = dimensionKeys.get(value);
        if (state === undefined) {
          if (tenant.holding.keys >= this.accountMaxKeys) {
            refused = true;
            this.keysRefused += 1;
            continue;
          }
          state = new VelocityKey(plan.layout);
          dimensionKeys.set(value, state);
          this.keyCount += 1;
          this.holdKey(tenant.holding);
        }
        this.collectNumbers(plan, state, occurrence, granted);
        state.record(timestampMillis, this.numbers, this.hashes);
        state.recentlyUsed = true;
        tenant.dirty[planIndex].add(value);
      }
    });
    this.sweep(tenant, SWEEP_STEPS);
    return refused ? 'recorded-without-new-keys' : 'recorded';
  }

  /** Keys the account holds, both its data sets together. */
  accountKeys(accountId: string): number {
    return this.holdings.get(accountId)?.keys ?? 0;
  }

  /** Whether the account holds its share: its events make no new key. */
  accountIsAtShare(accountId: string): boolean {
    return this.accountKeys(accountId) >= this.accountMaxKeys;
  }

  /**
   * Every velocity feature at `timestampMillis` for the keys named, in the order of
   * VELOCITY_FEATURE_DEFINITIONS; NaN for the features of a dimension the keys do not name. A
   * dimension named by several keys (a refund's cards) gets, per feature, the largest value.
   */
  featureVectorAt(scope: VelocityScope, keys: VelocityKeys, timestampMillis: number, out = new Float64Array(FEATURE_COUNT)): Float64Array {
    const tenant = this.tenants.get(scopeKey(scope));
    for (const [planIndex, plan] of VELOCITY_DIMENSION_PLANS.entries()) {
      const { numbers, distincts } = plan.layout;
      const width = WINDOWS * (numbers + distincts);
      const values = valuesOf(keys, plan.dimension);
      out.fill(values.length === 0 ? Number.NaN : 0, plan.featureOffset, plan.featureOffset + width);
      for (const value of values) {
        const state = tenant?.keys[planIndex].get(value);
        if (state === undefined) continue;
        state.totalsAt(timestampMillis, this.totals);
        for (let index = 0; index < width; index += 1) out[plan.featureOffset + index] = Math.max(out[plan.featureOffset + index], this.totals[index]);
      }
    }
    return out;
  }

  /** `featureVectorAt` as named features (null for a dimension the keys do not name). */
  featuresAt(scope: VelocityScope, keys: VelocityKeys, timestampMillis: number): Record<string, number | null> {
    return velocityFeatureRecord(this.featureVectorAt(scope, keys, timestampMillis));
  }

  /** Hands over everything changed since the last call, tenant by tenant, and forgets it as changed. */
  takeChanges(): VelocityTenantChanges[] {
    const now = this.now();
    const changes: VelocityTenantChanges[] = [];
    for (const tenant of this.tenants.values()) {
      const recordedEventIds = tenant.recorded.take(now);
      const { changed, forgottenBefore } = tenant.occurrences.takeChanges();
      if (tenant.dirty.every((dirty) => dirty.size === 0) && changed.length === 0 && forgottenBefore === undefined && recordedEventIds.length === 0) continue;
      const keys: VelocityKeyChange[] = [];
      VELOCITY_DIMENSION_PLANS.forEach(({ dimension }, planIndex) => {
        for (const key of tenant.dirty[planIndex]) {
          const state = tenant.keys[planIndex].get(key);
          keys.push({ dimension, key, snapshot: state === undefined || state.isEmpty ? null : snapshotOf(state) });
        }
        tenant.dirty[planIndex].clear();
      });
      changes.push({ scope: tenant.scope, keys, occurrences: changed, occurrencesForgottenBefore: forgottenBefore, recordedEventIds });
    }
    return changes;
  }

  /** Gives back what `takeChanges` handed over, after its write failed: the next call hands it over again. */
  returnChanges(changes: readonly VelocityTenantChanges[]): void {
    for (const change of changes) {
      const tenant = this.tenantOf(change.scope);
      for (const { dimension, key } of change.keys) {
        const planIndex = PLAN_INDEX.get(dimension) as number;
        tenant.dirty[planIndex].add(key);
        // The store may not hold the older part this write carried: the next one carries it again.
        const state = tenant.keys[planIndex].get(key);
        if (state !== undefined) state.writtenVersion = -1;
      }
      tenant.occurrences.returnChanges({ changed: change.occurrences, forgottenBefore: change.occurrencesForgottenBefore });
      tenant.recorded.giveBack(change.recordedEventIds);
    }
  }

  /** Loads one stored key (at start). Throws a RangeError for a snapshot it could not have taken. */
  restoreKey(scope: VelocityScope, dimension: VelocityDimension, key: string, snapshot: unknown): void {
    const plan = VELOCITY_DIMENSION_PLAN[dimension];
    if (plan === undefined) throw new RangeError(`velocity: no dimension ${String(dimension)}`);
    const { older, fresh } = (typeof snapshot === 'object' && snapshot !== null ? snapshot : {}) as Partial<VelocityKeySnapshot>;
    const state = VelocityBuckets.restore(plan.layout, joinParts(older, fresh), new VelocityKey(plan.layout)) as VelocityKey;
    const currency = fresh?.currency;
    if (currency !== undefined && (typeof currency !== 'string' || minorUnitDigits(currency) === null)) throw new RangeError('velocity key snapshot: currency must be an ISO 4217 code');
    state.currency = currency;
    const tenant = this.tenantOf(scope);
    const dimensionKeys = tenant.keys[PLAN_INDEX.get(dimension) as number];
    if (!dimensionKeys.has(key)) {
      this.keyCount += 1;
      this.holdKey(tenant.holding);
    }
    dimensionKeys.set(key, state);
    if (state.newestMillis <= this.now() + this.futureToleranceMillis) tenant.clockMillis = Math.max(tenant.clockMillis, state.newestMillis);
  }

  /** Loads one stored occurrence (at start). */
  restoreOccurrence(scope: VelocityScope, record: OccurrenceRecord): void {
    this.tenantOf(scope).occurrences.restore(record);
  }

  /** Loads the event ids of the store's last writes (at start): their replays are dropped. */
  restoreRecordedEventIds(scope: VelocityScope, eventIds: readonly string[]): void {
    this.tenantOf(scope).recorded.restore(eventIds, this.now());
  }

  /** What is held, for metrics and the benchmark. */
  stats(): { tenants: number; keys: number; evictedKeys: number; keysRefused: number; accountsAtShare: number; occurrences: number; recordedEventIds: number } {
    let accountsAtShare = 0;
    for (const holding of this.holdings.values()) if (holding.keys >= this.accountMaxKeys) accountsAtShare += 1;
    let occurrences = 0;
    let recordedEventIds = 0;
    for (const tenant of this.tenants.values()) {
      occurrences += tenant.occurrences.size;
      recordedEventIds += tenant.recorded.size;
    }
    return { tenants: this.tenants.size, keys: this.keyCount, evictedKeys: this.evictedKeys, keysRefused: this.keysRefused, accountsAtShare, occurrences, recordedEventIds };
  }

  private tenantOf(scope: VelocityScope): Tenant {
    // Consecutive events are mostly one tenant's.
    const last = this.lastTenant;
    if (last !== undefined && last.scope.accountId === scope.accountId && last.scope.environment === scope.environment) return last;
    const key = scopeKey(scope);
    let tenant = this.tenants.get(key);
    if (tenant === undefined) {
      let holding = this.holdings.get(scope.accountId);
      if (holding === undefined) {
        holding = { keys: 0 };
        this.holdings.set(scope.accountId, holding);
      }
      tenant = {
        scope: { accountId: scope.accountId, environment: scope.environment },
        holding,
        keys: VELOCITY_DIMENSION_PLANS.map(() => new Map()),
        clockMillis: -Infinity,
        occurrences: new OccurrenceRegistry(),
        recorded: new RecordedEventIds(this.recordedEventMemoryMillis, this.restoredEventMemoryMillis),
        dirty: VELOCITY_DIMENSION_PLANS.map(() => new Set()),
        cursorDimension: 0,
        cursor: undefined,
      };
      this.tenants.set(key, tenant);
    }
    this.lastTenant = tenant;
    return tenant;
  }

  private holdKey(holding: AccountHolding): void {
    if (holding.keys === 0) this.accountsHoldingKeys += 1;
    holding.keys += 1;
  }

  private forgetHeldKey(holding: AccountHolding): void {
    holding.keys -= 1;
    if (holding.keys === 0) this.accountsHoldingKeys -= 1;
  }

  /** `maxKeys` shared equally by the accounts holding keys. */
  private fairPart(): number {
    return Math.floor(this.maxKeys / Math.max(1, this.accountsHoldingKeys));
  }

  /** What of the occurrence this event may count: each part (count, failure, amount) once per occurrence. */
  private claim(tenant: Tenant, occurrence: VelocityOccurrence, timestampMillis: number): number {
    if (!occurrence.counts) return 0;
    const wanted = OccurrenceFlags.COUNTED | (occurrence.failed ? OccurrenceFlags.FAILED : 0) | (occurrence.amount !== undefined ? OccurrenceFlags.SUMMED : 0);
    if (occurrence.id === undefined) return wanted;
    return tenant.occurrences.claim(`${occurrence.kind}:${occurrence.id}`, timestampMillis, wanted);
  }

  /** This event's increments of the key's number fields, into `this.numbers`. */
  private collectNumbers(plan: DimensionPlan, state: VelocityKey, occurrence: VelocityOccurrence | undefined, granted: number): void {
    plan.numberMeasures.forEach((name, field) => {
      this.numbers[field] = occurrence === undefined ? 0 : increment(name, state, occurrence, granted);
    });
  }

  /** The hashes of the event's values that distinct measures count, once per event, into `this.valueHashes`. */
  private hashValues(keys: VelocityKeys): void {
    DISTINCT_OF.forEach((dimension, index) => {
      const hashes = this.valueHashes[index];
      hashes.length = 0;
      for (const value of valuesOf(keys, dimension)) hashes.push(distinctHash(value));
    });
  }

  /** The (field, hash) pairs of the dimension's distinct fields for this event, into `this.hashes`. */
  private collectDistinctHashes(plan: DimensionPlan): void {
    this.hashes.length = 0;
    plan.distinctMeasures.forEach((name, field) => {
      const measure = VELOCITY_MEASURES[name];
      if (measure.kind !== 'distinct') return;
      for (const hash of this.valueHashes[DISTINCT_OF.indexOf(measure.of)]) this.hashes.push(field, hash);
    });
  }

  /**
   * Looks at the next few keys of the tenant: forgets those idle past the retention, and, while
   * over `maxKeys`, those not recorded since the sweep last went by (clearing the bit of the
   * others, as CLOCK does). Only the recording tenant's own keys: an account never makes room
   * with another's counters (decisions §16). And only while its account holds more than its
   * fair part (`maxKeys` ÷ the accounts holding keys): an account that came when others had
   * filled the bound keeps its counters up to that part (the total goes over `maxKeys` until
   * the others, recording, come down to theirs), rather than losing them as fast as it counts.
   */
  private sweep(tenant: Tenant, steps: number): void {
    const overCapacity = this.keyCount > this.maxKeys && tenant.holding.keys > this.fairPart();
    let remaining = overCapacity ? Math.max(steps, 2 * (this.keyCount - this.maxKeys) + 1024) : steps;
    const idleBefore = tenant.clockMillis - VELOCITY_KEY_RETENTION_MILLIS;
    while (remaining > 0 && tenant.keys.some((keys) => keys.size > 0)) {
      remaining -= 1;
      tenant.cursor ??= tenant.keys[tenant.cursorDimension].entries();
      const next = tenant.cursor.next();
      if (next.done === true) {
        tenant.cursor = undefined;
        tenant.cursorDimension = (tenant.cursorDimension + 1) % tenant.keys.length;
        continue;
      }
      const [key, state] = next.value;
      const evict = state.newestMillis < idleBefore || (overCapacity && this.keyCount > this.maxKeys && tenant.holding.keys > this.fairPart() && !state.recentlyUsed);
      state.recentlyUsed = false;
      if (!evict) continue;
      tenant.keys[tenant.cursorDimension].delete(key);
      tenant.dirty[tenant.cursorDimension].add(key);
      this.keyCount -= 1;
      this.forgetHeldKey(tenant.holding);
      this.evictedKeys += 1;
      if (overCapacity && this.keyCount <= this.maxKeys) break;
    }
  }
}

/** One number field's increment by an event: counts and failures 1, sums the amount in major units, squares its square. */
function increment(name: VelocityMeasureName, state: VelocityKey, occurrence: VelocityOccurrence, granted: number): number {
  const measure = VELOCITY_MEASURES[name];
  if (measure.kind === 'distinct' || measure.occurrence !== occurrence.kind) return 0;
  switch (measure.kind) {
    case 'count':
      return granted & OccurrenceFlags.COUNTED ? 1 : 0;
    case 'failures':
      return granted & OccurrenceFlags.FAILED ? 1 : 0;
    case 'sum':
      return granted & OccurrenceFlags.SUMMED ? majorUnitsIn(state, occurrence) : 0;
    case 'squares':
      return granted & OccurrenceFlags.SUMMED ? majorUnitsIn(state, occurrence) ** 2 : 0;
  }
}

/**
 * The occurrence's amount in major units when it is in the key's currency; the key takes the
 * currency of the first amount it sums. Zero for an amount without a currency, in a currency that
 * is not ISO 4217, or in another currency than the key's.
 */
function majorUnitsIn(state: VelocityKey, { amount }: VelocityOccurrence): number {
  if (amount?.currency == null) return 0;
  const currency = amount.currency.trim().toUpperCase();
  const digits = minorUnitDigits(currency);
  if (digits === null) return 0;
  state.currency ??= currency;
  return state.currency === currency ? amount.minorUnits / 10 ** digits : 0;
}

/**
 * The key's snapshot for the store: only the fresh part while the older part stored is still
 * right and the fresh part small, else both, split at the current fresh boundary.
 */
function snapshotOf(state: VelocityKey): VelocityKeySnapshot {
  const freshOf = (from: number) => ({
    ...state.snapshotBetween(from, Number.POSITIVE_INFINITY),
    newest: state.newestMillis,
    ...(state.currency === undefined ? {} : { currency: state.currency }),
  });
  if (state.writtenVersion === state.changeVersion) {
    const fresh = freshOf(state.writtenFreshFrom);
    if (fresh.buckets.length <= MAX_FRESH_BUCKETS) return { fresh };
  }
  const freshFrom = state.freshFromMinute;
  state.writtenVersion = state.changeVersion;
  state.writtenFreshFrom = freshFrom;
  return { older: { ...state.snapshotBetween(Number.NEGATIVE_INFINITY, freshFrom), freshFrom }, fresh: freshOf(freshFrom) };
}

/** The stored parts of a key as one `VelocityBuckets` snapshot; throws a RangeError when they do not fit together. */
function joinParts(older: unknown, fresh: unknown): unknown {
  const part = (value: unknown, name: string): VelocityBucketsPart => {
    const candidate = value as Partial<VelocityBucketsPart> | null | undefined;
    if (typeof candidate !== 'object' || candidate === null || !Array.isArray(candidate.buckets) || !Array.isArray(candidate.numbers)) {
      throw new RangeError(`velocity key snapshot: ${name} must hold buckets and numbers`);
    }
    if (candidate.distincts !== undefined && !Array.isArray(candidate.distincts)) throw new RangeError(`velocity key snapshot: ${name}.distincts must be an array`);
    return candidate as VelocityBucketsPart;
  };
  const olderPart = part(older, 'older');
  const freshPart = part(fresh, 'fresh');
  const freshFrom = (older as { freshFrom?: unknown }).freshFrom;
  const startOf = (encoded: number) => Math.floor(encoded / 4);
  if (typeof freshFrom !== 'number' || olderPart.buckets.some((encoded) => startOf(encoded) >= freshFrom) || freshPart.buckets.some((encoded) => startOf(encoded) < freshFrom)) {
    throw new RangeError('velocity key snapshot: the older part must hold the buckets before freshFrom, the fresh part the others');
  }
  const shift = olderPart.buckets.length;
  const distincts = [
    ...(olderPart.distincts ?? []),
    ...(freshPart.distincts ?? []).map((entry) => (Array.isArray(entry) && typeof entry[0] === 'number' ? [entry[0] + shift, ...entry.slice(1)] : entry)),
  ];
  return {
    newest: (fresh as { newest?: unknown }).newest,
    buckets: [...olderPart.buckets, ...freshPart.buckets],
    numbers: [...olderPart.numbers, ...freshPart.numbers],
    ...(distincts.length > 0 ? { distincts } : {}),
  };
}

/** A vector of `featureVectorAt` as named features: NaN becomes null. */
export function velocityFeatureRecord(vector: Float64Array): Record<string, number | null> {
  const features: Record<string, number | null> = {};
  VELOCITY_FEATURE_DEFINITIONS.forEach(({ name }, index) => {
    const value = vector[index];
    features[name] = Number.isNaN(value) ? null : value;
  });
  return features;
}

// JSON of the pair: no separator character can make two tenants collide.
const scopeKey = (scope: VelocityScope): string => JSON.stringify([scope.accountId, scope.environment]);
