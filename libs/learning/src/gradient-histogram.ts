import { type BinnedDataset, SLOTS_PER_FEATURE } from './binned-dataset';

/**
 * A node's gradient histogram: for each feature and bin, the sum of the gradients and of the
 * hessians of the node's rows in that bin, at `((feature * 256) + bin) * 2` and the next index.
 * Float64: the sums run over up to millions of rows, and a sibling is a parent minus a child.
 */
export type GradientHistogram = Float64Array;

export interface GradientTotals {
  gradientSum: number;
  hessianSum: number;
}

export function newHistogram(featureCount: number): GradientHistogram {
  return new Float64Array(featureCount * SLOTS_PER_FEATURE * 2);
}

/**
 * Fills `histogram` from the rows `rows[start .. end)`. Only each row's non-default entries are
 * visited; each feature's default bin gets the node's totals minus its other bins, so every
 * feature's bins sum to the node's totals exactly as if every entry had been visited.
 */
export function accumulateHistogram(
  dataset: BinnedDataset,
  rows: Uint32Array,
  start: number,
  end: number,
  gradients: Float64Array,
  hessians: Float64Array,
  histogram: GradientHistogram,
): GradientTotals {
  histogram.fill(0);
  const { rowStarts, rowSlots } = dataset;
  let gradientSum = 0;
  let hessianSum = 0;
  for (let index = start; index < end; index += 1) {
    const row = rows[index];
    const gradient = gradients[row];
    const hessian = hessians[row];
    gradientSum += gradient;
    hessianSum += hessian;
    const entriesEnd = rowStarts[row + 1];
    for (let entry = rowStarts[row]; entry < entriesEnd; entry += 1) {
      const slot = rowSlots[entry] << 1;
      histogram[slot] += gradient;
      histogram[slot + 1] += hessian;
    }
  }
  for (let feature = 0; feature < dataset.featureCount; feature += 1) {
    const base = feature * SLOTS_PER_FEATURE * 2;
    let featureGradient = 0;
    let featureHessian = 0;
    for (let slot = base; slot < base + SLOTS_PER_FEATURE * 2; slot += 2) {
      featureGradient += histogram[slot];
      featureHessian += histogram[slot + 1];
    }
    const defaultSlot = base + dataset.defaultBins[feature] * 2;
    histogram[defaultSlot] = gradientSum - featureGradient;
    histogram[defaultSlot + 1] = hessianSum - featureHessian;
  }
  return { gradientSum, hessianSum };
}

/**
 * Turns a parent's histogram into its larger child's, in place: parent − smaller child. Only the
 * smaller child is ever accumulated from rows, so each level of a tree costs at most half the
 * rows of the level above.
 */
export function subtractHistogram(parent: GradientHistogram, smallerChild: GradientHistogram): void {
  for (let slot = 0; slot < parent.length; slot += 1) parent[slot] -= smallerChild[slot];
}
