import { deliverUntilHandled, handlerRetryDelayMs } from './handler-retry';

describe(handlerRetryDelayMs.name, () => {
  const options = { initialDelayMs: 100, maxDelayMs: 1_000 };

  it('doubles from the initial delay and stops at the ceiling', () => {
    const withoutJitter = () => 1;
    expect([1, 2, 3, 4, 5, 50].map((attempt) => handlerRetryDelayMs(attempt, options, withoutJitter))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('takes at most 20 % off for jitter', () => {
    expect(handlerRetryDelayMs(1, options, () => 0)).toBe(80);
    expect(handlerRetryDelayMs(60, options, () => 0)).toBe(800);
  });
});

describe(deliverUntilHandled.name, () => {
  const retry = { initialDelayMs: 1, maxDelayMs: 5 };

  it('calls the handler again after each failure until it succeeds, reporting every failure', async () => {
    let calls = 0;
    const failures: number[] = [];
    const handled = await deliverUntilHandled({
      handle: async () => {
        calls += 1;
        if (calls < 4) throw new Error('transient');
      },
      retry,
      signal: new AbortController().signal,
      onFailure: (_error, attempt) => failures.push(attempt),
    });
    expect(handled).toBe(true);
    expect(calls).toBe(4);
    expect(failures).toEqual([1, 2, 3]);
  });

  it('gives up, reporting false, once the signal aborts during the backoff', async () => {
    const abort = new AbortController();
    let calls = 0;
    const handled = await deliverUntilHandled({
      handle: async () => {
        calls += 1;
        throw new Error('permanent');
      },
      retry: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
      signal: abort.signal,
      onFailure: () => abort.abort(),
    });
    expect(handled).toBe(false);
    expect(calls).toBe(1);
  });

  it('lets beforeRetry end the attempts by throwing', async () => {
    const rebalance = new Error('rebalancing');
    await expect(
      deliverUntilHandled({
        handle: async () => {
          throw new Error('transient');
        },
        retry,
        signal: new AbortController().signal,
        onFailure: () => undefined,
        beforeRetry: async () => {
          throw rebalance;
        },
      }),
    ).rejects.toBe(rebalance);
  });
});
