import { MAX_JSON_DEPTH, exceedsJsonDepth } from './json-depth';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = level % 2 ? [value] : { a: value };
  return value;
};

describe(exceedsJsonDepth.name, () => {
  it('accepts scalars and bodies up to the limit', () => {
    expect(exceedsJsonDepth('text')).toBe(false);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH))).toBe(false);
  });

  it('refuses one level more, and survives a million levels', () => {
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsJsonDepth(JSON.parse('['.repeat(1_000_000) + ']'.repeat(1_000_000)))).toBe(true);
  });
});
