import { BusUnavailableError } from './bus-errors';

export type BusState = 'created' | 'starting' | 'started' | 'stopping' | 'stopped';

/**
 * The life both bus adapters share, so they agree on what each state allows: consumers are
 * registered while `created`; a bus starts once (a failed start returns it to `created`) and
 * stops once; publishing is allowed while started and while stopping (in-flight handlers may
 * still publish); requests only while started.
 */
export class BusLifecycle {
  private current: BusState = 'created';
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private settleStarted: (started: boolean) => void = () => undefined;
  private readonly started = new Promise<boolean>((resolve) => (this.settleStarted = resolve));

  get state(): BusState {
    return this.current;
  }

  /** Runs `connect` once; concurrent calls share it. */
  start(connect: () => Promise<void>): Promise<void> {
    if (this.current === 'started') return Promise.resolve();
    if (this.current === 'starting' && this.starting) return this.starting;
    if (this.current !== 'created') {
      return Promise.reject(new Error(`the bus is ${this.current}; create a new one to start again`));
    }
    this.current = 'starting';
    this.starting = connect()
      .then(
        () => {
          this.current = 'started';
          this.settleStarted(true);
        },
        (error: unknown) => {
          this.current = 'created';
          throw error;
        },
      )
      .finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Waits for a start under way, then runs `shutdown` once; `wasRunning` says whether it had started. */
  stop(shutdown: (wasRunning: boolean) => Promise<void>): Promise<void> {
    this.stopping ??= (async () => {
      await this.starting?.catch(() => undefined);
      const wasRunning = this.current === 'started';
      this.current = 'stopping';
      try {
        await shutdown(wasRunning);
      } finally {
        this.current = 'stopped';
        this.settleStarted(false);
      }
    })();
    return this.stopping;
  }

  /** Resolves true once started (at once if it is), or false if it stops without having started. */
  whenStarted(): Promise<boolean> {
    return this.started;
  }

  assertRegistering(): void {
    if (this.current !== 'created') throw new Error('subscribe and handle must be called before start');
  }

  assertCanPublish(): void {
    if (this.current !== 'started' && this.current !== 'stopping') {
      throw new BusUnavailableError(`the bus is ${this.current}; start it before publishing`);
    }
  }

  /** The error for a request sent while not started, or undefined when requests may go. */
  requestRefusal(): BusUnavailableError | undefined {
    return this.current === 'started' ? undefined : new BusUnavailableError(`the bus is ${this.current}; start it before sending requests`);
  }
}
