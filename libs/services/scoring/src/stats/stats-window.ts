import { MAX_STATS_BUCKETS, STATS_BUCKETS, type StatsBucket } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Each bucket's length, and where its grid starts: weeks from Monday 1970-01-05 00:00 UTC. */
export const BUCKET_GRID: Readonly<Record<StatsBucket, { sizeMs: number; offsetMs: number }>> = {
  hour: { sizeMs: HOUR_MS, offsetMs: 0 },
  day: { sizeMs: DAY_MS, offsetMs: 0 },
  week: { sizeMs: 7 * DAY_MS, offsetMs: 4 * DAY_MS },
};

/** A window of payload time (`from <= eventTime < to`) cut into buckets starting at `from`. */
export interface StatsWindow {
  from: number;
  to: number;
  bucket: StatsBucket;
}

/** The data set's first and last decision times; null when it has none. */
export type DataPeriod = { first: number; last: number } | null;

/** The start of the bucket that holds `time`. */
export function bucketStart(time: number, bucket: StatsBucket): number {
  const { sizeMs, offsetMs } = BUCKET_GRID[bucket];
  return Math.floor((time - offsetMs) / sizeMs) * sizeMs + offsetMs;
}

/** How many buckets `[from, to)` spans on the bucket's grid. */
export function bucketCount(from: number, to: number, bucket: StatsBucket): number {
  const { sizeMs } = BUCKET_GRID[bucket];
  return Math.max(1, Math.round((bucketStart(to - 1, bucket) - bucketStart(from, bucket)) / sizeMs) + 1);
}

/**
 * The overview's window: what the request names, or the data period (first decision to 1 ms
 * after the last; the last day up to `now` when there is none), with the asked bucket or the
 * smallest that keeps it within MAX_STATS_BUCKETS. A default window longer than the largest
 * bucket allows keeps its newest part; an asked one that makes too many buckets is refused,
 * naming the parameter to change.
 */
export function statsWindow(asked: { from?: number; to?: number; bucket?: StatsBucket }, period: DataPeriod, now: number): StatsWindow {
  if (asked.from !== undefined && asked.to !== undefined && asked.to <= asked.from) throw new AppError('VALIDATION_FAILED', 'to: must be greater than from');
  const to = asked.to ?? (period === null ? now : Math.max(period.last + 1, (asked.from ?? period.first) + 1));
  let from = asked.from ?? (period === null || period.first >= to ? to - DAY_MS : period.first);
  if (asked.bucket !== undefined) {
    if (bucketCount(from, to, asked.bucket) > MAX_STATS_BUCKETS) {
      throw new AppError('VALIDATION_FAILED', `bucket: ${asked.bucket} makes more than ${MAX_STATS_BUCKETS} buckets of this window; choose a larger bucket or a shorter window (from, to)`);
    }
    return { from, to, bucket: asked.bucket };
  }
  const fitting = STATS_BUCKETS.find((bucket) => bucketCount(from, to, bucket) <= MAX_STATS_BUCKETS);
  if (fitting !== undefined) return { from, to, bucket: fitting };
  const largest = STATS_BUCKETS[STATS_BUCKETS.length - 1];
  if (asked.from !== undefined) {
    throw new AppError('VALIDATION_FAILED', `from: the window spans more than ${MAX_STATS_BUCKETS} buckets of a ${largest}; choose a later from`);
  }
  from = bucketStart(to - 1, largest) - (MAX_STATS_BUCKETS - 1) * BUCKET_GRID[largest].sizeMs;
  return { from, to, bucket: largest };
}

/** Every bucket start of the window, oldest first (at most MAX_STATS_BUCKETS). */
export function bucketStarts(window: StatsWindow): number[] {
  const { sizeMs } = BUCKET_GRID[window.bucket];
  const first = bucketStart(window.from, window.bucket);
  return Array.from({ length: bucketCount(window.from, window.to, window.bucket) }, (_, index) => first + index * sizeMs);
}
