const MINUTE_MILLIS = 60_000;
const HOUR_MILLIS = 60 * MINUTE_MILLIS;
const DAY_MILLIS = 24 * HOUR_MILLIS;

/**
 * The velocity windows (ADR-0012) and the bucket width each is counted in.
 *
 * A query counts whole buckets, so the oldest slice of a window, shorter than one bucket, is left
 * out (see `velocity-buckets.ts`). The widths keep that slice under 1.7 % of every window (1/60,
 * 1/96, 1/168, 1/180). The 1 h window gets the finest buckets because card testing plays out in
 * minutes. Every width is a whole number of minutes, each divides the next (1, 15, 60, 240), and
 * buckets are aligned to the epoch, so bucket edges fall on the same UTC instants for every key
 * and every process, and four 1 h buckets make exactly one 4 h bucket.
 */
export const VELOCITY_WINDOWS = [
  { name: '1h', lengthMillis: HOUR_MILLIS, bucketMillis: MINUTE_MILLIS },
  { name: '24h', lengthMillis: DAY_MILLIS, bucketMillis: 15 * MINUTE_MILLIS },
  { name: '7d', lengthMillis: 7 * DAY_MILLIS, bucketMillis: HOUR_MILLIS },
  { name: '30d', lengthMillis: 30 * DAY_MILLIS, bucketMillis: 4 * HOUR_MILLIS },
] as const;

export type VelocityWindow = (typeof VELOCITY_WINDOWS)[number];
export type VelocityWindowName = VelocityWindow['name'];

export const VELOCITY_WINDOW_NAMES: readonly VelocityWindowName[] = VELOCITY_WINDOWS.map((window) => window.name);

/**
 * How far behind the newest event recorded for a key a query may be and still see its whole
 * windows at full resolution. Events arrive late by seconds or minutes (retries, consumer lag,
 * a transaction's later updates); an hour covers that with room. It costs at most 60 more
 * one-minute buckets on a key that is busy every minute, and nothing on a quiet one, since
 * buckets that saw nothing are not stored.
 */
export const LATE_QUERY_ALLOWANCE_MILLIS = HOUR_MILLIS;

/**
 * A key idle this long (by event time, behind its tenant's newest event) has nothing any window
 * of a query within the allowance could count: it can be forgotten.
 */
export const VELOCITY_KEY_RETENTION_MILLIS = VELOCITY_WINDOWS[VELOCITY_WINDOWS.length - 1].lengthMillis + LATE_QUERY_ALLOWANCE_MILLIS;

export const VELOCITY_TIME_UNITS = { MINUTE_MILLIS, HOUR_MILLIS, DAY_MILLIS } as const;
