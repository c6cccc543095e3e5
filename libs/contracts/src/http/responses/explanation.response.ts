import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RULE_ACTIONS as ACTIONS, type RuleAction as Action } from '../rules/rule-vocabulary';

/** One feature's part in the model's score. */
export class ExplanationContributionDto {
  @ApiProperty({ example: 'emailDisposable', description: 'The feature (docs/features.md).' }) feature!: string;
  @ApiProperty({ example: true, nullable: true, oneOf: [{ type: 'number' }, { type: 'boolean' }, { type: 'string' }], description: 'Its value at this checkpoint; null when it could not be computed.' })
  value!: number | boolean | string | null;
  @ApiPropertyOptional({ example: '= true', description: 'The built-in model: its condition that matched (as docs/scoring.md lists it). Absent for a learned model.' }) condition?: string;
  @ApiProperty({
    example: 35,
    description: 'The built-in model: the points it added (positive) or took off (negative). A learned model: its exact TreeSHAP contribution to the log-odds (docs/model.md), positive raising the score.',
  })
  contribution!: number;
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
  @ApiProperty({ example: 'ringfence-additive-1', description: 'The model that scored: the built-in one (`ringfence-additive-1`) or the learned model active for the checkpoint (its `modelId`).' }) modelVersion!: string;
  @ApiProperty({ type: 'integer', example: 57, description: "The model's score, before a label or chargeback moved the answer's score." }) modelScore!: number;
  @ApiProperty({
    type: 'integer',
    example: 20,
    description: 'Where every score starts: the built-in model\'s contributions add to it (capped to 0–100); a learned model\'s is the score of its average log-odds, which its contributions move.',
  })
  baseScore!: number;
  @ApiProperty({ type: () => [ExplanationContributionDto], description: 'The features that raised the score most, largest first (at most 5).' }) raised!: ExplanationContributionDto[];
  @ApiProperty({ type: () => [ExplanationContributionDto], description: 'The features that lowered the score most, largest first (at most 5).' }) lowered!: ExplanationContributionDto[];
  @ApiProperty({ type: () => [ExplanationRuleDto], description: 'The rules that triggered.' }) rules!: ExplanationRuleDto[];
  @ApiProperty({ example: 'model score 57', description: 'Why the source that decided did, in a sentence.' }) reason!: string;
}
