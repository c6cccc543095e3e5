import { type Calibration, calibratedProbability } from './calibration';
import { type FeatureColumn, type FeatureRecord, featureVector } from './feature-matrix';
import type { MarginPredictor } from './margin-predictor';
import { IDENTITY_SCALE, type ScoreScale, scaledScore } from './score-scale';

/** One feature's part in a prediction. */
export interface FeatureContribution {
  feature: string;
  /** The value the model read (NaN shown as null: missing). */
  value: number | null;
  /** Its share of the margin, in log-odds: positive raised the score, negative lowered it. */
  contribution: number;
}

export interface ScoredExplanation {
  /** The model's mean margin over its training rows, where every explanation starts. */
  expectedValue: number;
  /** expectedValue + the sum of every feature's contribution. */
  margin: number;
  probability: number;
  score: number;
  /** The largest contributions by size, largest first; features that contributed nothing are left out. */
  contributions: FeatureContribution[];
}

/**
 * A trained predictor with what it reads (the numeric features, with their types), its
 * calibration and its score scale: the unit that is stored, activated and asked for scores.
 */
export class ScoringModel {
  readonly featureNames: readonly string[];

  constructor(
    readonly features: readonly FeatureColumn[],
    readonly predictor: MarginPredictor,
    readonly calibration: Calibration | null,
    readonly scale: ScoreScale = IDENTITY_SCALE,
  ) {
    this.featureNames = features.map((column) => column.name);
    if (this.featureNames.join('\n') !== predictor.featureNames.join('\n')) throw new RangeError('the features differ from the ones the predictor was trained on');
  }

  /** A record's input vector. Records are complete vectors: see `FeatureMatrixOptions.completeRow`. */
  vectorOf(record: FeatureRecord, into?: Float32Array): Float32Array {
    return featureVector(this.featureNames, record, into);
  }

  probabilityOf(vector: ArrayLike<number>): number {
    return calibratedProbability(this.calibration, this.predictor.predictMargin(vector));
  }

  /** The 0–100 score: the calibrated probability in percent, on the model's scale. */
  scoreOf(vector: ArrayLike<number>): number {
    return this.scoreOfProbability(this.probabilityOf(vector));
  }

  /**
   * The probability in percent, unrounded, on the model's scale. Rounding it first (to the
   * integer `riskScore`) would tie most payments: with REVIEW at a probability of 2 %, every
   * payment under 0.5 % would score 0 and every one under 1.5 % 25, and a ranking of payments by
   * score would lose what the model knows (on the card-payment evaluation, ROC AUC 0.879 against
   * 0.892 for the same model's margins; unrounded: 0.893).
   */
  scoreOfProbability(probability: number): number {
    return scaledScore(probability > 0 ? Math.min(1, probability) * 100 : 0, this.scale);
  }

  /**
   * The score and the `limit` features that moved it most. Contributions are in log-odds, where
   * they add up; the calibration maps their sum to the probability.
   */
  explain(vector: ArrayLike<number>, limit = 10): ScoredExplanation {
    const { expectedValue, contributions } = this.predictor.explain(vector);
    let margin = expectedValue;
    const parts: FeatureContribution[] = [];
    for (let feature = 0; feature < contributions.length; feature += 1) {
      margin += contributions[feature];
      if (contributions[feature] === 0) continue;
      const value = vector[feature];
      parts.push({ feature: this.featureNames[feature], value: value === value ? value : null, contribution: contributions[feature] });
    }
    parts.sort((left, right) => Math.abs(right.contribution) - Math.abs(left.contribution));
    const probability = calibratedProbability(this.calibration, margin);
    return { expectedValue, margin, probability, score: this.scoreOfProbability(probability), contributions: parts.slice(0, limit) };
  }
}
