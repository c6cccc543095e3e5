import type { FeatureMatrix } from './feature-matrix';
import { type BinUpperBounds, MISSING_BIN, binMatrix } from './quantile-bins';

/** Histogram slots per feature: the 255 value bins and the missing bin. */
export const SLOTS_PER_FEATURE = 256;

/**
 * The training rows as bins, twice over:
 *
 * - `bins`, column-major bytes, to send the rows of a node left or right on one feature and to
 *   walk trees over training and validation rows;
 * - a sparse row-major copy holding, for each row, only the features whose bin is not that
 *   feature's most frequent bin (`defaultBins`), as `feature * 256 + bin` slots. Fraud feature
 *   vectors are mostly zeros (counters that did not move, flags that did not fire), so building a
 *   node's gradient histogram from this touches a few dozen entries per row instead of every
 *   feature; the most frequent bin's sums are the node's totals minus the other bins'
 *   (`GradientHistograms.accumulate`), LightGBM's trick for sparse features.
 */
export interface BinnedDataset {
  readonly rowCount: number;
  readonly featureCount: number;
  readonly bins: Uint8Array;
  /** The number of value bins of each feature (its bounds + 1). */
  readonly valueBinCounts: Uint16Array;
  readonly defaultBins: Uint8Array;
  /** Row `r`'s entries are `rowSlots[rowStarts[r] .. rowStarts[r + 1])`. */
  readonly rowStarts: Uint32Array;
  readonly rowSlots: Uint32Array;
}

export function binDataset(matrix: FeatureMatrix, bounds: readonly BinUpperBounds[]): BinnedDataset {
  const { rowCount } = matrix;
  const featureCount = bounds.length;
  const bins = binMatrix(matrix, bounds);
  const defaultBins = new Uint8Array(featureCount);
  const rowStarts = new Uint32Array(rowCount + 1);
  const binTally = new Uint32Array(SLOTS_PER_FEATURE);
  for (let feature = 0; feature < featureCount; feature += 1) {
    const offset = feature * rowCount;
    binTally.fill(0);
    for (let row = 0; row < rowCount; row += 1) binTally[bins[offset + row]] += 1;
    let mostFrequent = 0;
    for (let bin = 1; bin < SLOTS_PER_FEATURE; bin += 1) if (binTally[bin] > binTally[mostFrequent]) mostFrequent = bin;
    defaultBins[feature] = mostFrequent;
    // Counted per row (shifted by one) so the prefix sums below give each row's start.
    for (let row = 0; row < rowCount; row += 1) if (bins[offset + row] !== mostFrequent) rowStarts[row + 1] += 1;
  }
  for (let row = 0; row < rowCount; row += 1) rowStarts[row + 1] += rowStarts[row];
  const rowSlots = new Uint32Array(rowStarts[rowCount]);
  const cursor = rowStarts.slice(0, rowCount);
  for (let feature = 0; feature < featureCount; feature += 1) {
    const offset = feature * rowCount;
    const defaultBin = defaultBins[feature];
    const slotBase = feature * SLOTS_PER_FEATURE;
    for (let row = 0; row < rowCount; row += 1) {
      const bin = bins[offset + row];
      if (bin !== defaultBin) rowSlots[cursor[row]++] = slotBase + bin;
    }
  }
  const valueBinCounts = Uint16Array.from(bounds, (featureBounds) => featureBounds.length + 1);
  return { rowCount, featureCount, bins, valueBinCounts, defaultBins, rowStarts, rowSlots };
}

/** Whether a row whose bin on a split's feature is `bin` goes to the left child. */
export function goesLeft(bin: number, thresholdBin: number, defaultLeft: boolean): boolean {
  return bin === MISSING_BIN ? defaultLeft : bin <= thresholdBin;
}
