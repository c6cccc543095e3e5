/**
 * How a learned model's calibrated probability becomes its 0–100 score. The raw score is the
 * probability in percent, unrounded (`ScoringModel.scoreOfProbability`: rounded first, most
 * payments would tie); the scale then stretches it piecewise linearly so that the raw score the
 * model's training chose for REVIEW (a whole percent) lands on 50 and the one chose for PREVENT
 * on 80, the product's default thresholds (`suggestScoreScale` says how they are chosen).
 *
 * Why not the probability itself: with fraud at a few per cent, most fraud has a probability far
 * below 50 %, so thresholds of 50 and 80 on probabilities review almost nothing (the evaluation
 * in docs/model.md: recall at REVIEW 0.35 with an AUC of 0.998). On this scale "≥ 80" means "where
 * nine in ten were fraud on examples the model did not learn from" and "≥ 50" "the band that
 * catches most fraud within a bounded review volume", for every model and every retrain, and an
 * account's own thresholds move along the same scale. The probability stays available
 * (`ScoringModel.probabilityOf`), and the scale is monotone, so rankings and AUC are unchanged.
 */
export interface ScoreScale {
  /** The raw score (probability in percent, 0–100) that scores 50. */
  review: number;
  /** The raw score that scores 80; at least `review`. */
  prevent: number;
}

export const SCALED_REVIEW = 50;
export const SCALED_PREVENT = 80;

/** The scale that changes nothing: raw 50 is 50, raw 80 is 80 (models stored before scales). */
export const IDENTITY_SCALE: ScoreScale = { review: SCALED_REVIEW, prevent: SCALED_PREVENT };

/**
 * The scaled score of a raw score. Floors, not rounding, so that the knots are exact: a raw
 * score at or above `review` scores at least 50 and one below it at most 49; likewise 80 and
 * `prevent`.
 */
export function scaledScore(raw: number, scale: ScoreScale): number {
  if (raw >= 100) return 100;
  if (raw >= scale.prevent) return SCALED_PREVENT + Math.floor(((100 - SCALED_PREVENT) * (raw - scale.prevent)) / (100 - scale.prevent));
  if (raw >= scale.review) return SCALED_REVIEW + Math.floor(((SCALED_PREVENT - SCALED_REVIEW) * (raw - scale.review)) / (scale.prevent - scale.review));
  return Math.max(0, Math.floor((SCALED_REVIEW * raw) / scale.review));
}

/** True for a well-formed scale: integers with 1 ≤ review ≤ prevent ≤ 100. */
export function isScoreScale(value: unknown): value is ScoreScale {
  if (typeof value !== 'object' || value === null) return false;
  const { review, prevent } = value as Record<string, unknown>;
  return Number.isInteger(review) && Number.isInteger(prevent) && (review as number) >= 1 && (review as number) <= (prevent as number) && (prevent as number) <= 100;
}

/**
 * The scaled score of a raw score without the floors of `scaledScore`: the continuous line the
 * score steps along. An explanation measures how far each contribution moved the score on it,
 * so that a contribution too small to move the floored score still shows its direction.
 */
export function continuousScaledScore(raw: number, scale: ScoreScale): number {
  if (raw >= 100) return 100;
  if (raw >= scale.prevent) return SCALED_PREVENT + ((100 - SCALED_PREVENT) * (raw - scale.prevent)) / (100 - scale.prevent);
  if (raw >= scale.review) return SCALED_REVIEW + ((SCALED_PREVENT - SCALED_REVIEW) * (raw - scale.review)) / (scale.prevent - scale.review);
  return Math.max(0, (SCALED_REVIEW * raw) / scale.review);
}
