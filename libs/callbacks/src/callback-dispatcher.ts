import type { CallbackAttempt, CallbackDeliveryRepository, DueCallbackDelivery } from './callback-delivery';
import { type CallbackSender, INTERRUPTED_ERROR } from './callback-sender';
import { CALLBACK_DELIVERY_ID_HEADER, CALLBACK_SIGNATURE_HEADER, CALLBACK_TIMESTAMP_HEADER } from './callback-signature';
import type { CallbackTargets } from './callback-targets';
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
export const DEFAULT_CLAIM_LEASE_MS = 60_000;
export const DEFAULT_IDLE_POLL_MS = 10_000;
/** After the store failed (a database restarting), the loop waits this long before asking again. */
const STORE_FAILURE_PAUSE_MS = 1_000;
/** The shortest sleep: a claim that found nothing although something was due (another process had it locked). */
const MIN_SLEEP_MS = 25;

export const CALLBACKS_OFF_ERROR = 'not sent: the account has no callback URL any more (callbacks turned off); given up';
export const NO_SECRET_ERROR = 'not sent: the account has no callback secret to sign with';
export const NOT_SIGNED_ERROR = 'not sent: the signature could not be had from the account registry';

/**
 * Works through the due deliveries of every account: claims them from the store, POSTs each
 * signed body, records the attempt and schedules the next (`nextAttemptAt`) or ends the delivery.
 * Attempts run concurrently, at most `maxConcurrentAttempts` at once, each bounded by
 * `attemptTimeoutMs`, so a slow receiver holds at most its own attempts and never the consumer
 * that records deliveries. Everything it needs is in the store, so a restart resumes where the
 * last process stopped.
 *
 * Each attempt is signed by the owner of the account's settings (`CallbackTargets.sign`): the
 * secret is never copied into the store or into this process, and a rotated secret signs the
 * next attempt. A delivery goes to the URL set when the label changed; if the account has since
 * cleared its callback URL, the delivery is given up.
 */
export class CallbackDispatcher {
  private readonly retry: CallbackRetryPolicy;
  private readonly attemptTimeoutMs: number;
  private readonly maxConcurrentAttempts: number;
  private readonly claimLeaseMs: number;
  private readonly idlePollMs: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly stopping = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private loop: Promise<void> | null = null;
  /** Set by `wake` while the loop is busy, so the loop does not go to sleep on a stale view. */
  private woken = false;
  private wakeSleeper: (() => void) | null = null;

  constructor(private readonly options: CallbackDispatcherOptions) {
    this.retry = options.retry ?? DEFAULT_CALLBACK_RETRY_POLICY;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
    this.maxConcurrentAttempts = options.maxConcurrentAttempts ?? DEFAULT_MAX_CONCURRENT_ATTEMPTS;
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
    const claimed = await this.options.deliveries.claimDue(now, now + this.claimLeaseMs, free);
    for (const delivery of claimed) this.track(this.attempt(delivery));
    if (claimed.length === free) return 0;
    const nextDue = await this.options.deliveries.nextAttemptDueAt();
    if (nextDue === null) return this.idlePollMs;
    return Math.min(Math.max(nextDue - this.now(), MIN_SLEEP_MS), this.idlePollMs);
  }

  private track(attempt: Promise<void>): void {
    this.inFlight.add(attempt);
    void attempt.finally(() => {
      this.inFlight.delete(attempt);
      this.wake();
    });
  }

  private async attempt(delivery: DueCallbackDelivery): Promise<void> {
    const startedAt = this.now();
    // Not signed (the owner of the settings did not answer): recorded as a failed attempt, so the
    // delivery is retried on its schedule and its record says why.
    const target = await this.options.targets.sign(delivery, startedAt, delivery.body).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    let outcome: { httpStatus: number | null; error: string | null; givenUp?: boolean };
    if (target instanceof Error) outcome = { httpStatus: null, error: `${NOT_SIGNED_ERROR} (${target.message})` };
    else if (!target.callbackUrl) outcome = { httpStatus: null, error: CALLBACKS_OFF_ERROR, givenUp: true };
    else if (!target.signature) outcome = { httpStatus: null, error: NO_SECRET_ERROR };
    else if (this.stopping.signal.aborted) outcome = { httpStatus: null, error: INTERRUPTED_ERROR };
    else outcome = await this.options.sender.post(this.signedRequest(delivery, startedAt, target.signature));
    const finishedAt = this.now();
    const attempt: CallbackAttempt = { at: startedAt, httpStatus: outcome.httpStatus, error: outcome.error, durationMs: finishedAt - startedAt };
    const delivered = outcome.httpStatus !== null && outcome.httpStatus >= 200 && outcome.httpStatus < 300;
    const next = delivered || outcome.givenUp ? null : nextAttemptAt(delivery.attemptCount + 1, finishedAt, delivery.changedAt, this.retry, this.random);
    const status = delivered ? 'delivered' : next === null ? 'failed' : 'pending';
    try {
      await this.options.deliveries.recordAttempt({ accountId: delivery.accountId, environment: delivery.environment }, delivery.deliveryId, attempt, { status, nextAttemptAt: next });
    } catch (error) {
      // Not recorded: the lease runs out and the attempt is made again (at least once).
      this.options.logger.warn({ err: error, deliveryId: delivery.deliveryId }, 'callback deliveries: could not record an attempt');
      return;
    }
    const logged = { deliveryId: delivery.deliveryId, accountId: delivery.accountId, attempt: delivery.attemptCount + 1, httpStatus: outcome.httpStatus, error: outcome.error };
    if (status === 'failed') this.options.logger.warn(logged, 'callback delivery given up');
    else if (status === 'pending') this.options.logger.info({ ...logged, nextAttemptAt: next }, 'callback delivery attempt failed; retrying later');
  }

  private signedRequest(delivery: DueCallbackDelivery, timestamp: number, signature: string) {
    return {
      url: delivery.url,
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
