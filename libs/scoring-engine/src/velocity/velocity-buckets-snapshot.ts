import { type DistinctSketch, type DistinctSketchJson, distinctFromJson } from './distinct-sketch';
import { ALLOWANCE_MINUTES, type BucketLayout, MINUTE_MILLIS, WIDTH_MINUTES, oldestCountedMinute } from './velocity-bucket-tiers';

/** Some of a key's buckets as plain JSON (`VelocityBuckets.snapshotBetween`). */
export interface VelocityBucketsPart {
  /** Each bucket's start minute (since the epoch) × 4 + its tier, ascending. */
  buckets: number[];
  /** `layout.numbers` values per bucket, bucket after bucket. */
  numbers: number[];
  /** The buckets' non-empty sketches: [bucket position in the part, distinct field, sketch]. */
  distincts?: Array<[number, number, DistinctSketchJson]>;
}

/** One key's buckets as plain JSON (`VelocityBuckets.snapshot`). */
export interface VelocityBucketsJson extends VelocityBucketsPart {
  /** The newest event time recorded, epoch ms. */
  newest: number;
}

/** A snapshot read back and checked, ready to become a key's buckets. */
export interface StoredBuckets {
  newestMillis: number;
  buckets: number[];
  numbers: number[];
  /** Undefined for a layout without distinct fields. */
  sketches: Array<DistinctSketch | undefined> | undefined;
}

const fail = (why: string): never => {
  throw new RangeError(`velocity buckets snapshot: ${why}`);
};

/**
 * Reads back `VelocityBuckets.snapshot`'s JSON for `layout` (`sketched`: the layout has distinct
 * fields); throws a RangeError on anything it could not have written.
 */
export function readBucketsSnapshot(layout: BucketLayout, json: unknown, sketched: boolean): StoredBuckets {
  if (typeof json !== 'object' || json === null) return fail('must be an object');
  const { newest, buckets, numbers, distincts } = json as Partial<Record<keyof VelocityBucketsJson, unknown>>;
  if (!Array.isArray(buckets) || !Array.isArray(numbers)) return fail('buckets and numbers must be arrays');
  if (buckets.length === 0 ? newest !== -Infinity && newest !== null : typeof newest !== 'number' || !Number.isFinite(newest)) {
    return fail('newest must be the finite time of the newest event');
  }
  checkBucketStarts(buckets);
  const newestMillis = buckets.length === 0 ? -Infinity : (newest as number);
  const stored: StoredBuckets = {
    newestMillis,
    buckets: [...(buckets as number[])],
    numbers: readNumbers(layout, buckets.length, numbers),
    sketches: undefined,
  };
  if (distincts !== undefined) {
    if (!Array.isArray(distincts) || !sketched) return fail('distincts must be an array, for a layout with distinct fields');
    stored.sketches = readSketches(layout, buckets.length, distincts);
  } else if (sketched) {
    stored.sketches = new Array<DistinctSketch | undefined>(buckets.length * layout.distincts).fill(undefined);
  }
  checkTierOrder(stored.buckets, newestMillis);
  return stored;
}

function checkBucketStarts(buckets: readonly unknown[]): void {
  let previous = -1;
  for (const encoded of buckets) {
    if (!Number.isSafeInteger(encoded) || (encoded as number) <= previous) fail('buckets must be increasing non-negative integers');
    const start = ((encoded as number) - ((encoded as number) & 3)) / 4;
    if (start % WIDTH_MINUTES[(encoded as number) & 3] !== 0) fail('a bucket must start on an edge of its tier');
    previous = encoded as number;
  }
}

function readNumbers(layout: BucketLayout, bucketCount: number, numbers: readonly unknown[]): number[] {
  // A snapshot written before the layout gained number fields (they come last) holds fewer per bucket: the rest counted nothing then.
  const storedFields = bucketCount === 0 ? (numbers.length === 0 ? layout.numbers : Number.NaN) : numbers.length / bucketCount;
  if (!Number.isInteger(storedFields) || storedFields < 1 || storedFields > layout.numbers || !numbers.every((value) => typeof value === 'number' && Number.isFinite(value))) {
    return fail(`numbers must hold ${layout.numbers} finite numbers per bucket`);
  }
  return storedFields === layout.numbers ? [...(numbers as number[])] : padFields(numbers as number[], storedFields, layout.numbers);
}

function readSketches(layout: BucketLayout, bucketCount: number, distincts: readonly unknown[]): Array<DistinctSketch | undefined> {
  const sketches = new Array<DistinctSketch | undefined>(bucketCount * layout.distincts).fill(undefined);
  for (const entry of distincts) {
    if (!Array.isArray(entry) || entry.length !== 3) return fail('a distinct entry is [bucket, field, sketch]');
    const [position, field, sketch] = entry as [unknown, unknown, unknown];
    if (!Number.isInteger(position) || (position as number) < 0 || (position as number) >= bucketCount || !Number.isInteger(field) || (field as number) < 0 || (field as number) >= layout.distincts) {
      return fail('a distinct entry names a bucket and field that do not exist');
    }
    sketches[(position as number) * layout.distincts + (field as number)] = distinctFromJson(sketch);
  }
  return sketches;
}

function checkTierOrder(buckets: readonly number[], newestMillis: number): void {
  const keptFrom = Math.floor(newestMillis / MINUTE_MILLIS) - ALLOWANCE_MINUTES;
  for (let position = 0; position < buckets.length; position += 1) {
    const tier = buckets[position] & 3;
    const start = (buckets[position] - tier) / 4;
    if (position > 0 && tier > (buckets[position - 1] & 3)) fail('a newer bucket cannot be of a coarser tier');
    // A coarser tier holds only what the finer one no longer keeps, and nothing is newer than `newest`.
    if (tier > 0 && start >= oldestCountedMinute(keptFrom, tier - 1)) fail(`a tier-${tier} bucket starts where tier ${tier - 1} still keeps events`);
    if (start > keptFrom + ALLOWANCE_MINUTES) fail('a bucket starts after the newest event');
  }
}

/** Bucket after bucket, `from` fields widened to `to` with zeros after them. */
function padFields(numbers: readonly number[], from: number, to: number): number[] {
  const padded = new Array<number>((numbers.length / from) * to).fill(0);
  for (let bucket = 0; bucket < numbers.length / from; bucket += 1) {
    for (let field = 0; field < from; field += 1) padded[bucket * to + field] = numbers[bucket * from + field];
  }
  return padded;
}
