import { MAX_VALUE_BINS, MISSING_BIN, binMatrix, binOf, computeBinBounds } from './quantile-bins';
import { seededRandom } from './seeded-random';

const matrixOf = (column: number[]) => ({ rowCount: column.length, featureNames: ['feature'], values: Float32Array.from(column) });

describe(computeBinBounds.name, () => {
  it('gives each value its own bin when there are few, cut halfway between them', () => {
    const [bounds] = computeBinBounds(matrixOf([3, 1, 2, 2, 1, Number.NaN, 3]));
    expect(Array.from(bounds)).toEqual([1.5, 2.5]);
  });

  it('cuts many values into at most 255 bins of about equal counts', () => {
    const random = seededRandom(1);
    const column = Array.from({ length: 100_000 }, () => random());
    const [bounds] = computeBinBounds(matrixOf(column));
    expect(bounds.length).toBe(MAX_VALUE_BINS - 1);
    const counts = new Map<number, number>();
    for (const value of column) counts.set(binOf(bounds, Math.fround(value)), (counts.get(binOf(bounds, Math.fround(value))) ?? 0) + 1);
    const sizes = [...counts.values()];
    expect(Math.min(...sizes)).toBeGreaterThan(300);
    expect(Math.max(...sizes)).toBeLessThan(500);
  });

  it('keeps a mostly-zero counter zero in a bin of its own and still bins its rare values', () => {
    const random = seededRandom(2);
    // 99.9 % zeros; the rest spread over 1,000 distinct values.
    const column = Array.from({ length: 1_000_000 }, () => (random() < 0.999 ? 0 : 1 + Math.floor(random() * 1_000)));
    const [bounds] = computeBinBounds(matrixOf(column));
    expect(binOf(bounds, 0)).toBe(0);
    expect(bounds[0]).toBeLessThan(1);
    expect(bounds.length).toBeGreaterThan(200);
  });

  it('gives a flag that fires once in 500,000 rows a bin (the zeros are counted, not sampled)', () => {
    const column = new Array<number>(500_000).fill(0);
    column[123_456] = 1;
    const [bounds] = computeBinBounds(matrixOf(column));
    expect(Array.from(bounds)).toEqual([0.5]);
  });
});

describe(binMatrix.name, () => {
  it('maps each value to its bin and missing values to the missing bin', () => {
    const bounds = [Float64Array.from([1.5, 2.5])];
    expect(Array.from(binMatrix(matrixOf([1, 2, 3, Number.NaN, 2, 2, -7]), bounds))).toEqual([0, 1, 2, MISSING_BIN, 1, 1, 0]);
  });
});
