import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import { RateLimitedError, type RingfenceConfig } from '@ringfence/platform';
import { RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

const ONE_MINUTE_SECONDS = 60;

/**
 * decisions §1: a limit per client account (over it: 429, data still ingested) and per
 * customer (over it: the checkpoint answers the account's default action with source
 * RATE_LIMIT, data still ingested). Counted in this gateway process: with N gateway replicas
 * behind a balancer an account gets up to N times its limit.
 */
@Injectable()
export class RateLimits {
  private readonly perAccount: RateLimiterMemory;
  private readonly perCustomer: RateLimiterMemory;

  constructor(@Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig) {
    this.perAccount = new RateLimiterMemory({ points: config.accountRateLimitPerMinute, duration: ONE_MINUTE_SECONDS });
    this.perCustomer = new RateLimiterMemory({ points: config.customerRateLimitPerMinute, duration: ONE_MINUTE_SECONDS });
  }

  /** Counts one request of the account; when it is over its limit, the seconds until it is not. */
  accountRetryAfterSeconds(principal: Principal): Promise<number | null> {
    return this.consume(this.perAccount, principal.account.id);
  }

  /** Counts one request of the account and refuses it (429, nothing done) when the account is over its limit. */
  async refuseWhenAccountLimited(principal: Principal): Promise<void> {
    const retryAfterSeconds = await this.accountRetryAfterSeconds(principal);
    if (retryAfterSeconds !== null) throw this.accountLimited(retryAfterSeconds);
  }

  /** The 429 of an account over its limit; `done` says what was still done with the request (decisions §1). */
  accountLimited(retryAfterSeconds: number, done?: string): RateLimitedError {
    const message = `the account is over its limit of ${this.config.accountRateLimitPerMinute} requests a minute`;
    return new RateLimitedError(retryAfterSeconds, done === undefined ? message : `${message}; ${done}`);
  }

  /** Counts one event of the customer; true when the customer is over its limit. */
  async customerIsLimited(principal: Principal, customerId: string): Promise<boolean> {
    const key = `${principal.account.id}:${principal.environment}:${customerId}`;
    return (await this.consume(this.perCustomer, key)) !== null;
  }

  private async consume(limiter: RateLimiterMemory, key: string): Promise<number | null> {
    try {
      await limiter.consume(key);
      return null;
    } catch (rejection: unknown) {
      if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw rejection;
    }
  }
}
