import { setTimeout as delay } from 'node:timers/promises';
import { exponentialBackoffMs } from '@ringfence/platform';

/**
 * How a consumer retries an event whose handler threw. It retries the same event, never the
 * next one, so a key's order survives a failure; the cost is that a handler that always throws
 * holds up its partition (Kafka) or its group's topic (in-process) until it is fixed or the bus
 * stops. Handlers therefore throw only for transient trouble and settle bad input themselves.
 */
export interface HandlerRetryOptions {
  /** Delay before the first retry. */
  initialDelayMs: number;
  /** Ceiling of the doubling delay, so a failing handler is retried at least this often. */
  maxDelayMs: number;
}

export const DEFAULT_HANDLER_RETRY: HandlerRetryOptions = { initialDelayMs: 200, maxDelayMs: 10_000 };

/** The share of a retry's delay that is random: it spreads the retries of consumers that failed on one outage. */
const HANDLER_RETRY_JITTER = 0.2;

/** Exponential delay before retry number `attempt` (1-based), capped, with up to 20 % off for jitter. */
export function handlerRetryDelayMs(attempt: number, options: HandlerRetryOptions, random: () => number = Math.random): number {
  return exponentialBackoffMs(attempt, { initialDelayMs: options.initialDelayMs, maxDelayMs: options.maxDelayMs, jitter: HANDLER_RETRY_JITTER }, random);
}

export interface DeliverUntilHandledOptions {
  handle: () => Promise<void>;
  retry: HandlerRetryOptions;
  /** Aborted when the bus stops: the event is left unhandled (and uncommitted). */
  signal: AbortSignal;
  onFailure: (error: unknown, attempt: number, nextDelayMs: number) => void;
  /** Runs before each retry; may throw to give the event up (Kafka: the group rebalanced). */
  beforeRetry?: () => Promise<void>;
}

/** Calls `handle` until it succeeds. True when it did, false when the bus stopped first. */
export async function deliverUntilHandled(options: DeliverUntilHandledOptions): Promise<boolean> {
  for (let attempt = 1; !options.signal.aborted; attempt += 1) {
    try {
      await options.handle();
      return true;
    } catch (error) {
      const nextDelayMs = handlerRetryDelayMs(attempt, options.retry);
      options.onFailure(error, attempt, nextDelayMs);
      if (!(await sleep(nextDelayMs, options.signal))) return false;
      await options.beforeRetry?.();
    }
  }
  return false;
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
