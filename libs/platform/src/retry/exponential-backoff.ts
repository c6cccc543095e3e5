/**
 * An exponential backoff: the delay doubles from `initialDelayMs` with each failure, up to
 * `maxDelayMs`, and `jitter` of it is random.
 */
export interface ExponentialBackoff {
  /** The delay after the first failure; it doubles after each further one. */
  initialDelayMs: number;
  /** The longest delay, however many failures. */
  maxDelayMs: number;
  /**
   * The share of each delay that is random, from 0 (none) to 1: the delay is drawn between
   * `1 - jitter` of the capped delay and all of it. 0.5 is "equal jitter". Jitter spreads out
   * the retries of many callers that failed together on one outage.
   */
  jitter: number;
}

/** The highest doubling applied: past it every delay is capped anyway, and 2 ** n stays finite. */
const MAX_DOUBLINGS = 40;

/**
 * The delay before the next attempt once `failures` (1 or more; fewer counts as 1) attempts
 * have failed. `random` returns a number in [0, 1), as `Math.random` does; tests pin it.
 */
export function exponentialBackoffMs(failures: number, backoff: ExponentialBackoff, random: () => number = Math.random): number {
  const exponential = backoff.initialDelayMs * 2 ** Math.min(Math.max(failures, 1) - 1, MAX_DOUBLINGS);
  const capped = Math.min(exponential, backoff.maxDelayMs);
  return Math.round(capped * (1 - backoff.jitter) + capped * backoff.jitter * random());
}
