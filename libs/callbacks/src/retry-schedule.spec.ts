import { type CallbackRetryPolicy, DEFAULT_CALLBACK_RETRY_POLICY, nextAttemptAt, callbackRetryDelayMs } from './retry-schedule';

const POLICY: CallbackRetryPolicy = { baseDelayMs: 1_000, maxDelayMs: 60_000, windowMs: 600_000 };
const noJitter = () => 1;
const fullJitter = () => 0;

describe(callbackRetryDelayMs.name, () => {
  it('doubles from the base after each failure', () => {
    expect([1, 2, 3, 4, 5].map((failures) => callbackRetryDelayMs(failures, POLICY, noJitter))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
  });

  it('stops growing at the maximum, however many failures', () => {
    expect([7, 8, 50, 10_000].map((failures) => callbackRetryDelayMs(failures, POLICY, noJitter))).toEqual([60_000, 60_000, 60_000, 60_000]);
  });

  it('jitters each delay between half and all of it', () => {
    expect(callbackRetryDelayMs(3, POLICY, fullJitter)).toBe(2_000);
    expect(callbackRetryDelayMs(3, POLICY, () => 0.5)).toBe(3_000);
    for (let sample = 0; sample < 200; sample += 1) {
      const delay = callbackRetryDelayMs(2, POLICY);
      expect(delay).toBeGreaterThanOrEqual(1_000);
      expect(delay).toBeLessThanOrEqual(2_000);
    }
  });

  it('by default starts at 10 s and caps at an hour', () => {
    expect(callbackRetryDelayMs(1, DEFAULT_CALLBACK_RETRY_POLICY, noJitter)).toBe(10_000);
    expect(callbackRetryDelayMs(30, DEFAULT_CALLBACK_RETRY_POLICY, noJitter)).toBe(3_600_000);
  });
});

describe(nextAttemptAt.name, () => {
  const changedAt = 1_000_000;

  it('schedules the next attempt the delay after the failed one', () => {
    expect(nextAttemptAt(1, changedAt + 50, changedAt, POLICY, noJitter)).toBe(changedAt + 1_050);
  });

  it('shortens a delay that would run past the window, so the last attempt is at its end', () => {
    const late = changedAt + POLICY.windowMs - 10_000;

    expect(nextAttemptAt(9, late, changedAt, POLICY, noJitter)).toBe(changedAt + POLICY.windowMs);
  });

  it('gives up once the window after the change is over', () => {
    expect(nextAttemptAt(12, changedAt + POLICY.windowMs, changedAt, POLICY, noJitter)).toBeNull();
    expect(nextAttemptAt(1, changedAt + POLICY.windowMs + 1, changedAt, POLICY, noJitter)).toBeNull();
  });

  it('by default keeps retrying for 24 hours: about 30 attempts when every one fails', () => {
    let now = changedAt;
    let attempts = 1;
    for (let next = nextAttemptAt(attempts, now, changedAt, DEFAULT_CALLBACK_RETRY_POLICY, noJitter); next !== null; ) {
      now = next;
      attempts += 1;
      next = nextAttemptAt(attempts, now, changedAt, DEFAULT_CALLBACK_RETRY_POLICY, noJitter);
    }

    expect(now).toBe(changedAt + 24 * 3_600_000);
    expect(attempts).toBeGreaterThanOrEqual(25);
    expect(attempts).toBeLessThanOrEqual(35);
  });
});
