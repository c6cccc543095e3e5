import { DistinctUnion, type DistinctSketch, type DistinctSketchJson, addDistinct, distinctToJson, mergeDistinct } from './distinct-sketch';
import { ALLOWANCE_MINUTES, type BucketLayout, MINUTE_MILLIS, WIDTH_MINUTES, WINDOWS, floorTo, oldestCountedMinute, startOf } from './velocity-bucket-tiers';
import { type VelocityBucketsJson, type VelocityBucketsPart, readBucketsSnapshot } from './velocity-buckets-snapshot';

/** Scratch of `totalsAt`, reused by every query (queries are synchronous): no allocation per query. */
const oldestCounted = new Float64Array(WINDOWS);
/** One union per distinct field, reused by every query. */
const unions: DistinctUnion[] = [];
function unionsFor(count: number): DistinctUnion[] {
  while (unions.length < count) unions.push(new DistinctUnion());
  return unions;
}

/**
 * A busy key's distinct unions of its older buckets, per window and distinct field, as they were
 * at one query minute: the buckets that start before `boundary` (two minutes behind the newest
 * event when built). They change only when an older bucket does (a late event, a merge), which
 * bumps the key's `version`; the newest buckets, where nearly every event lands, are added at
 * each query. So a query of a key busy for 30 days merges a handful of sketches instead of
 * hundreds. Held beside the key (a WeakMap) and only for keys with many buckets.
 */
interface DistinctCache {
  version: number;
  minute: number;
  boundary: number;
  /** [window × distinct field]: the frozen union, undefined when empty. */
  unions: Array<DistinctSketch | undefined>;
}
const distinctCaches = new WeakMap<VelocityBuckets, DistinctCache>();
/** From this many buckets a key's distinct counts go through `DistinctCache`. */
const CACHE_FROM_BUCKETS = 24;
/** Buckets starting this many minutes behind the newest event or later are merged at every query. */
const FRESH_MINUTES = 2;

/**
 * Event-time counters of one key over the four windows of VELOCITY_WINDOWS, in tiered buckets.
 *
 * Each bucket belongs to a tier, tier k having window k's bucket width (1 min, 15 min, 1 h, 4 h).
 * An event goes into a tier-0 bucket; as the key's newest event time N moves on, buckets that no
 * query of a finer window can reach any more are merged into the next tier's bucket (four 1 h
 * buckets into one 4 h bucket, and so on) and buckets beyond the 30 d window are dropped. So every
 * event is stored once, not once per window, and a key that saw one event holds one bucket.
 *
 * Tier k keeps the buckets starting at or after T_k = the oldest bucket window k counts at
 * N − A (A = LATE_QUERY_ALLOWANCE_MILLIS). A query at t ≥ N − A counts, per window k of length
 * w and width r, the buckets of tiers ≤ k that start in [⌊t/r⌋·r − w + r, t]: since a tier-(k+1)
 * bucket holds only events before T_k, no bucket straddles a window's old edge. Hence:
 * - the oldest slice of each window, shorter than one bucket, is left out: up to 1 min of the
 *   1 h window, 15 min of 24 h, 1 h of 7 d and 4 h of 30 d; nothing older than t − w is counted;
 * - events after t in t's own minute are counted if they were already recorded, which only an
 *   out-of-order arrival or a replay causes;
 * - the event being decided is not counted as long as the caller queries before recording it;
 * - a query more than A behind N misses what was already merged past its windows' edges.
 *
 * A late event goes into the finest tier that still keeps its time; one older than the 30 d
 * window at N − A is dropped. Recording is not idempotent: the caller deduplicates events.
 *
 * Cost: a record updates one bucket (binary search among the key's buckets when late), plus a
 * merge of old buckets at most once a minute per key, each bucket merged at most three times
 * over its life. A query reads each bucket once for all four windows. A key busy every minute
 * holds at most 494 buckets (120 of 1 min, then about 97 of 15 min, 145 of 1 h, 139 of 4 h), a
 * key that saw one event one.
 */
export class VelocityBuckets {
  /** Newest event time recorded (epoch ms); -Infinity while empty. */
  newestMillis = -Infinity;
  /** Each bucket's start minute × 4 + tier, ascending; tiers descend with it (older is coarser). */
  private buckets: number[] = [];
  /** `layout.numbers` per bucket. */
  private numbers: number[] = [];
  /** `layout.distincts` per bucket; undefined while the layout has none. */
  private sketches: Array<DistinctSketch | undefined> | undefined;
  /**
   * Bumped whenever a bucket older than FRESH_MINUTES behind the newest event changes or buckets
   * move (a merge, an insertion before the end): what invalidates the key's DistinctCache.
   */
  private version = 0;

  constructor(readonly layout: BucketLayout) {
    if (layout.distincts > 0) this.sketches = [];
  }

  get isEmpty(): boolean {
    return this.buckets.length === 0;
  }

  get bucketCount(): number {
    return this.buckets.length;
  }

  /**
   * Adds one event: `numbers[i]` to number field i, and each pair (field, hash) of
   * `distinctHashes` (flattened: field, hash, field, hash…) to that field's sketch. Answers false
   * when the event is too old for every window, and then stores nothing.
   */
  record(timestampMillis: number, numbers: ArrayLike<number>, distinctHashes: readonly number[] = []): boolean {
    if (!Number.isFinite(timestampMillis)) throw new RangeError(`velocity: timestamp must be finite epoch milliseconds, got ${timestampMillis}`);
    if (timestampMillis > this.newestMillis) {
      const previousMinute = Math.floor(this.newestMillis / MINUTE_MILLIS);
      this.newestMillis = timestampMillis;
      if (Math.floor(timestampMillis / MINUTE_MILLIS) !== previousMinute) this.compact();
    }
    const minute = Math.floor(timestampMillis / MINUTE_MILLIS);
    const keptFrom = Math.floor(this.newestMillis / MINUTE_MILLIS) - ALLOWANCE_MINUTES;
    let tier = 0;
    while (tier < WINDOWS && minute < oldestCountedMinute(keptFrom, tier)) tier += 1;
    if (tier === WINDOWS) return false;
    const position = this.bucketAt(floorTo(minute, WIDTH_MINUTES[tier]) * 4 + tier);
    if (minute < keptFrom + ALLOWANCE_MINUTES - FRESH_MINUTES) this.version += 1;
    const base = position * this.layout.numbers;
    for (let field = 0; field < this.layout.numbers; field += 1) this.numbers[base + field] += numbers[field];
    if (this.sketches !== undefined) {
      const sketchBase = position * this.layout.distincts;
      for (let i = 0; i < distinctHashes.length; i += 2) {
        const slot = sketchBase + distinctHashes[i];
        this.sketches[slot] = addDistinct(this.sketches[slot], distinctHashes[i + 1]);
      }
    }
    return true;
  }

  /**
   * Writes the totals of every window at `timestampMillis` into `out` from `offset` on: for each
   * window in VELOCITY_WINDOWS' order, `layout.numbers` sums then `layout.distincts` distinct
   * counts. Reads only, allocates nothing.
   */
  totalsAt(timestampMillis: number, out: Float64Array, offset = 0): void {
    if (!Number.isFinite(timestampMillis)) throw new RangeError(`velocity: timestamp must be finite epoch milliseconds, got ${timestampMillis}`);
    const { numbers: numberFields, distincts: distinctFields } = this.layout;
    const stride = numberFields + distinctFields;
    out.fill(0, offset, offset + WINDOWS * stride);
    const minute = Math.floor(timestampMillis / MINUTE_MILLIS);
    for (let window = 0; window < WINDOWS; window += 1) oldestCounted[window] = oldestCountedMinute(minute, window);
    // Newest first: a bucket's window (the finest one that counts it) only grows going back.
    let window = 0;
    for (let position = this.buckets.length - 1; position >= 0; position -= 1) {
      const encoded = this.buckets[position];
      const tier = encoded & 3;
      const start = (encoded - tier) / 4;
      if (start > minute) continue;
      while (window < WINDOWS && (window < tier || start < oldestCounted[window])) window += 1;
      if (window === WINDOWS) break;
      const target = offset + window * stride;
      const base = position * numberFields;
      for (let field = 0; field < numberFields; field += 1) out[target + field] += this.numbers[base + field];
    }
    if (distinctFields > 0) {
      if (this.buckets.length >= CACHE_FROM_BUCKETS) this.cachedDistinctCounts(minute, out, offset);
      else this.scanDistinctUnions(minute, Number.POSITIVE_INFINITY, (fromWindow, toWindow, distinctUnions) => this.writeDistinctCounts(out, offset, fromWindow, toWindow, distinctUnions));
    }
    // Each window holds the finer windows' buckets too.
    for (let counting = 1; counting < WINDOWS; counting += 1) {
      const target = offset + counting * stride;
      const finer = target - stride;
      for (let field = 0; field < numberFields; field += 1) out[target + field] += out[finer + field];
    }
  }

  snapshot(): VelocityBucketsJson {
    return { newest: this.newestMillis, ...this.snapshotBetween(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY) };
  }

  /**
   * The buckets starting in [fromMinute, toMinute) as JSON (positions from 0): a part of a
   * snapshot. Buckets starting before `freshFromMinute` change only when `changeVersion` does, so
   * a store can keep that part and rewrite only the rest.
   */
  snapshotBetween(fromMinute: number, toMinute: number): VelocityBucketsPart {
    let first = 0;
    while (first < this.buckets.length && startOf(this.buckets[first]) < fromMinute) first += 1;
    let end = first;
    while (end < this.buckets.length && startOf(this.buckets[end]) < toMinute) end += 1;
    const { numbers, distincts } = this.layout;
    const part: VelocityBucketsPart = { buckets: this.buckets.slice(first, end), numbers: this.numbers.slice(first * numbers, end * numbers) };
    if (this.sketches !== undefined) {
      const entries: Array<[number, number, DistinctSketchJson]> = [];
      for (let slot = first * distincts; slot < end * distincts; slot += 1) {
        const sketch = this.sketches[slot];
        if (sketch !== undefined) entries.push([Math.floor(slot / distincts) - first, slot % distincts, distinctToJson(sketch)]);
      }
      if (entries.length > 0) part.distincts = entries;
    }
    return part;
  }

  /**
   * Changes whenever a bucket that started `FRESH_MINUTES` or more before the newest event
   * changes, or buckets move: the part of a snapshot before `freshFromMinute` is the same as
   * long as this is.
   */
  get changeVersion(): number {
    return this.version;
  }

  /** Buckets starting from this minute on are the fresh ones, which nearly every event changes. */
  get freshFromMinute(): number {
    return Math.floor(this.newestMillis / MINUTE_MILLIS) - FRESH_MINUTES;
  }

  /** Reads back `snapshot`; throws a RangeError on anything it could not have written. */
  static restore(layout: BucketLayout, json: unknown, into = new VelocityBuckets(layout)): VelocityBuckets {
    const stored = readBucketsSnapshot(layout, json, into.sketches !== undefined);
    into.newestMillis = stored.newestMillis;
    into.buckets = stored.buckets;
    into.numbers = stored.numbers;
    if (stored.sketches !== undefined) into.sketches = stored.sketches;
    into.compact();
    return into;
  }

  /**
   * Goes over the buckets that start before `boundary` and at or before `minute`, newest first,
   * adding their sketches to one union per distinct field; calls `reached(from, to, unions)` each
   * time the unions are complete for windows [from, to) (the unions only grow going back).
   * Needs `oldestCounted` set for `minute`.
   */
  private scanDistinctUnions(minute: number, boundary: number, reached: (fromWindow: number, toWindow: number, distinctUnions: DistinctUnion[]) => void): void {
    const distinctFields = this.layout.distincts;
    const distinctUnions = unionsFor(distinctFields);
    for (let field = 0; field < distinctFields; field += 1) distinctUnions[field].reset();
    const sketches = this.sketches as Array<DistinctSketch | undefined>;
    let window = 0;
    for (let position = this.buckets.length - 1; position >= 0; position -= 1) {
      const encoded = this.buckets[position];
      const tier = encoded & 3;
      const start = (encoded - tier) / 4;
      if (start > minute || start >= boundary) continue;
      let counting = window;
      while (counting < WINDOWS && (counting < tier || start < oldestCounted[counting])) counting += 1;
      if (counting === WINDOWS) break;
      if (counting > window) {
        reached(window, counting, distinctUnions);
        window = counting;
      }
      const sketchBase = position * distinctFields;
      for (let field = 0; field < distinctFields; field += 1) {
        const sketch = sketches[sketchBase + field];
        if (sketch !== undefined) distinctUnions[field].add(sketch);
      }
    }
    reached(window, WINDOWS, distinctUnions);
  }

  /** The distinct counts of a busy key: its DistinctCache (rebuilt when stale) plus its newest buckets. */
  private cachedDistinctCounts(minute: number, out: Float64Array, offset: number): void {
    const { numbers: numberFields, distincts: distinctFields } = this.layout;
    const stride = numberFields + distinctFields;
    let cache = distinctCaches.get(this);
    if (cache === undefined || cache.version !== this.version || cache.minute !== minute) {
      const boundary = Math.min(minute, Math.floor(this.newestMillis / MINUTE_MILLIS)) - FRESH_MINUTES;
      const frozen = new Array<DistinctSketch | undefined>(WINDOWS * distinctFields);
      this.scanDistinctUnions(minute, boundary, (fromWindow, toWindow, distinctUnions) => {
        for (let field = 0; field < distinctFields; field += 1) {
          const union = distinctUnions[field].freeze();
          for (let window = fromWindow; window < toWindow; window += 1) frozen[window * distinctFields + field] = union;
        }
      });
      cache = { version: this.version, minute, boundary, unions: frozen };
      distinctCaches.set(this, cache);
    }
    // The newest buckets: tier 0, at or after the boundary, so counted by every window.
    let freshFrom = this.buckets.length;
    while (freshFrom > 0 && (this.buckets[freshFrom - 1] - (this.buckets[freshFrom - 1] & 3)) / 4 >= cache.boundary) freshFrom -= 1;
    const union = unionsFor(1)[0];
    const sketches = this.sketches as Array<DistinctSketch | undefined>;
    for (let field = 0; field < distinctFields; field += 1) {
      for (let window = 0; window < WINDOWS; window += 1) {
        union.reset();
        const older = cache.unions[window * distinctFields + field];
        if (older !== undefined) union.add(older);
        for (let position = freshFrom; position < this.buckets.length; position += 1) {
          if ((this.buckets[position] - (this.buckets[position] & 3)) / 4 > minute) continue;
          const sketch = sketches[position * distinctFields + field];
          if (sketch !== undefined) union.add(sketch);
        }
        out[offset + window * stride + numberFields + field] = union.count();
      }
    }
  }

  /** The position of the bucket with this encoded start and tier, inserted (empty) if missing. */
  private bucketAt(encoded: number): number {
    const last = this.buckets.length - 1;
    if (last >= 0 && this.buckets[last] === encoded) return last;
    if (last < 0 || encoded > this.buckets[last]) return this.insertBucket(last + 1, encoded);
    let low = 0;
    let high = last;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.buckets[middle] < encoded) low = middle + 1;
      else high = middle;
    }
    return this.buckets[low] === encoded ? low : this.insertBucket(low, encoded);
  }

  private insertBucket(position: number, encoded: number): number {
    this.buckets.splice(position, 0, encoded);
    const { numbers, distincts } = this.layout;
    if (position === this.buckets.length - 1) {
      for (let field = 0; field < numbers; field += 1) this.numbers.push(0);
      if (this.sketches !== undefined) for (let field = 0; field < distincts; field += 1) this.sketches.push(undefined);
    } else {
      this.numbers.splice(position * numbers, 0, ...new Array<number>(numbers).fill(0));
      this.sketches?.splice(position * distincts, 0, ...new Array<undefined>(distincts).fill(undefined));
      this.version += 1;
    }
    return position;
  }

  /**
   * Merges every bucket that its tier no longer keeps into the next tier's bucket, and drops the
   * 30 d tier's buckets that no window can reach. Buckets are in start order with the coarsest
   * first, so the buckets to move are at the front of each tier's run, and a moved bucket lands
   * at the end of the next tier's run: the order holds without sorting.
   */
  private compact(): void {
    if (this.buckets.length === 0) return;
    const keptFrom = Math.floor(this.newestMillis / MINUTE_MILLIS) - ALLOWANCE_MINUTES;
    for (let tier = 0; tier < WINDOWS; tier += 1) {
      const threshold = oldestCountedMinute(keptFrom, tier);
      let position = 0;
      while (position < this.buckets.length && (this.buckets[position] & 3) > tier) position += 1;
      while (position < this.buckets.length && (this.buckets[position] & 3) === tier) {
        const start = (this.buckets[position] - tier) / 4;
        if (start >= threshold) break;
        if (tier === WINDOWS - 1) {
          this.version += 1;
          this.removeBucket(position);
          continue;
        }
        this.version += 1;
        const coarser = floorTo(start, WIDTH_MINUTES[tier + 1]) * 4 + tier + 1;
        if (position > 0 && this.buckets[position - 1] === coarser) {
          this.mergeInto(position - 1, position);
          this.removeBucket(position);
        } else {
          this.buckets[position] = coarser;
          position += 1;
        }
      }
    }
  }

  private mergeInto(target: number, source: number): void {
    const { numbers, distincts } = this.layout;
    for (let field = 0; field < numbers; field += 1) this.numbers[target * numbers + field] += this.numbers[source * numbers + field];
    if (this.sketches === undefined) return;
    for (let field = 0; field < distincts; field += 1) {
      const sketch = this.sketches[source * distincts + field];
      if (sketch !== undefined) this.sketches[target * distincts + field] = mergeDistinct(this.sketches[target * distincts + field], sketch);
    }
  }

  private removeBucket(position: number): void {
    this.buckets.splice(position, 1);
    this.numbers.splice(position * this.layout.numbers, this.layout.numbers);
    this.sketches?.splice(position * this.layout.distincts, this.layout.distincts);
  }

  private writeDistinctCounts(out: Float64Array, offset: number, fromWindow: number, toWindow: number, distinctUnions: DistinctUnion[]): void {
    const { numbers: numberFields, distincts: distinctFields } = this.layout;
    const stride = numberFields + distinctFields;
    for (let field = 0; field < distinctFields; field += 1) {
      if (fromWindow >= toWindow) break;
      const count = distinctUnions[field].count();
      for (let window = fromWindow; window < toWindow; window += 1) out[offset + window * stride + numberFields + field] = count;
    }
  }
}
