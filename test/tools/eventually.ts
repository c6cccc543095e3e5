/**
 * Polling, for what is asynchronous by design only (a callback delivered off the consumer, a
 * consumer group caught up, a training finished, a log line written after its answer, a broker
 * back): a write answered 2xx is asserted on the very next request, never polled. Each caller
 * says why what it polls is asynchronous.
 */
export interface PollOptions {
  /** Between two probes; 20 ms unless given. */
  intervalMs?: number;
  /** The message of the error thrown when the time is up. */
  failure?: () => string;
}

/** Polls `probe` until it returns a value (not null or undefined), or throws once `timeoutMs` is up. */
export async function eventually<T>(probe: () => T | null | undefined | Promise<T | null | undefined>, timeoutMs = 5000, { intervalMs = 20, failure }: PollOptions = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(failure?.() ?? `condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Polls `condition` until it holds, or throws once `timeoutMs` is up. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000, options: PollOptions = {}): Promise<void> {
  await eventually(async () => ((await condition()) ? true : undefined), timeoutMs, options);
}
