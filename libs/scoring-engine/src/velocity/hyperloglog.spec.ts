import { distinctHash } from './distinct-hash';
import { HYPERLOGLOG_MAX_RANK, HYPERLOGLOG_REGISTERS, addHashToRegisters, areValidRegisters, estimateCardinality, mergeRegisters } from './hyperloglog';

const sketchOf = (values: Iterable<string>): Uint8Array => {
  const registers = new Uint8Array(HYPERLOGLOG_REGISTERS);
  for (const value of values) addHashToRegisters(registers, distinctHash(value));
  return registers;
};
const range = (from: number, to: number, prefix = 'value'): string[] => Array.from({ length: to - from }, (_, i) => `${prefix}-${from + i}`);

describe('HyperLogLog', () => {
  // The relative standard error of 256 registers is 1.04/√256 = 6.5 %.
  const STANDARD_ERROR = 1.04 / Math.sqrt(HYPERLOGLOG_REGISTERS);

  it.each([50, 100, 1_000, 10_000, 100_000, 1_000_000])('estimates %i distinct values within three standard errors', (count) => {
    const estimate = estimateCardinality(sketchOf(range(0, count)));
    expect(Math.abs(estimate - count) / count).toBeLessThan(3 * STANDARD_ERROR);
  });

  it('has a mean relative error near its standard error over many independent sets (no bias at small or large counts)', () => {
    for (const count of [40, 500, 20_000]) {
      const errors = Array.from({ length: 40 }, (_, set) => (estimateCardinality(sketchOf(range(0, count, `set${set}`))) - count) / count);
      const bias = errors.reduce((sum, error) => sum + error, 0) / errors.length;
      const rootMeanSquare = Math.sqrt(errors.reduce((sum, error) => sum + error * error, 0) / errors.length);
      expect(Math.abs(bias)).toBeLessThan(STANDARD_ERROR);
      expect(rootMeanSquare).toBeLessThan(1.5 * STANDARD_ERROR);
    }
  });

  it('estimates 0 for an empty sketch and counts a repeated value once', () => {
    expect(estimateCardinality(new Uint8Array(HYPERLOGLOG_REGISTERS))).toBe(0);
    expect(Math.round(estimateCardinality(sketchOf(['a', 'a', 'a'])))).toBe(1);
  });

  it('merges to the sketch of the union', () => {
    const left = sketchOf(range(0, 6_000));
    const right = sketchOf(range(4_000, 10_000));
    mergeRegisters(left, right);
    expect(left).toEqual(sketchOf(range(0, 10_000)));
  });

  it('gives the largest rank to a hash whose rank bits are all zero', () => {
    const registers = new Uint8Array(HYPERLOGLOG_REGISTERS);
    addHashToRegisters(registers, 0x05000000);
    expect(registers[5]).toBe(HYPERLOGLOG_MAX_RANK);
  });

  it('tells registers it could have written from others', () => {
    expect(areValidRegisters(sketchOf(range(0, 100)))).toBe(true);
    expect(areValidRegisters(new Uint8Array(HYPERLOGLOG_REGISTERS - 1))).toBe(false);
    expect(areValidRegisters(new Uint8Array(HYPERLOGLOG_REGISTERS).fill(HYPERLOGLOG_MAX_RANK + 1))).toBe(false);
  });
});
