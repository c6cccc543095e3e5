import { exponentialBackoffMs } from '@ringfence/platform';

/** How a failed delivery is retried (docs/api.md, "Review callbacks"). */
export interface CallbackRetryPolicy {
  /** The delay after the first failed attempt; it doubles after each further failure. */
  baseDelayMs: number;
  /** The longest delay between two attempts. */
  maxDelayMs: number;
  /** How long after the label change attempts go on; then the delivery is given up (`failed`). */
  windowMs: number;
}

export const DEFAULT_CALLBACK_RETRY_POLICY: CallbackRetryPolicy = {
  baseDelayMs: 10_000,
  maxDelayMs: 60 * 60_000,
  windowMs: 24 * 60 * 60_000,
};

/** A random point between half and all of each delay ("equal jitter"). */
const CALLBACK_RETRY_JITTER = 0.5;

/**
 * The delay before the next attempt once `failedAttempts` (1 or more) have failed: the base
 * doubled per failure, capped, then "equal jitter" (a random point between half and all of it),
 * so the retries of many deliveries that failed together on one receiver's outage spread out
 * instead of arriving together when it comes back.
 */
export function callbackRetryDelayMs(failedAttempts: number, policy: CallbackRetryPolicy, random: () => number = Math.random): number {
  return exponentialBackoffMs(failedAttempts, { initialDelayMs: policy.baseDelayMs, maxDelayMs: policy.maxDelayMs, jitter: CALLBACK_RETRY_JITTER }, random);
}

/**
 * When to attempt again after `failedAttempts` failures, the last one finished at `now`; null
 * to give up. Attempts go on until `windowMs` after the change: a delay that would run past it is
 * shortened to end there, so the last attempt is made at the end of the window.
 */
export function nextAttemptAt(
  failedAttempts: number,
  now: number,
  changedAt: number,
  policy: CallbackRetryPolicy,
  random: () => number = Math.random,
): number | null {
  const giveUpAt = changedAt + policy.windowMs;
  if (now >= giveUpAt) return null;
  return Math.min(now + callbackRetryDelayMs(failedAttempts, policy, random), giveUpAt);
}
