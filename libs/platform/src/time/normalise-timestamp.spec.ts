import fc from 'fast-check';
import { TIMESTAMP_LIMIT_MS, isTimestampInRange, normaliseTimestampToMillis } from './normalise-timestamp';

describe(normaliseTimestampToMillis.name, () => {
  const millis = 1_763_800_000_123;

  it.each([
    ['seconds', 1_763_800_000, 1_763_800_000_000],
    ['milliseconds', millis, millis],
    ['microseconds', millis * 1000 + 456, millis],
    ['nanoseconds', millis * 1_000_000, millis],
  ])('reads %s', (_unit, input, expected) => {
    expect(normaliseTimestampToMillis(input)).toBe(expected);
  });

  it('maps the same instant in every unit to the same milliseconds', () => {
    // Whole seconds between 1973 and 2286 are unambiguous in all four units.
    fc.assert(
      fc.property(fc.integer({ min: 100_000_000, max: 9_999_999_999 }), (seconds) => {
        const expected = seconds * 1000;
        return [seconds, seconds * 1e3, seconds * 1e6, seconds * 1e9].every(
          (value) => normaliseTimestampToMillis(value) === expected,
        );
      }),
    );
  });
});

describe(isTimestampInRange.name, () => {
  it.each([
    ['1970-01-01 in seconds', 0],
    ['a second after 1970-01-01', 1],
    ['the last second before 2100, in seconds', 4_102_444_799],
    ['1973-03-03, the first millisecond read as milliseconds', 1e11],
    ['the last millisecond before 2100', TIMESTAMP_LIMIT_MS - 1],
    ['microseconds of 1973-03-03', 1e14],
    ['nanoseconds of today', 1_763_800_000_000_000_000],
  ])('accepts %s', (_case, value) => {
    expect(isTimestampInRange(value)).toBe(true);
  });

  it.each([
    ['1e30 (1e24 ms, past every bigint column)', 1e30],
    ['a time before 1970', -1],
    ['2100-01-01 in seconds', 4_102_444_800],
    ['2100-01-01 in milliseconds', TIMESTAMP_LIMIT_MS],
    ['seconds past 2100 below 1e11', 99_999_999_999],
    ['a fraction', 1_763_800_000.5],
    ['not a number', Number.NaN],
    ['infinity', Number.POSITIVE_INFINITY],
  ])('refuses %s', (_case, value) => {
    expect(isTimestampInRange(value)).toBe(false);
  });

  it('refuses the times whose milliseconds would read as seconds when validated again (1970-02-17 to 1973-03-03)', () => {
    // 1971-08-02 in seconds is 5e10 ms, which a Kafka consumer validating the event reads as seconds (year 3554).
    expect(isTimestampInRange(50_000_000)).toBe(false);
    expect(isTimestampInRange(50_000_000_000)).toBe(false);
  });

  it('accepts the milliseconds of every time it accepts (the event is validated again in ms)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 5_000_000_000 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.double({ min: 0, max: 5e18, noNaN: true })), (value) => {
        if (!isTimestampInRange(value)) return true;
        const millis = normaliseTimestampToMillis(value);
        return isTimestampInRange(millis) && millis < TIMESTAMP_LIMIT_MS;
      }),
    );
  });
});
