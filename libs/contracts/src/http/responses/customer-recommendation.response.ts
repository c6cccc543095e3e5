import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RulesBlockDto } from './rules.response';
import { CHALLENGE_PREFERENCES, OPTIMISATION_SOURCES, SCA_EXEMPTIONS } from '../rules/rule-vocabulary';
import { DecisionExplanationDto } from './explanation.response';

/** The actions from the weakest to the strictest. */
export const ACTIONS = ['ALLOW', 'REVIEW', 'PREVENT'] as const;
export type Action = (typeof ACTIONS)[number];

/** The stricter of two actions (PREVENT over REVIEW over ALLOW). */
export function stricterAction(a: Action, b: Action): Action {
  return ACTIONS.indexOf(b) > ACTIONS.indexOf(a) ? b : a;
}

/** ADR-0001: which part of the service decided. */
export const DECISION_SOURCES = [
  'MANUAL_REVIEW',
  'CHARGEBACK',
  'RULE',
  'LOOKUP',
  'NETWORK',
  'RATE_LIMIT',
  'RINGFENCE',
] as const;
export type DecisionSource = (typeof DECISION_SOURCES)[number];

/** The OpenAPI description of every checkpoint answer's `source`. */
export const DECISION_SOURCE_DESCRIPTION =
  'Which part of the service decided: the first that applies of MANUAL_REVIEW (a label of the subject), CHARGEBACK, RULE, LOOKUP, NETWORK and RINGFENCE (the model), in that order; ' +
  'RATE_LIMIT when the customer is over its limit, with the stricter of its last answered action and REVIEW (a limit never answers a fresh ALLOW).';

export class WarningDto {
  @ApiProperty({ example: 'customer-not-found' }) class!: string;
  @ApiProperty({ example: '/docs/api#warning-customer-not-found', description: 'Where the warning class is explained: a path of this server.' }) help!: string;
  @ApiProperty({ example: 'No customer with id cus-1 is known.' }) msg!: string;
}

/** One item of `transactionOptimisation.rules.triggered[]` (specification §2.2). */
export class TransactionOptimisationRuleDto {
  @ApiProperty({ type: 'integer', example: 17 }) ruleId!: number;
  @ApiProperty({ type: 'integer', example: 2 }) ruleVersion!: number;
  @ApiProperty({ enum: ['AUTHENTICATE'], example: 'AUTHENTICATE', description: 'What the rule asks for the transaction.' }) action!: string;
  @ApiPropertyOptional({ enum: SCA_EXEMPTIONS, example: 'TRANSACTION_RISK_ANALYSIS', description: 'Strong-customer-authentication exemption the rule asks for.' })
  exemption?: string;
  @ApiPropertyOptional({ enum: CHALLENGE_PREFERENCES, example: 'NO_CHALLENGE_REQUESTED', description: '3-D Secure challenge preference the rule asks for.' })
  threeDSChallengePreference?: string;
  @ApiProperty({ example: true, description: 'Whether the rule\'s condition matched.' }) triggered!: boolean;
  @ApiProperty({ enum: ['active', 'passive'], example: 'active' }) state!: string;
}

/** `transactionOptimisation.rules`: the rules that shaped the optimisation. */
export class TransactionOptimisationRulesDto {
  @ApiProperty({ type: () => [TransactionOptimisationRuleDto] }) triggered!: TransactionOptimisationRuleDto[];
}

/**
 * `data.transactionOptimisation` (specification §2.2): how to run the customer's next payment
 * (authenticate, exempt, challenge preference). Present only when the account's rules produce one.
 */
export class TransactionOptimisationDto {
  @ApiProperty({ example: 'tx-0001', description: 'The transaction the advice is for.' }) transactionId!: string;
  @ApiProperty({ enum: ['AUTHENTICATE'], example: 'AUTHENTICATE', description: 'Run 3-D Secure (with the exemption and preference below).' }) action!: string;
  @ApiPropertyOptional({ enum: SCA_EXEMPTIONS, example: 'TRANSACTION_RISK_ANALYSIS', description: 'Strong-customer-authentication exemption to request; absent when none applies.' }) exemption?: string;
  @ApiPropertyOptional({ enum: CHALLENGE_PREFERENCES, example: 'NO_CHALLENGE_REQUESTED', description: '3-D Secure challenge preference to send.' }) threeDSChallengePreference?: string;
  @ApiProperty({ enum: OPTIMISATION_SOURCES, example: 'CLIENT_RULE', description: 'What produced the advice: `CLIENT_RULE` (an active rule of the merchant) or `RINGFENCE` (the account\'s 3-D Secure policy).' }) actionSource!: string;
  @ApiProperty({ type: () => TransactionOptimisationRulesDto }) rules!: TransactionOptimisationRulesDto;
}

/** `data` of the customer-type responses (customer, voucher redemption). */
export class CustomerRecommendationDto {
  @ApiProperty({ enum: ACTIONS, example: 'ALLOW' }) action!: Action;
  @ApiProperty({ example: 12, description: 'Risk score, 0 (safe) to 100 (fraud).' }) score!: number;
  @ApiProperty({ enum: DECISION_SOURCES, example: 'RINGFENCE', description: DECISION_SOURCE_DESCRIPTION }) source!: DecisionSource;
  @ApiProperty({ example: 'cus-61213' }) customerId!: string;
  @ApiProperty({ example: 'scr_01J...' }) scoreId!: string;
  @ApiPropertyOptional({ type: () => TransactionOptimisationDto }) transactionOptimisation?: TransactionOptimisationDto;
  @ApiPropertyOptional({ type: () => [WarningDto] }) warnings?: WarningDto[];
  @ApiPropertyOptional({ type: () => DecisionExplanationDto, description: 'Why: present when the request asked `?explain=true` (also on the decision event and at `GET /v2/decisions/{scoreId}`).' })
  explanation?: DecisionExplanationDto;
  @ApiPropertyOptional({
    type: () => RulesBlockDto,
    description: 'The account\'s rules that triggered at this checkpoint (ADR-0011). An extension: the specification lists the rules block on the transaction, payout, registration and refund answers only.',
  })
  rules?: RulesBlockDto;
}

export class CustomerRecommendationResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => CustomerRecommendationDto }) data!: CustomerRecommendationDto;
}

/** The acknowledgement of ingest-only endpoints. */
export class AcknowledgementResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
}

/** ADR-0001: every non-2xx body. */
export class ErrorEnvelopeDto {
  @ApiProperty({ example: 400 }) status!: number;
  @ApiProperty({ example: 'customer.customerId: must be a string' }) message!: string;
  @ApiProperty({ example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ example: '0f9d7a3c-5b1e-4a57-9a0e-2f3c1c9e8b11', description: 'Unique per request; also in the server log.' })
  traceId!: string;
}
