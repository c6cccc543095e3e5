import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CHECKPOINTS, RULE_CHECKPOINTS, type RuleCheckpoint } from '../checkpoints/checkpoint-names';
import { TriggeredRuleDto } from '../http/responses/rules.response';
import { RuleTransactionOptimisationDto } from '../http/rules/rule.request.dto';
import { DecisionExplanationDto } from '../http/responses/explanation.response';
import { CustomerRecommendationDto } from '../http/responses/customer-recommendation.response';
import { PayoutRecommendationDto } from '../http/responses/payout.response';
import { PspTransactionRecommendationDto } from '../http/responses/psp-transaction.response';
import { RefundRecommendationDto } from '../http/responses/refund.response';
import type { RegistrationRecommendationDto } from '../http/responses/registration.response';
import type { Checkpoint } from './payload-routes';

/*
 * Checkpoint requests (`ringfence.rpc.scoring.<checkpoint>-checkpoint.v1`) carry the same
 * payload as the checkpoint's ingest event. Their replies are the decision event: the gateway
 * publishes it on the decision topic and answers with its `recommendation` (the `data` of the
 * HTTP answer), so the feed holds exactly the answers given, each once.
 */


/** The registration reply: the gateway adds `credentialStatus`, which it computed itself. */
export type RegistrationCheckpointReply = Omit<RegistrationRecommendationDto, 'credentialStatus'>;
export type PayoutCheckpointReply = PayoutRecommendationDto;
export type RefundCheckpointReply = RefundRecommendationDto;
export type VoucherRedemptionCheckpointReply = CustomerRecommendationDto;
export type TransactionCheckpointReply = PspTransactionRecommendationDto;

/** The customer or supplier a checkpoint scored. */
export class DecisionSubjectDto {
  @ApiProperty({ enum: ['customer', 'supplier'], example: 'customer' }) kind!: 'customer' | 'supplier';
  @ApiProperty({ example: 'cus-1' }) id!: string;
}

/** A rule that could not be evaluated at a checkpoint (not triggered; the request did not fail). */
export class FailedRuleDto {
  @ApiProperty({ type: 'integer', example: 4 }) ruleId!: number;
  @ApiProperty({ type: 'integer', example: 2 }) ruleVersion!: number;
  @ApiProperty({ example: 'No such key: telephone' }) error!: string;
  @ApiProperty({
    enum: ['error', 'budget', 'notEvaluated'],
    example: 'error',
    description: '`error`: the expression threw; `budget`: it ran past its time budget (`RULE_BUDGET_MS`) twice in a row, the second evaluation confirming the first (docs/rules.md); `notEvaluated`: the checkpoint\'s rules had spent their budget (`CHECKPOINT_RULES_BUDGET_MS`) before it.',
  })
  cause!: 'error' | 'budget' | 'notEvaluated';
}

/** A triggered rule on the decision event: always with its name, and a pspBeforeAuth rule's 3-D Secure advice. */
export class DecisionTriggeredRuleDto extends TriggeredRuleDto {
  @ApiPropertyOptional({ type: () => RuleTransactionOptimisationDto }) transactionOptimisation?: RuleTransactionOptimisationDto;
}

/** The rules of a decision event. */
export class DecisionRulesDto {
  @ApiProperty({ type: 'integer', example: 3, description: 'Rules evaluated (every rule of the checkpoint that is not disabled).' }) evaluated!: number;
  @ApiProperty({ type: () => [DecisionTriggeredRuleDto] }) triggered!: DecisionTriggeredRuleDto[];
  @ApiProperty({ type: () => [FailedRuleDto] }) failed!: FailedRuleDto[];
}

/**
 * `ringfence.decision.<checkpoint>.scored.v1`: every recommendation given, with what it was
 * made from. With the ingest topics this is the warehouse feed.
 */
export class CheckpointScoredEvent<TRecommendation = object> {
  @ApiProperty({ enum: CHECKPOINTS, example: 'customer' }) checkpoint!: Checkpoint;
  @ApiProperty({ type: 'integer', example: 1763800000000, description: 'The time of the payload that was scored, epoch milliseconds.' })
  timestamp!: number;
  /** The answer given (the `data` of the HTTP answer). */
  recommendation!: TRecommendation;
  @ApiProperty({
    type: 'object',
    // null: a feature that could not be computed (no registration time, no voucher network, …).
    additionalProperties: { oneOf: [{ type: 'number' }, { type: 'boolean' }, { type: 'string' }], nullable: true },
    example: { emailVerified: true, accountAgeHours: 4210.5, modelScore: 10, knownFraudIndicators: 0 },
    description: 'The features and signals the decision was made from, for analysts: each a number, boolean, string or null (not computed). A feature of the checkpoint (docs/features.md) that is not listed was 0 (a number) or false (a boolean): zeros are left out, being most of the vector. Empty for rate-limited answers.',
  })
  features!: Record<string, number | boolean | string | null>;

  @ApiPropertyOptional({ example: 'scr_2Vb8xKp', description: 'The decision\'s id (`data.scoreId` where the answer carries one): `GET /v2/decisions/:scoreId` reads it back. Absent on rate-limited and degraded answers.' })
  scoreId?: string;

  @ApiPropertyOptional({ enum: RULE_CHECKPOINTS, example: 'customer', description: 'The checkpoint as rules name it (a PSP transaction\'s is `pspBeforeAuth` or `pspAfterAuth`).' })
  ruleCheckpoint?: RuleCheckpoint;

  @ApiPropertyOptional({ type: () => DecisionSubjectDto, description: 'Whose checkpoint it was: the customer or supplier scored.' })
  subject?: DecisionSubjectDto;

  @ApiPropertyOptional({ type: () => DecisionRulesDto, description: 'The rules evaluated at this checkpoint: which triggered and which failed to evaluate.' })
  rules?: DecisionRulesDto;

  @ApiPropertyOptional({ type: () => DecisionExplanationDto, description: 'Why: the model\'s top contributions either way, the rules that triggered, the deciding source\'s reason.' })
  explanation?: DecisionExplanationDto;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'What the rules read (ADR-0011) besides `features` (the event\'s own): `payload` (the request as sent), `network` (null when the graph did not answer), `labels`, `lookup` and `score`. A backtest evaluates rules over exactly this and the event\'s `features`.',
  })
  context?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The other sources\' verdicts the action was decided from (labels, unforgiven chargeback, lookup, network, the model\'s score and action), so a backtest can decide again with other rules.',
  })
  signals?: Record<string, unknown>;
}


/** `ringfence.decision.customer.scored.v1` (also the schema of the voucher-redemption decisions). */
export class CustomerScoredEvent extends CheckpointScoredEvent<CustomerRecommendationDto> {
  @ApiProperty({ type: () => CustomerRecommendationDto }) declare recommendation: CustomerRecommendationDto;
}

/** `ringfence.decision.payout.scored.v1`. */
export class PayoutScoredEvent extends CheckpointScoredEvent<PayoutRecommendationDto> {
  @ApiProperty({ type: () => PayoutRecommendationDto }) declare recommendation: PayoutRecommendationDto;
}

/** `ringfence.decision.refund.scored.v1`. */
export class RefundScoredEvent extends CheckpointScoredEvent<RefundRecommendationDto> {
  @ApiProperty({ type: () => RefundRecommendationDto }) declare recommendation: RefundRecommendationDto;
}

/** `ringfence.decision.transaction.scored.v1`. */
export class TransactionScoredEvent extends CheckpointScoredEvent<PspTransactionRecommendationDto> {
  @ApiProperty({ type: () => PspTransactionRecommendationDto }) declare recommendation: PspTransactionRecommendationDto;
}

/** `ringfence.decision.registration.scored.v1`: `credentialStatus` is the gateway's, so it is not here. */
export class RegistrationScoredEvent extends CheckpointScoredEvent<RegistrationCheckpointReply> {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The registration answer\'s `data` without `credentialStatus` (action, source, customerId or supplierId, registrationId, rules).',
  })
  declare recommendation: RegistrationCheckpointReply;
}
