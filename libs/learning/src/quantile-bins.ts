import type { FeatureMatrix } from './feature-matrix';
import { seededRandom } from './seeded-random';

/** At most this many bins of values per feature: a bin index and the missing bin fit in a byte. */
export const MAX_VALUE_BINS = 255;
/** The bin of a missing value (NaN), after every value bin. */
export const MISSING_BIN = 255;
/**
 * The non-zero values a feature's bounds are computed from at most, as LightGBM's
 * `bin_construct_sample_cnt`: quantiles of 200,000 values place 255 cuts as well as those of
 * millions, at a fraction of the sorting.
 */
export const BIN_SAMPLE_ROWS = 200_000;

/**
 * The bins of one feature, by their upper bounds: bin `b` holds the values `v` with
 * `upperBounds[b - 1] < v <= upperBounds[b]`, and the last bin (`upperBounds.length`) everything
 * above. A split "at bin b" therefore sends `v <= upperBounds[b]` left, which is the threshold
 * the trained trees keep, so inference needs no bins.
 */
export type BinUpperBounds = Float64Array;

/**
 * The bounds of every feature of `matrix`. Each bound is the midpoint between two adjacent
 * distinct float32 values, so it is never equal to a value and a value falls on the same side of
 * it in training and inference.
 *
 * Zeros are counted, not sorted: most of a fraud feature's values are zero, and a flag that fires
 * once in 100,000 rows must still get its own bin, which a sample of rows could miss. The other
 * values are sorted all when there are at most BIN_SAMPLE_ROWS of them, else a seeded sample of
 * that many (with the zeros' count scaled to match).
 */
export function computeBinBounds(matrix: FeatureMatrix, maxBins = MAX_VALUE_BINS, seed = 1): BinUpperBounds[] {
  if (maxBins < 2 || maxBins > MAX_VALUE_BINS) throw new RangeError(`maxBins must be 2–${MAX_VALUE_BINS}, not ${maxBins}`);
  const random = seededRandom(seed);
  const nonZero = new Float32Array(matrix.rowCount);
  const sample = new Float32Array(Math.min(matrix.rowCount, BIN_SAMPLE_ROWS));
  return matrix.featureNames.map((_name, feature) => {
    const offset = feature * matrix.rowCount;
    let zeros = 0;
    let count = 0;
    for (let row = 0; row < matrix.rowCount; row += 1) {
      const value = matrix.values[offset + row];
      if (value === 0) zeros += 1;
      else if (value === value) nonZero[count++] = value;
    }
    if (count <= BIN_SAMPLE_ROWS) return boundsOfValues(nonZero.subarray(0, count).sort(), zeros, maxBins);
    // Selection sampling (Knuth's algorithm S): one pass, exactly the sample's size.
    let chosen = 0;
    for (let index = 0; index < count && chosen < sample.length; index += 1) {
      if ((count - index) * random() < sample.length - chosen) sample[chosen++] = nonZero[index];
    }
    return boundsOfValues(sample.sort(), (zeros * sample.length) / count, maxBins);
  });
}

/** The bounds of `sorted` (no zeros, no NaN) and `zeroCount` zeros. */
export function boundsOfValues(sorted: Float32Array, zeroCount: number, maxBins: number): BinUpperBounds {
  const distinct: number[] = [];
  const counts: number[] = [];
  const addZeros = () => {
    if (zeroCount > 0) {
      distinct.push(0);
      counts.push(zeroCount);
    }
    zeroCount = 0;
  };
  for (let index = 0; index < sorted.length; index += 1) {
    if (sorted[index] > 0) addZeros();
    if (distinct.length > 0 && distinct[distinct.length - 1] === sorted[index]) counts[counts.length - 1] += 1;
    else {
      distinct.push(sorted[index]);
      counts.push(1);
    }
  }
  addZeros();
  return boundsOfDistinct(distinct, counts, maxBins);
}

/**
 * Cuts distinct values (increasing, with their counts) into at most `maxBins` bins of about
 * equal counts. Walking the values, a bin closes once it holds its share of what is left; a value
 * that alone holds more (the zero of a mostly-zero counter) gets a bin of its own and the rest
 * share the others, where plain quantiles would pile their cuts up on it.
 */
export function boundsOfDistinct(distinct: readonly number[], counts: readonly number[], maxBins: number): BinUpperBounds {
  const bounds: number[] = [];
  if (distinct.length <= maxBins) {
    for (let index = 0; index + 1 < distinct.length; index += 1) bounds.push((distinct[index] + distinct[index + 1]) / 2);
    return Float64Array.from(bounds);
  }
  let remaining = counts.reduce((sum, count) => sum + count, 0);
  let binsLeft = maxBins;
  let inBin = 0;
  for (let index = 0; index + 1 < distinct.length && binsLeft > 1; index += 1) {
    inBin += counts[index];
    const distinctLeft = distinct.length - index - 1;
    if (inBin >= remaining / binsLeft || distinctLeft < binsLeft) {
      bounds.push((distinct[index] + distinct[index + 1]) / 2);
      remaining -= inBin;
      binsLeft -= 1;
      inBin = 0;
    }
  }
  return Float64Array.from(bounds);
}

/** The bin of `value` (MISSING_BIN for NaN). */
export function binOf(bounds: BinUpperBounds, value: number): number {
  if (value !== value) return MISSING_BIN;
  let low = 0;
  let high = bounds.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (value <= bounds[middle]) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Every value of `matrix` as its bin, column-major like the matrix. */
export function binMatrix(matrix: FeatureMatrix, bounds: readonly BinUpperBounds[]): Uint8Array {
  const bins = new Uint8Array(matrix.values.length);
  const { values, rowCount } = matrix;
  for (let feature = 0; feature < bounds.length; feature += 1) {
    const offset = feature * rowCount;
    const featureBounds = bounds[feature];
    const boundCount = featureBounds.length;
    // Most columns repeat one value (a counter's zero) row after row: skip the search then.
    let lastValue = 0;
    let lastBin = binOf(featureBounds, 0);
    for (let index = offset; index < offset + rowCount; index += 1) {
      const value = values[index];
      if (value !== lastValue) {
        if (value !== value) {
          bins[index] = MISSING_BIN;
          continue;
        }
        let low = 0;
        let high = boundCount;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (value <= featureBounds[middle]) high = middle;
          else low = middle + 1;
        }
        lastValue = value;
        lastBin = low;
      }
      bins[index] = lastBin;
    }
  }
  return bins;
}
