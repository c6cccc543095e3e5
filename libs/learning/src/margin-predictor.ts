import { type FeatureMatrix, matrixRow } from './feature-matrix';

/**
 * A prediction taken apart: `expectedValue + Σ contributions` is the predictor's margin (its
 * log-odds before calibration), each contribution being one feature's share of the difference
 * from the expected value, in `featureNames`' order.
 */
export interface MarginExplanation {
  expectedValue: number;
  contributions: Float64Array;
}

/** A trained binary classifier that outputs log-odds and can explain them. */
export interface MarginPredictor {
  readonly kind: 'gradient-boosted-trees' | 'logistic-regression';
  /** The input vector's features, in order. */
  readonly featureNames: readonly string[];
  /** The log-odds of a positive for one vector (NaN for missing). */
  predictMargin(vector: ArrayLike<number>): number;
  /** The log-odds of every row of a matrix with the same features. */
  predictMargins(matrix: FeatureMatrix): Float64Array;
  explain(vector: ArrayLike<number>): MarginExplanation;
}

export function sigmoid(margin: number): number {
  return 1 / (1 + Math.exp(-margin));
}

/** Log-odds of a probability, kept finite at 0 and 1. */
export function logit(probability: number): number {
  const clamped = Math.min(1 - 1e-15, Math.max(1e-15, probability));
  return Math.log(clamped / (1 - clamped));
}

/** `predictor.predictMargin` of every row of `matrix`, one reused row vector for all. */
export function marginsOfRows(predictor: Pick<MarginPredictor, 'predictMargin'>, matrix: FeatureMatrix): Float64Array {
  const margins = new Float64Array(matrix.rowCount);
  const vector = new Float32Array(matrix.featureNames.length);
  for (let row = 0; row < matrix.rowCount; row += 1) margins[row] = predictor.predictMargin(matrixRow(matrix, row, vector));
  return margins;
}
