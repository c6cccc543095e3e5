import fc from 'fast-check';
import { normaliseTimestampToMillis } from './normalise-timestamp';

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
