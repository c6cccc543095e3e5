import { distinctHash } from './distinct-hash';
import { OccurrenceFlags, type OccurrenceRecord, OccurrenceRegistry } from './occurrence-registry';
import { RecordedEventIds } from './recorded-event-ids';
import { type DimensionPlan, VELOCITY_DIMENSION_PLANS, VELOCITY_DIMENSION_PLAN, VELOCITY_FEATURE_DEFINITIONS, VELOCITY_MEASURES, type VelocityDimension } from './velocity-dimensions';
import type { VelocityEvent, VelocityKeys, VelocityOccurrence } from './velocity-events';
import type { RecordOutcome, VelocityFeaturesOptions } from './velocity-features-options';
import { VelocityKey, increment } from './velocity-key';
import { type VelocityKeyChange, type VelocityTenantChanges, restoreVelocityKey, snapshotOf } from './velocity-key-changes';
import { type VelocityScope, scopeKey } from './velocity-scope';
import { VELOCITY_KEY_RETENTION_MILLIS, VELOCITY_WINDOWS } from './velocity-window-definitions';

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
 * Velocity features in event time (ADR-0012): per tenant, per dimension (customer, card,
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
 *   `accountMaxKeys` (its share, ADR-0016) makes no new key until some of its own are
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
    const state = restoreVelocityKey(plan.layout, snapshot);
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
   * with another's counters (ADR-0016). And only while its account holds more than its
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

/** A vector of `featureVectorAt` as named features: NaN becomes null. */
export function velocityFeatureRecord(vector: Float64Array): Record<string, number | null> {
  const features: Record<string, number | null> = {};
  VELOCITY_FEATURE_DEFINITIONS.forEach(({ name }, index) => {
    const value = vector[index];
    features[name] = Number.isNaN(value) ? null : value;
  });
  return features;
}
