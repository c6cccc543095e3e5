import { distinctHash } from './distinct-hash';
import { DistinctUnion, type DistinctSketch, EXACT_DISTINCT_LIMIT, addDistinct, distinctFromJson, distinctToJson, mergeDistinct } from './distinct-sketch';
import { HYPERLOGLOG_MAX_RANK, HYPERLOGLOG_REGISTERS } from './hyperloglog';

const hashes = (count: number, prefix = 'v'): number[] => Array.from({ length: count }, (_, i) => distinctHash(`${prefix}${i}`));
const sketchOf = (values: number[]): DistinctSketch => values.reduce<DistinctSketch | undefined>((sketch, hash) => addDistinct(sketch, hash), undefined) as DistinctSketch;
const countOf = (...sketches: DistinctSketch[]): number => {
  const union = new DistinctUnion();
  for (const sketch of sketches) union.add(sketch);
  return union.count();
};

describe('distinct sketches', () => {
  it('keep one value as a plain number, then up to EXACT_DISTINCT_LIMIT hashes, then registers', () => {
    expect(sketchOf(hashes(1))).toBe(hashes(1)[0]);
    expect(sketchOf([...hashes(1), ...hashes(1)])).toBe(hashes(1)[0]);
    expect(sketchOf(hashes(EXACT_DISTINCT_LIMIT))).toEqual(hashes(EXACT_DISTINCT_LIMIT));
    expect(sketchOf(hashes(EXACT_DISTINCT_LIMIT + 1))).toBeInstanceOf(Uint8Array);
  });

  it('count exactly while the union holds at most EXACT_DISTINCT_LIMIT values, across buckets and repeats', () => {
    const values = hashes(EXACT_DISTINCT_LIMIT);
    expect(countOf(sketchOf(values.slice(0, 20)), sketchOf(values.slice(10)), sketchOf(values.slice(5, 6)))).toBe(EXACT_DISTINCT_LIMIT);
    // One value more and the union is registers: an estimate from then on.
    const estimate = countOf(sketchOf(values.slice(0, 20)), sketchOf(hashes(13, 'w')));
    expect(Math.abs(estimate - 33)).toBeLessThanOrEqual(33 * 0.2);
  });

  it('estimate past the limit within the registers’ error', () => {
    const count = countOf(sketchOf(hashes(3_000)), sketchOf(hashes(3_000, 'w')), sketchOf(hashes(3_000)));
    expect(Math.abs(count - 6_000) / 6_000).toBeLessThan(0.2);
  });

  it('merge without sharing the source’s storage', () => {
    const source = sketchOf(hashes(5)) as number[];
    const merged = mergeDistinct(undefined, source) as number[];
    merged.push(1);
    expect(source).toHaveLength(5);
    const registers = sketchOf(hashes(100)) as Uint8Array;
    const mergedRegisters = mergeDistinct(undefined, registers) as Uint8Array;
    mergedRegisters.fill(0);
    expect(registers.some((value) => value > 0)).toBe(true);
    expect(countOf(mergeDistinct(sketchOf(hashes(3)), sketchOf(hashes(40, 'w'))))).toBe(countOf(sketchOf(hashes(3)), sketchOf(hashes(40, 'w'))));
  });

  it('reuse one union from query to query', () => {
    const union = new DistinctUnion();
    union.add(sketchOf(hashes(500)));
    expect(union.count()).toBeGreaterThan(400);
    union.reset();
    union.add(sketchOf(hashes(2)));
    expect(union.count()).toBe(2);
  });

  it('read back what they wrote as JSON', () => {
    for (const sketch of [sketchOf(hashes(1)), sketchOf(hashes(7)), sketchOf(hashes(1_000))]) {
      const json = JSON.parse(JSON.stringify(distinctToJson(sketch))) as unknown;
      expect(distinctFromJson(json)).toEqual(sketch);
    }
  });

  it.each([
    ['not base64', '%%%'],
    ['registers of the wrong length', btoa('abc')],
    ['a register past the largest rank', btoa(String.fromCharCode(...new Uint8Array(HYPERLOGLOG_REGISTERS).fill(HYPERLOGLOG_MAX_RANK + 1)))],
    ['no hash', []],
    ['too many hashes', hashes(EXACT_DISTINCT_LIMIT + 1)],
    ['a repeated hash', [1, 1]],
    ['a hash that is not a 32-bit integer', [2 ** 32]],
    ['a fraction', [1.5]],
    ['a string hash', ['1']],
    ['an object', { registers: 'x' }],
    ['null', null],
  ])('refuse a snapshot with %s', (_case, json) => {
    expect(() => distinctFromJson(json)).toThrow(RangeError);
  });
});
