import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import { type Action, stricterAction } from '@ringfence/contracts';
import { RateLimitedError, type RingfenceConfig } from '@ringfence/platform';
import { RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { LastAnsweredActions } from './last-answered-actions';

const ONE_MINUTE_SECONDS = 60;

/**
 * ADR-0001: a limit per client account (over it: 429, data still ingested) and per
 * customer (over it: the checkpoint answers with source RATE_LIMIT the stricter of the
 * customer's last answered action and REVIEW, data still ingested: a burst of attempts is itself
 * a fraud signal, so a limit never turns into a fresh ALLOW). Counted in this gateway process:
 * with N gateway replicas behind a balancer an account gets up to N times its limit.
 */
@Injectable()
export class RateLimits {
  private readonly perAccount: RateLimiterMemory;
  private readonly perCustomer: RateLimiterMemory;
  private readonly lastAnswered = new LastAnsweredActions();

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

  /** The 429 of an account over its limit; `done` says what was still done with the request (ADR-0001). */
  accountLimited(retryAfterSeconds: number, done?: string): RateLimitedError {
    const message = `the account is over its limit of ${this.config.accountRateLimitPerMinute} requests a minute`;
    return new RateLimitedError(retryAfterSeconds, done === undefined ? message : `${message}; ${done}`);
  }

  /**
   * Counts one event of the customer; when the customer is over its limit, the action its
   * checkpoint answers instead of a score: the stricter of its last answered action and REVIEW.
   */
  async customerLimitedAction(principal: Principal, customerId: string): Promise<Action | null> {
    const key = `${principal.account.id}:${principal.environment}:${customerId}`;
    if ((await this.consume(this.perCustomer, key)) === null) return null;
    return stricterAction(this.lastAnswered.lastAction(principal, customerId), 'REVIEW');
  }

  /**
   * Remembers the action a checkpoint of the customer was answered from its score. Degraded
   * answers (the account's default when scoring did not answer) are not about the customer and
   * are not recorded: a scoring outage must not erase a PREVENT.
   */
  recordScoredAnswer(principal: Principal, customerId: string, action: Action): void {
    this.lastAnswered.record(principal, customerId, action);
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
