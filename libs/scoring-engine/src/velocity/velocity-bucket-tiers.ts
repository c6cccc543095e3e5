import { LATE_QUERY_ALLOWANCE_MILLIS, VELOCITY_WINDOWS } from './velocity-window-definitions';

/**
 * The tiers of a key's buckets (velocity-buckets.ts): tier k has window k's bucket width, and
 * keeps the buckets window k can still count at the newest event time less the late allowance.
 */

export const MINUTE_MILLIS = 60_000;
export const WINDOWS = VELOCITY_WINDOWS.length;
/** Bucket width of each tier, in minutes: tier k is counted by window k (1, 15, 60, 240). */
export const WIDTH_MINUTES = VELOCITY_WINDOWS.map((window) => window.bucketMillis / MINUTE_MILLIS);
const LENGTH_MINUTES = VELOCITY_WINDOWS.map((window) => window.lengthMillis / MINUTE_MILLIS);
export const ALLOWANCE_MINUTES = LATE_QUERY_ALLOWANCE_MILLIS / MINUTE_MILLIS;

/** What one key's buckets hold: `numbers` counts or sums, `distincts` distinct-value sketches. */
export interface BucketLayout {
  readonly numbers: number;
  readonly distincts: number;
}

export const floorTo = (value: number, width: number): number => Math.floor(value / width) * width;
/** The start minute of an encoded bucket (start minute × 4 + tier). */
export const startOf = (encoded: number): number => (encoded - (encoded & 3)) / 4;

/**
 * The start minute of the oldest bucket of tier (and window) k that a query at `minute` counts:
 * the window (t − w, t] with its old end moved up to the next bucket edge.
 */
export const oldestCountedMinute = (minute: number, k: number): number => floorTo(minute, WIDTH_MINUTES[k]) - LENGTH_MINUTES[k] + WIDTH_MINUTES[k];
