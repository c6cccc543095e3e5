import { ApiProperty } from '@nestjs/swagger';
import { RULE_ACTIONS as ACTIONS, type RuleAction as Action } from '../rules/rule-vocabulary';

/** One feature's part in the model's score. */
export class ExplanationContributionDto {
  @ApiProperty({ example: 'emailDisposable', description: 'The feature (docs/features.md).' }) feature!: string;
  @ApiProperty({ example: true, nullable: true, oneOf: [{ type: 'number' }, { type: 'boolean' }, { type: 'string' }], description: 'Its value at this checkpoint; null when it could not be computed.' })
  value!: number | boolean | string | null;
  @ApiProperty({ example: '= true', description: 'The condition of the model that matched (as docs/scoring.md lists it).' }) condition!: string;
  @ApiProperty({ example: 35, description: 'Points it added (positive) or took off (negative).' }) contribution!: number;
}

/** A rule that triggered, as explanations list it. */
export class ExplanationRuleDto {
  @ApiProperty({ type: 'integer', example: 3 }) ruleId!: number;
  @ApiProperty({ type: 'integer', example: 1 }) ruleVersion!: number;
  @ApiProperty({ example: 'Large first payout' }) name!: string;
  @ApiProperty({ enum: ['active', 'passive'], example: 'active' }) state!: 'active' | 'passive';
  @ApiProperty({ enum: ACTIONS, example: 'REVIEW' }) action!: Action;
}

/**
 * Why a checkpoint answered as it did (decisions §12): the model's score with the features that
 * raised and lowered it most, the rules that triggered, and the source that decided.
 */
export class DecisionExplanationDto {
  @ApiProperty({ example: 'ringfence-additive-1', description: 'The model (and version) that scored.' }) modelVersion!: string;
  @ApiProperty({ type: 'integer', example: 57, description: "The model's score, before a label or chargeback moved the answer's score." }) modelScore!: number;
  @ApiProperty({ type: 'integer', example: 20, description: 'Where every score starts; the contributions add to it (capped to 0–100).' }) baseScore!: number;
  @ApiProperty({ type: () => [ExplanationContributionDto], description: 'The features that raised the score most, largest first (at most 5).' }) raised!: ExplanationContributionDto[];
  @ApiProperty({ type: () => [ExplanationContributionDto], description: 'The features that lowered the score most, largest first (at most 5).' }) lowered!: ExplanationContributionDto[];
  @ApiProperty({ type: () => [ExplanationRuleDto], description: 'The rules that triggered.' }) rules!: ExplanationRuleDto[];
  @ApiProperty({ example: 'model score 57', description: 'Why the source that decided did, in a sentence.' }) reason!: string;
}
