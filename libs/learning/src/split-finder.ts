import { SLOTS_PER_FEATURE } from './binned-dataset';
import type { GradientHistogram, GradientTotals } from './gradient-histogram';
import { MISSING_BIN } from './quantile-bins';

export interface SplitParameters {
  /** L2 regularisation of leaf values (XGBoost's lambda). */
  lambda: number;
  /** A child needs at least this hessian sum (XGBoost's min_child_weight). */
  minChildHessian: number;
  /** A split must reduce the loss by more than this (XGBoost's gamma). */
  minSplitGain: number;
}

export interface SplitCandidate {
  feature: number;
  /** Rows with a bin up to this one go left. */
  thresholdBin: number;
  /** Where missing values go. */
  defaultLeft: boolean;
  gain: number;
}

/**
 * The best split of a node over every feature and bin boundary, by the second-order gain of
 * XGBoost: ½ (G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ)). Missing values are tried on both sides
 * and go where the gain is higher (XGBoost's sparsity-aware split); when the node has none, they
 * go to the child with the larger hessian, where an unseen missing value most likely belongs.
 */
export function findBestSplit(histogram: GradientHistogram, valueBinCounts: Uint16Array, totals: GradientTotals, parameters: SplitParameters): SplitCandidate | null {
  const { lambda, minChildHessian } = parameters;
  const { gradientSum, hessianSum } = totals;
  const parentScore = (gradientSum * gradientSum) / (hessianSum + lambda);
  let best: SplitCandidate | null = null;
  let bestGain = parameters.minSplitGain;
  for (let feature = 0; feature < valueBinCounts.length; feature += 1) {
    const base = feature * SLOTS_PER_FEATURE * 2;
    const missingGradient = histogram[base + MISSING_BIN * 2];
    const missingHessian = histogram[base + MISSING_BIN * 2 + 1];
    const hasMissing = missingHessian > 0;
    // With missing values, "every value left, missing right" is a split too (the last bin).
    const lastThreshold = hasMissing ? valueBinCounts[feature] - 1 : valueBinCounts[feature] - 2;
    let leftGradient = 0;
    let leftHessian = 0;
    for (let bin = 0; bin <= lastThreshold; bin += 1) {
      leftGradient += histogram[base + bin * 2];
      leftHessian += histogram[base + bin * 2 + 1];
      // Missing values right.
      let rightHessian = hessianSum - leftHessian;
      if (leftHessian >= minChildHessian && rightHessian >= minChildHessian) {
        const rightGradient = gradientSum - leftGradient;
        const gain = 0.5 * ((leftGradient * leftGradient) / (leftHessian + lambda) + (rightGradient * rightGradient) / (rightHessian + lambda) - parentScore);
        if (gain > bestGain) {
          bestGain = gain;
          const defaultLeft = hasMissing ? false : leftHessian > rightHessian;
          best = { feature, thresholdBin: bin, defaultLeft, gain };
        }
      }
      if (!hasMissing || bin === lastThreshold) continue;
      // Missing values left.
      const withMissingHessian = leftHessian + missingHessian;
      rightHessian = hessianSum - withMissingHessian;
      if (withMissingHessian >= minChildHessian && rightHessian >= minChildHessian) {
        const withMissingGradient = leftGradient + missingGradient;
        const rightGradient = gradientSum - withMissingGradient;
        const gain = 0.5 * ((withMissingGradient * withMissingGradient) / (withMissingHessian + lambda) + (rightGradient * rightGradient) / (rightHessian + lambda) - parentScore);
        if (gain > bestGain) {
          bestGain = gain;
          best = { feature, thresholdBin: bin, defaultLeft: true, gain };
        }
      }
    }
  }
  return best;
}
