import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MODEL_ALGORITHMS, type ModelAlgorithm } from '../models/model.response.dto';
import { RULE_ACTIONS as ACTIONS, type RuleAction as Action } from '../rules/rule-vocabulary';

/** Whose model scored: the account's own (activated), the default shipped with the product, or the built-in one. */
export const SCORING_MODEL_KINDS = ['account', 'shipped', 'built-in'] as const;
export type ScoringModelKind = (typeof SCORING_MODEL_KINDS)[number];
/** What a scoring model is: a learned algorithm, or `additive`, the built-in model's points (docs/scoring.md). */
export const SCORING_MODEL_ALGORITHMS = [...MODEL_ALGORITHMS, 'additive'] as const;
export type ScoringModelAlgorithm = ModelAlgorithm | 'additive';

/** The model that scored a decision. */
export class ExplanationModelDto {
  @ApiProperty({ example: 'mdl_4fQ2kq1ZxW0bY7nP3sTu', description: 'Its id: the `modelId` of an account\'s model (`GET /v2/models/{modelId}`), `mdl_default_…` for the shipped one, the version of the built-in one. The same as `modelVersion`.' })
  id!: string;
  @ApiProperty({ enum: SCORING_MODEL_KINDS, example: 'account', description: '`account`: the model this account trained and activated for the checkpoint; `shipped`: the default model shipped with the product (where it scored above the built-in one); `built-in`: the points of docs/scoring.md.' })
  kind!: ScoringModelKind;
  @ApiProperty({ enum: SCORING_MODEL_ALGORITHMS, example: 'gradient-boosted-trees', description: 'A learned model\'s algorithm, or `additive` for the built-in one.' })
  algorithm!: ScoringModelAlgorithm;
}

/** One feature's part in the model's score. */
export class ExplanationContributionDto {
  @ApiProperty({ example: 'emailDisposable', description: 'The feature (docs/features.md).' }) feature!: string;
  @ApiProperty({ example: true, nullable: true, oneOf: [{ type: 'number' }, { type: 'boolean' }, { type: 'string' }], description: 'Its value at this checkpoint; null when it could not be computed.' })
  value!: number | boolean | string | null;
  @ApiPropertyOptional({ example: '= true', description: 'The built-in model: its condition that matched (as docs/scoring.md lists it). Absent for a learned model.' }) condition?: string;
  @ApiProperty({
    example: 35,
    description:
      'Points of the 0–100 score it added (positive) or took off (negative): `baseScore` + every contribution (`raised`, `lowered`, `others`) = `modelScore`. The built-in model: its points (rescaled when the sum was capped to 0–100). A learned model: its share of the log-odds (exact TreeSHAP for gradient-boosted trees, coefficient × standardised value for a logistic regression) rescaled into points by the score\'s rise per unit of log-odds (docs/model.md).',
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
 * Why a checkpoint answered as it did (ADR-0012): the model's score with the features that
 * raised and lowered it most, the rules that triggered, and the source that decided.
 */
export class DecisionExplanationDto {
  @ApiProperty({ example: 'ringfence-additive-1', description: 'The model that scored: the built-in one (`ringfence-additive-1`), the learned model active for the checkpoint (its `modelId`), or the shipped default (`mdl_default_…`). `model` says which kind.' }) modelVersion!: string;
  @ApiPropertyOptional({
    type: () => ExplanationModelDto,
    description: 'The model that scored: its id, whose it is and its algorithm. Always in answers and at `GET /v2/decisions/{scoreId}`; absent only on decision events published before it existed.',
  })
  model?: ExplanationModelDto;
  @ApiProperty({ type: 'integer', example: 57, description: "The model's score, before a label or chargeback moved the answer's score." }) modelScore!: number;
  @ApiProperty({
    type: 'integer',
    example: 20,
    description: 'Where every score starts: the built-in model\'s base; a learned model\'s score of its average log-odds. The contributions, in points, add to it to make `modelScore`.',
  })
  baseScore!: number;
  @ApiProperty({ type: () => [ExplanationContributionDto], description: 'The features that raised the score most, largest first (at most 5).' }) raised!: ExplanationContributionDto[];
  @ApiProperty({ type: () => [ExplanationContributionDto], description: 'The features that lowered the score most, largest first (at most 5).' }) lowered!: ExplanationContributionDto[];
  @ApiPropertyOptional({
    example: -1.5,
    description: 'The points of every contribution not listed in `raised` or `lowered`, so that `baseScore` + Σ raised + Σ lowered + `others` = `modelScore` (within rounding). Absent only on decision events published before it existed.',
  })
  others?: number;
  @ApiProperty({ type: () => [ExplanationRuleDto], description: 'The rules that triggered.' }) rules!: ExplanationRuleDto[];
  @ApiProperty({ example: 'model score 57', description: 'Why the source that decided did, in a sentence.' }) reason!: string;
}
