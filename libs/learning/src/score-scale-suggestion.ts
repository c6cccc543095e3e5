import type { ScoreScale } from './score-scale';

/**
 * The raw scores (calibrated probability in percent) a learned model's REVIEW and PREVENT should
 * start at, chosen from examples it did not learn from; `ScoreScale` puts them at 50 and 80.
 * These targets say what each action is for:
 *
 * - PREVENT blocks only where nine flagged payments in ten are fraud: the lowest score some
 *   example has whose precision reaches `preventPrecision`, over at least `minFlagged` examples
 *   so one lucky example does not set it; 100 when none does (the model then blocks nothing
 *   but certainties; rules still may).
 * - REVIEW sends analysts `reviewRecall` of the fraud, but not more than `maxReviewShare` of all
 *   traffic (or twice the share of fraud, where fraud is that common): the highest score that
 *   still catches the recall target, raised until the share of examples at or above it is
 *   within the cap; never above PREVENT.
 */
export interface ThresholdTargets {
  preventPrecision: number;
  minFlagged: number;
  reviewRecall: number;
  maxReviewShare: number;
}

export const DEFAULT_THRESHOLD_TARGETS: ThresholdTargets = { preventPrecision: 0.9, minFlagged: 10, reviewRecall: 0.8, maxReviewShare: 0.05 };

const MAX_SCORE = 100;

/** `scores` are raw scores, integers 0–100; `labels` 1 for a positive. */
export function suggestScoreScale(scores: ArrayLike<number>, labels: ArrayLike<number>, targets: ThresholdTargets = DEFAULT_THRESHOLD_TARGETS): ScoreScale {
  if (scores.length !== labels.length) throw new RangeError(`${scores.length} scores and ${labels.length} labels`);
  // Examples and positives at each score, then cumulated from the top: atOrAbove[s].
  const flagged = new Float64Array(MAX_SCORE + 2);
  const caught = new Float64Array(MAX_SCORE + 2);
  const seen = new Uint8Array(MAX_SCORE + 1);
  for (let index = 0; index < scores.length; index += 1) {
    const score = Math.min(MAX_SCORE, Math.max(0, Math.round(scores[index])));
    flagged[score] += 1;
    seen[score] = 1;
    if (labels[index] === 1) caught[score] += 1;
  }
  for (let score = MAX_SCORE - 1; score >= 0; score -= 1) {
    flagged[score] += flagged[score + 1];
    caught[score] += caught[score + 1];
  }
  const examples = flagged[0];
  const positives = caught[0];

  let prevent = MAX_SCORE;
  // Only scores some example has: between two such scores the precision of unseen ones is
  // unknown, and blocking asks for the evidence (the higher end of the gap).
  for (let score = 1; score <= MAX_SCORE; score += 1) {
    if (seen[score] === 1 && flagged[score] >= targets.minFlagged && caught[score] / flagged[score] >= targets.preventPrecision) {
      prevent = score;
      break;
    }
  }

  let review = 1;
  for (let score = MAX_SCORE; score >= 1; score -= 1) {
    if (positives > 0 && caught[score] / positives >= targets.reviewRecall) {
      review = score;
      break;
    }
  }
  const maxShare = Math.max(targets.maxReviewShare, examples > 0 ? (2 * positives) / examples : 0);
  while (review < MAX_SCORE && examples > 0 && flagged[review] / examples > maxShare) review += 1;
  return { review: Math.min(review, prevent), prevent };
}
