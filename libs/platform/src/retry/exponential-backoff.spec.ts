import { exponentialBackoffMs } from './exponential-backoff';

describe(exponentialBackoffMs.name, () => {
  const backoff = { initialDelayMs: 100, maxDelayMs: 1_000, jitter: 0.2 };
  const noJitter = () => 1;

  it('doubles from the initial delay after each failure and stops at the maximum', () => {
    expect([1, 2, 3, 4, 5, 50, 10_000].map((failures) => exponentialBackoffMs(failures, backoff, noJitter))).toEqual([
      100, 200, 400, 800, 1_000, 1_000, 1_000,
    ]);
  });

  it('counts fewer than one failure as one', () => {
    expect(exponentialBackoffMs(0, backoff, noJitter)).toBe(100);
    expect(exponentialBackoffMs(-3, backoff, noJitter)).toBe(100);
  });

  it('takes at most the jitter share off each delay', () => {
    expect(exponentialBackoffMs(1, backoff, () => 0)).toBe(80);
    expect(exponentialBackoffMs(60, backoff, () => 0)).toBe(800);
    expect(exponentialBackoffMs(3, { ...backoff, jitter: 0.5 }, () => 0)).toBe(200);
    expect(exponentialBackoffMs(3, { ...backoff, jitter: 0.5 }, () => 0.5)).toBe(300);
    for (let sample = 0; sample < 200; sample += 1) {
      const delay = exponentialBackoffMs(2, { ...backoff, jitter: 0.5 });
      expect(delay).toBeGreaterThanOrEqual(100);
      expect(delay).toBeLessThanOrEqual(200);
    }
  });

  it('is exact without jitter, whatever the random number', () => {
    expect(exponentialBackoffMs(3, { ...backoff, jitter: 0 }, () => 0)).toBe(400);
    expect(exponentialBackoffMs(3, { ...backoff, jitter: 0 }, () => 0.7)).toBe(400);
  });

  it('stays finite for a zero initial delay after very many failures', () => {
    expect(exponentialBackoffMs(100_000, { initialDelayMs: 0, maxDelayMs: 5, jitter: 0.5 })).toBe(0);
  });
});
