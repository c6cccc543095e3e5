/**
 * Polls `probe` until it returns a value (not null/undefined) or the time is up. Only for what is
 * asynchronous by design (callback deliveries, trainings, the warehouse feed, log lines written
 * after an answer): a write answered 2xx is asserted on the very next request, never polled.
 */
export async function eventually<T>(probe: () => T | null | undefined | Promise<T | null | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
