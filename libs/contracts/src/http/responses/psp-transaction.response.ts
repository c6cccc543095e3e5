import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTIONS, type Action, DECISION_SOURCES, type DecisionSource, TransactionOptimisationDto, WarningDto } from './customer-recommendation.response';
import { RulesBlockDto } from './rules.response';
import { DecisionExplanationDto } from './explanation.response';

/** `data` of the PSP transaction answer: the recommendation at the requested checkpoint. */
export class PspTransactionRecommendationDto {
  @ApiProperty({ enum: ACTIONS, example: 'ALLOW' }) action!: Action;
  @ApiProperty({ enum: DECISION_SOURCES, example: 'RINGFENCE', description: 'Which part of the service decided (as on the other checkpoints; RATE_LIMIT when the customer is over its limit, with the stricter of its last answered action and REVIEW). An extension: the specification does not list it here.' }) source!: DecisionSource;
  @ApiProperty({ type: () => RulesBlockDto }) rules!: RulesBlockDto;
  @ApiProperty({ type: 'integer', example: 12, description: 'Risk score, 0 (safe) to 100 (fraud).' }) score!: number;
  @ApiProperty({ example: 'scr_01JD2XK8Q3', description: 'Identifies this scoring, e.g. when reporting on it later.' }) scoreId!: string;
  @ApiProperty({ example: 'tx-0001', description: 'The transaction scored.' }) transactionId!: string;
  @ApiPropertyOptional({
    type: () => TransactionOptimisationDto,
    description: 'At `pspBeforeAuth`, unless the action is PREVENT: how to run 3-D Secure (the exemption to ask for and the challenge preference), from an active rule that sets it (`CLIENT_RULE`) or the account\'s policy (`RINGFENCE`).',
  })
  transactionOptimisation?: TransactionOptimisationDto;
  @ApiPropertyOptional({ type: () => [WarningDto], description: 'Present when the answer is degraded (class `degraded`): the data was kept but a part missed its time budget.' })
  warnings?: WarningDto[];
  @ApiPropertyOptional({ type: () => DecisionExplanationDto, description: 'Why: present when the request asked `?explain=true` (also on the decision event and at `GET /v2/decisions/{scoreId}`).' })
  explanation?: DecisionExplanationDto;
}

/**
 * POST /psp/transaction (specification §4.3). `data` is present only when a `checkpoint` was
 * requested (ADR-0009); without one the update is only ingested.
 */
export class PspTransactionResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiPropertyOptional({ example: 'transaction update accepted', description: 'A note about the answer, when there is one.' }) message?: string;
  @ApiPropertyOptional({ type: () => PspTransactionRecommendationDto, description: 'Present only with a `checkpoint`.' })
  data?: PspTransactionRecommendationDto;
}
