import { Injectable } from '@nestjs/common';
import { RateLimiterMemory } from 'rate-limiter-flexible';

/** Failed admin-token attempts one client address may make in a window before it is refused. */
export const ADMIN_TOKEN_FAILURES_PER_ADDRESS = 10;
/** The window, from an address's first failure: once over, the address may try again. */
export const ADMIN_TOKEN_FAILURE_WINDOW_SECONDS = 600;

/**
 * decisions §16: admin-token attempts are throttled. The admin token is long and random, so
 * guessing it is hopeless; what this bounds is a client that tries anyway (load on the guard, noise
 * in the log) and a token that is weaker than it should be. Counted per client address
 * (`clientAddressKey`), in this process: an address past its failures gets 429 with `Retry-After`
 * for every admin request, the right token included (else the answer would still tell a right
 * guess from a wrong one), while every other address is unaffected. Only a token that is neither
 * the admin token nor an active API key counts: a request without one, or with an account's own
 * key, guesses nothing.
 */
@Injectable()
export class AdminTokenAttempts {
  private readonly failures = new RateLimiterMemory({ points: ADMIN_TOKEN_FAILURES_PER_ADDRESS, duration: ADMIN_TOKEN_FAILURE_WINDOW_SECONDS });

  /** Seconds until the address may try again; null when it may now. */
  async retryAfterSeconds(addressKey: string): Promise<number | null> {
    const counted = await this.failures.get(addressKey);
    if (counted === null || counted.consumedPoints < ADMIN_TOKEN_FAILURES_PER_ADDRESS) return null;
    return Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
  }

  async recordFailure(addressKey: string): Promise<void> {
    await this.failures.penalty(addressKey, 1);
  }
}
