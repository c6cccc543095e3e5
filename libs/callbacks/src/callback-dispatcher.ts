import type { CallbackAttempt, CallbackDeliveryRepository, DueCallbackDelivery } from './callback-delivery';
import type { CallbackResponse, CallbackSender } from './callback-sender';
import { CALLBACK_DELIVERY_ID_HEADER, CALLBACK_SIGNATURE_HEADER, CALLBACK_TIMESTAMP_HEADER } from './callback-signature';
import type { CallbackTargets, SignedCallbackTarget } from './callback-targets';
import { type CallbackRetryPolicy, DEFAULT_CALLBACK_RETRY_POLICY, nextAttemptAt } from './retry-schedule';

/** What the dispatcher logs through; a pino logger fits as is. */
export interface CallbackLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface CallbackDispatcherOptions {
  deliveries: CallbackDeliveryRepository;
  targets: CallbackTargets;
  sender: CallbackSender;
  logger: CallbackLogger;
  retry?: CallbackRetryPolicy;
  /** Each attempt fails after this long without an answer. */
  attemptTimeoutMs?: number;
  /** Attempts in flight at once, across every account. */
  maxConcurrentAttempts?: number;
  /**
   * Attempts in flight at once for one account: its share of the dispatcher (ADR-0016), so
   * an account whose receiver is slow or never answers holds at most this many slots.
   */
  maxAttemptsPerAccount?: number;
  /**
   * How long a claimed delivery is kept from other dispatchers: longer than an attempt can take,
   * so only a process that died mid-attempt lets it go (it is then due again when this ends).
   */
  claimLeaseMs?: number;
  /**
   * The longest sleep while nothing is due: the store is asked again this often, for deliveries
   * another process recorded or left behind when it died.
   */
  idlePollMs?: number;
  now?: () => number;
  random?: () => number;
}

export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_CONCURRENT_ATTEMPTS = 16;
export const DEFAULT_MAX_ATTEMPTS_PER_ACCOUNT = 4;
export const DEFAULT_CLAIM_LEASE_MS = 60_000;
export const DEFAULT_IDLE_POLL_MS = 10_000;
/** After the store failed (a database restarting), the loop waits this long before asking again. */
const STORE_FAILURE_PAUSE_MS = 1_000;
/**
 * The shortest sleep: a claim that found nothing although something was due (another process
 * had it locked, or its account had no free slot; an attempt that ends wakes the loop anyway).
 */
const MIN_SLEEP_MS = 25;

/** How an attempt ended, before it is recorded. */
interface AttemptOutcome extends CallbackResponse {
  /** Where it was sent; null when it was not. */
  url: string | null;
  givenUp?: boolean;
}

/**
 * Works through the due deliveries of every account: claims them from the store, POSTs each
 * signed body, records the attempt and schedules the next (`nextAttemptAt`) or ends the delivery.
 * Attempts run concurrently, at most `maxConcurrentAttempts` at once and `maxAttemptsPerAccount`
 * for one account, each bounded by `attemptTimeoutMs`; claims go round-robin across accounts
 * (`CallbackClaim`). So a slow or black-hole receiver holds at most its account's slots, for at
 * most the timeout each, and never another account's callbacks nor the consumer that records
 * deliveries (ADR-0016). Everything it needs is in the store, so a restart resumes where
 * the last process stopped.
 *
 * Each attempt asks the owner of the account's settings (`CallbackTargets.sign`) for the data
 * set's URL now and the attempt's signature: the secret is never copied into the store or into
 * this process, a rotated secret signs the next attempt, and a changed URL takes the next
 * attempt (pending deliveries go to the current URL). If the data set's callback URL was
 * cleared, the delivery is given up.
 */
export class CallbackDispatcher {
  private readonly retry: CallbackRetryPolicy;
  private readonly attemptTimeoutMs: number;
  private readonly maxConcurrentAttempts: number;
  private readonly maxAttemptsPerAccount: number;
  private readonly claimLeaseMs: number;
  private readonly idlePollMs: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly stopping = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly inFlightByAccount = new Map<string, number>();
  private loop: Promise<void> | null = null;
  /** Set by `wake` while the loop is busy, so the loop does not go to sleep on a stale view. */
  private woken = false;
  private wakeSleeper: (() => void) | null = null;

  constructor(private readonly options: CallbackDispatcherOptions) {
    this.retry = options.retry ?? DEFAULT_CALLBACK_RETRY_POLICY;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
    this.maxConcurrentAttempts = options.maxConcurrentAttempts ?? DEFAULT_MAX_CONCURRENT_ATTEMPTS;
    this.maxAttemptsPerAccount = options.maxAttemptsPerAccount ?? DEFAULT_MAX_ATTEMPTS_PER_ACCOUNT;
    this.claimLeaseMs = options.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS;
    this.idlePollMs = options.idlePollMs ?? DEFAULT_IDLE_POLL_MS;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  /** Attempts in flight now (for tests and metrics). */
  get attemptsInFlight(): number {
    return this.inFlight.size;
  }

  start(): void {
    if (this.loop !== null) return;
    this.loop = this.run();
  }

  /** A delivery was recorded or became due: look at the store now rather than after the sleep. */
  wake(): void {
    this.woken = true;
    this.wakeSleeper?.();
  }

  /**
   * Stops claiming, interrupts the attempts in flight (each is recorded as interrupted and
   * scheduled as a failure would be) and resolves once they are recorded.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wakeSleeper?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      this.woken = false;
      let sleepMs: number;
      try {
        sleepMs = await this.claimAndStart();
      } catch (error) {
        this.options.logger.warn({ err: error }, 'callback deliveries: could not read the store; trying again');
        sleepMs = STORE_FAILURE_PAUSE_MS;
      }
      if (!this.woken) await this.sleep(sleepMs);
    }
  }

  /** Starts what is due and free slots allow; answers how long to sleep before looking again. */
  private async claimAndStart(): Promise<number> {
    const free = this.maxConcurrentAttempts - this.inFlight.size;
    // Every slot busy: an attempt that ends wakes the loop.
    if (free <= 0) return this.idlePollMs;
    const now = this.now();
    const claimed = await this.options.deliveries.claimDue({
      now,
      leaseUntil: now + this.claimLeaseMs,
      limit: free,
      perAccountLimit: this.maxAttemptsPerAccount,
      inFlightByAccount: this.inFlightByAccount,
    });
    for (const delivery of claimed) this.track(delivery.accountId, this.attempt(delivery));
    if (claimed.length === free) return 0;
    // The accounts with every slot taken wait for one of their attempts to end (which wakes the
    // loop): their due deliveries are no reason to look again sooner.
    const saturated = [...this.inFlightByAccount].filter(([, count]) => count >= this.maxAttemptsPerAccount).map(([accountId]) => accountId);
    const nextDue = await this.options.deliveries.nextAttemptDueAt(saturated);
    if (nextDue === null) return this.idlePollMs;
    return Math.min(Math.max(nextDue - this.now(), MIN_SLEEP_MS), this.idlePollMs);
  }

  private track(accountId: string, attempt: Promise<void>): void {
    this.inFlight.add(attempt);
    this.inFlightByAccount.set(accountId, (this.inFlightByAccount.get(accountId) ?? 0) + 1);
    void attempt.finally(() => {
      this.inFlight.delete(attempt);
      const left = (this.inFlightByAccount.get(accountId) ?? 1) - 1;
      if (left === 0) this.inFlightByAccount.delete(accountId);
      else this.inFlightByAccount.set(accountId, left);
      this.wake();
    });
  }

  private async attempt(delivery: DueCallbackDelivery): Promise<void> {
    const startedAt = this.now();
    const outcome = await this.send(delivery, startedAt);
    const finishedAt = this.now();
    const attempt: CallbackAttempt = { at: startedAt, httpStatus: outcome.httpStatus, error: outcome.error, durationMs: finishedAt - startedAt };
    const delivered = outcome.error === null;
    const next = delivered || outcome.givenUp ? null : nextAttemptAt(delivery.attemptCount + 1, finishedAt, delivery.changedAt, this.retry, this.random);
    const status = delivered ? 'delivered' : next === null ? 'failed' : 'pending';
    try {
      await this.options.deliveries.recordAttempt({ accountId: delivery.accountId, environment: delivery.environment }, delivery.deliveryId, attempt, { status, nextAttemptAt: next, url: outcome.url });
    } catch (error) {
      // Not recorded: the lease runs out and the attempt is made again (at least once).
      this.options.logger.warn({ err: error, deliveryId: delivery.deliveryId }, 'callback deliveries: could not record an attempt');
      return;
    }
    // The detail (the socket's message) is the operator's: logged, never recorded for the tenant.
    // The receiver by its host only: a URL's path and query may carry the tenant's tokens.
    const host = outcome.url === null ? null : new URL(outcome.url).host;
    const logged = { deliveryId: delivery.deliveryId, accountId: delivery.accountId, environment: delivery.environment, attempt: delivery.attemptCount + 1, host, httpStatus: outcome.httpStatus, error: outcome.error, detail: outcome.detail };
    if (status === 'failed') this.options.logger.warn(logged, 'callback delivery given up');
    else if (status === 'pending') this.options.logger.info({ ...logged, nextAttemptAt: next }, 'callback delivery attempt failed; retrying later');
  }

  /** Signs and sends one attempt to the data set's URL now; an attempt that cannot be made says why. */
  private async send(delivery: DueCallbackDelivery, startedAt: number): Promise<AttemptOutcome> {
    let target: SignedCallbackTarget;
    try {
      target = await this.options.targets.sign(delivery, startedAt, delivery.body);
    } catch (error) {
      // Not signed (the owner of the settings did not answer): recorded as a failed attempt, so
      // the delivery is retried on its schedule and its record says why.
      return { httpStatus: null, error: 'not-signed', detail: error instanceof Error ? error.message : String(error), url: null };
    }
    // The data set's callbacks were turned off: given up, nothing sent.
    if (!target.callbackUrl) return { httpStatus: null, error: 'no-url', url: null, givenUp: true };
    // Nothing is ever sent unsigned: retried on its schedule, a secret set meanwhile signs it.
    if (!target.signature) return { httpStatus: null, error: 'no-secret', url: null };
    if (this.stopping.signal.aborted) return { httpStatus: null, error: 'interrupted', url: null };
    const response = await this.options.sender.post(this.signedRequest(delivery, target.callbackUrl, startedAt, target.signature));
    return { ...response, url: target.callbackUrl };
  }

  private signedRequest(delivery: DueCallbackDelivery, url: string, timestamp: number, signature: string) {
    return {
      url,
      body: delivery.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Ringfence-Callbacks/1',
        [CALLBACK_TIMESTAMP_HEADER]: String(timestamp),
        [CALLBACK_SIGNATURE_HEADER]: signature,
        [CALLBACK_DELIVERY_ID_HEADER]: delivery.deliveryId,
      },
      timeoutMs: this.attemptTimeoutMs,
      signal: this.stopping.signal,
    };
  }

  /** Resolves after `ms`, or at once when woken or stopped. */
  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.stopping.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeSleeper === done) this.wakeSleeper = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleeper = done;
    });
  }
}
