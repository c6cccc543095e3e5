import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Failed attempts at a credential, counted per key (a client address, an e-mail address) in
 * this process: past `limit` failures within `windowSeconds` of the first, the key is refused
 * until the window is over. Used for the operator's credentials (ADR-0016) and the console's
 * sign-in (issue 37).
 */
export class FailedAttempts {
  private readonly failures: RateLimiterMemory;

  constructor(
    private readonly limit: number,
    windowSeconds: number,
  ) {
    this.failures = new RateLimiterMemory({ points: limit, duration: windowSeconds });
  }

  /** Seconds until the key may try again; null when it may now. */
  async retryAfterSeconds(key: string): Promise<number | null> {
    const counted = await this.failures.get(key);
    if (counted === null || counted.consumedPoints < this.limit) return null;
    return Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
  }

  async recordFailure(key: string): Promise<void> {
    await this.failures.penalty(key, 1);
  }

  /**
   * Takes one attempt before the credential is checked, so requests in parallel cannot all pass
   * a check made before any of them failed: null when taken, else the seconds to wait (nothing
   * kept). `refund` gives the attempt back when it did not fail.
   */
  async take(key: string): Promise<number | null> {
    try {
      await this.failures.consume(key, 1);
      return null;
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      await this.failures.reward(key, 1);
      return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    }
  }

  async refund(key: string): Promise<void> {
    await this.failures.reward(key, 1);
  }
}
