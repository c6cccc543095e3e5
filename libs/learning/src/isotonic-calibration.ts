/**
 * Isotonic calibration: the non-decreasing step function of the margin that best fits the
 * held-out labels in squared error, found by pool-adjacent-violators, and read with linear
 * interpolation between its points (as scikit-learn's IsotonicRegression). It assumes nothing
 * about the margin's shape, so it needs a few thousand held-out examples to be smooth; Platt
 * scaling is the choice below that.
 */
export interface IsotonicCalibration {
  kind: 'isotonic';
  /** Increasing margins... */
  margins: number[];
  /** ...and the calibrated probability at each (non-decreasing). */
  probabilities: number[];
}

/** Fits on held-out margins (any increasing function of the score works) and their labels. */
export function fitIsotonicCalibration(margins: ArrayLike<number>, labels: ArrayLike<number>): IsotonicCalibration {
  if (margins.length === 0 || margins.length !== labels.length) throw new RangeError(`${labels.length} labels for ${margins.length} margins`);
  const order = Array.from({ length: margins.length }, (_, index) => index).sort((left, right) => margins[left] - margins[right]);
  // Blocks of the fit: equal margins start in one block (a function cannot split them).
  const blockSum: number[] = [];
  const blockWeight: number[] = [];
  const blockLow: number[] = [];
  const blockHigh: number[] = [];
  for (const index of order) {
    const margin = margins[index];
    const top = blockSum.length - 1;
    if (top >= 0 && blockHigh[top] === margin) {
      blockSum[top] += labels[index];
      blockWeight[top] += 1;
    } else {
      blockSum.push(labels[index]);
      blockWeight.push(1);
      blockLow.push(margin);
      blockHigh.push(margin);
    }
    // Pool while the last block's mean is below the one before it.
    while (blockSum.length > 1) {
      const last = blockSum.length - 1;
      if (blockSum[last - 1] * blockWeight[last] <= blockSum[last] * blockWeight[last - 1]) break;
      blockSum[last - 1] += blockSum[last];
      blockWeight[last - 1] += blockWeight[last];
      blockHigh[last - 1] = blockHigh[last];
      blockSum.pop();
      blockWeight.pop();
      blockLow.pop();
      blockHigh.pop();
    }
  }
  const calibration: IsotonicCalibration = { kind: 'isotonic', margins: [], probabilities: [] };
  for (let block = 0; block < blockSum.length; block += 1) {
    const probability = blockSum[block] / blockWeight[block];
    calibration.margins.push(blockLow[block]);
    calibration.probabilities.push(probability);
    if (blockHigh[block] !== blockLow[block]) {
      calibration.margins.push(blockHigh[block]);
      calibration.probabilities.push(probability);
    }
  }
  return calibration;
}

/** The calibrated probability at `margin`: interpolated, and flat beyond the fitted range. */
export function isotonicProbability(calibration: IsotonicCalibration, margin: number): number {
  const { margins, probabilities } = calibration;
  const last = margins.length - 1;
  if (!(margin > margins[0])) return probabilities[0];
  if (margin >= margins[last]) return probabilities[last];
  let low = 0;
  let high = last;
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if (margins[middle] <= margin) low = middle;
    else high = middle;
  }
  const share = (margin - margins[low]) / (margins[high] - margins[low]);
  return probabilities[low] + share * (probabilities[high] - probabilities[low]);
}
