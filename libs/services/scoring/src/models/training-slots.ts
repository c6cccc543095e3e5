import { RateLimitedError } from '@ringfence/platform';

/** Seconds a refused training is told to wait: trainings take about a minute (docs/model.md). */
const RETRY_AFTER_SECONDS = 60;

/**
 * Who may train now (ADR-0016, "Tenants share fairly"): at most one training per account,
 * whichever of its data sets asked (both belong to one tenant, and each training takes a core
 * for as long as it runs), and at most `capacity` over every account. A training past either is
 * refused with 429 before anything is recorded; nothing waits in a queue, so a refused account
 * holds no place that would delay another's.
 */
export class TrainingSlots {
  /** The model each account is training now, by account id. */
  private readonly running = new Map<string, string>();

  constructor(private readonly capacity: number) {}

  /** Takes the account's slot for `modelId`, or throws the 429 that says which bound is reached. */
  take(accountId: string, modelId: string): void {
    const current = this.running.get(accountId);
    if (current !== undefined) {
      throw new RateLimitedError(RETRY_AFTER_SECONDS, `the account is already training a model (${current}); one training runs per account: wait for it to end`);
    }
    if (this.running.size >= this.capacity) {
      throw new RateLimitedError(RETRY_AFTER_SECONDS, `the service is running its limit of ${this.capacity} training${this.capacity === 1 ? '' : 's'} at once; retry later`);
    }
    this.running.set(accountId, modelId);
  }

  /** Gives the account's slot back (the training ended, however). */
  release(accountId: string, modelId: string): void {
    if (this.running.get(accountId) === modelId) this.running.delete(accountId);
  }

  /** Trainings running now, for metrics. */
  get size(): number {
    return this.running.size;
  }
}
