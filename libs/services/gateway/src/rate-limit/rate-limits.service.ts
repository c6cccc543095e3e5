import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { RingfenceConfig } from '@ringfence/platform';
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

  constructor(@Inject(RINGFENCE_CONFIG) config: RingfenceConfig) {
    this.perAccount = new RateLimiterMemory({ points: config.accountRateLimitPerMinute, duration: ONE_MINUTE_SECONDS });
    this.perCustomer = new RateLimiterMemory({ points: config.customerRateLimitPerMinute, duration: ONE_MINUTE_SECONDS });
  }

  /** Counts one request of the account; when it is over its limit, the seconds until it is not. */
  accountRetryAfterSeconds(principal: Principal): Promise<number | null> {
    return this.consume(this.perAccount, principal.account.id);
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
