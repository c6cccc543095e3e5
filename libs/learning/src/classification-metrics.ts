/**
 * Metrics of scores (any increasing function of the probability) against labels (1 positive).
 * Each is NaN when it is undefined (no positives, no negatives, nothing above a threshold).
 */

/**
 * ROC AUC as the Mann–Whitney statistic: the probability that a random positive scores above a
 * random negative, ties counting one half (average ranks), which is what the area under the ROC
 * curve with ties drawn as diagonal segments equals.
 */
export function rocAuc(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const order = sortedIndices(scores);
  let positives = 0;
  let positiveRankSum = 0;
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end < order.length && scores[order[end]] === scores[order[start]]) end += 1;
    // Ranks start + 1 .. end share their average.
    const averageRank = (start + 1 + end) / 2;
    for (let index = start; index < end; index += 1) {
      if (labels[order[index]] === 1) {
        positives += 1;
        positiveRankSum += averageRank;
      }
    }
    start = end;
  }
  const negatives = order.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  return (positiveRankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/**
 * Average precision: Σ (Rₙ − Rₙ₋₁) Pₙ over the distinct scores from the highest down, the
 * precision at each threshold weighted by the recall it adds (scikit-learn's definition; no
 * interpolation). Tied scores enter together.
 */
export function averagePrecision(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const order = sortedIndices(scores).reverse();
  let totalPositives = 0;
  for (let index = 0; index < labels.length; index += 1) totalPositives += labels[index] === 1 ? 1 : 0;
  if (totalPositives === 0) return Number.NaN;
  let truePositives = 0;
  let seen = 0;
  let sum = 0;
  for (let start = 0; start < order.length; ) {
    let end = start;
    let added = 0;
    while (end < order.length && scores[order[end]] === scores[order[start]]) {
      added += labels[order[end]] === 1 ? 1 : 0;
      end += 1;
    }
    truePositives += added;
    seen = end;
    sum += (added / totalPositives) * (truePositives / seen);
    start = end;
  }
  return sum;
}

export interface ThresholdMetrics {
  /** Examples scoring at or above the threshold. */
  flagged: number;
  /** Of the flagged, the share that are positive. */
  precision: number;
  /** Of the positives, the share flagged. */
  recall: number;
}

/** Precision and recall when everything scoring at or above `threshold` is flagged. */
export function metricsAtThreshold(scores: ArrayLike<number>, labels: ArrayLike<number>, threshold: number): ThresholdMetrics {
  let flagged = 0;
  let truePositives = 0;
  let positives = 0;
  for (let index = 0; index < scores.length; index += 1) {
    const positive = labels[index] === 1;
    if (positive) positives += 1;
    if (scores[index] >= threshold) {
      flagged += 1;
      if (positive) truePositives += 1;
    }
  }
  return { flagged, precision: flagged === 0 ? Number.NaN : truePositives / flagged, recall: positives === 0 ? Number.NaN : truePositives / positives };
}

/** Mean log loss of probabilities, each clipped to [1e-15, 1 − 1e-15] so a confident miss costs 34.5, not infinity. */
export function logLoss(probabilities: ArrayLike<number>, labels: ArrayLike<number>): number {
  if (probabilities.length === 0) return Number.NaN;
  let total = 0;
  for (let index = 0; index < probabilities.length; index += 1) {
    const probability = Math.min(1 - 1e-15, Math.max(1e-15, probabilities[index]));
    total -= labels[index] === 1 ? Math.log(probability) : Math.log(1 - probability);
  }
  return total / probabilities.length;
}

function sortedIndices(scores: ArrayLike<number>): Uint32Array {
  const order = Uint32Array.from({ length: scores.length }, (_, index) => index);
  return order.sort((left, right) => scores[left] - scores[right]);
}
