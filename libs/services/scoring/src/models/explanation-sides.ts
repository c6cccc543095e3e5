import type { ExplanationContributionDto } from '@ringfence/contracts';
import type { ScoreContribution } from '@ringfence/scoring-engine';

/** The contributions an explanation lists on each side. */
const EXPLAINED_CONTRIBUTIONS = 5;

/** ADR-0012: the largest contributions that raised the score and those that lowered it (given largest first). */
export function explanationSides(contributions: readonly ScoreContribution[]): { raised: ExplanationContributionDto[]; lowered: ExplanationContributionDto[] } {
  const pick = (keep: (contribution: number) => boolean) =>
    contributions
      .filter((item) => keep(item.contribution))
      .slice(0, EXPLAINED_CONTRIBUTIONS)
      .map(({ feature, value, condition, contribution }) => ({ feature, value, ...(condition === undefined ? {} : { condition }), contribution }));
  return { raised: pick((contribution) => contribution > 0), lowered: pick((contribution) => contribution < 0) };
}
