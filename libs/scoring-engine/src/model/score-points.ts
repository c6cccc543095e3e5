import type { ScoreContribution } from './score-model';

/**
 * A score's contributions in one unit, points of the 0–100 score, so that the base score and
 * every contribution add up to the score (issue 37; docs/model.md, "Explanations").
 *
 * `total` is what every contribution of the model adds up to in its own unit, the ones left out
 * of `contributions` included: the built-in model's raw points, before the score was rounded and
 * capped to 0–100; a learned model's log-odds (its margin less its average margin), before the
 * calibration and the score scale bent them. Each contribution is rescaled by one factor,
 * `(score − base) / total`: its sign and its share of the total are kept, and the whole set adds
 * up to the score exactly. The factor is never negative, since a score only rises with its total;
 * when the total is zero the score is the base, and every contribution counts zero.
 */
export function contributionsInPoints(contributions: readonly ScoreContribution[], total: number, baseScore: number, score: number): ScoreContribution[] {
  const factor = total === 0 ? 0 : (score - baseScore) / total;
  if (factor === 1) return [...contributions];
  return contributions.map((item) => ({ ...item, contribution: factor === 0 ? 0 : item.contribution * factor }));
}

/** The points of a score no listed contribution accounts for: `score − base − Σ listed`, what the explanation's `others` holds. */
export function unlistedPoints(listed: readonly { contribution: number }[], baseScore: number, score: number): number {
  return score - baseScore - listed.reduce((sum, item) => sum + item.contribution, 0);
}
