import { type VoucherRedemptionRequestDto, redeemingCustomerId } from '../voucher/voucher-redemption.request.dto';
import type { CheckpointRouteName } from '../../messages/payload-routes';
import type { Action, CustomerRecommendationDto, DecisionSource, TransactionOptimisationDto, WarningDto } from './customer-recommendation.response';
import type { PayoutRecommendationDto } from './payout.response';
import type { PspTransactionRecommendationDto } from './psp-transaction.response';
import type { RefundRecommendationDto } from './refund.response';
import type { RegistrationRecommendationDto } from './registration.response';
import type { RulesBlockDto } from './rules.response';

/** The verdict an answer states. */
export interface AnswerDecision {
  action: Action;
  source: DecisionSource;
  score: number;
}

/** What scoring's answer is built from besides its payload. */
export interface ScoredAnswerParts {
  decision: AnswerDecision;
  scoreId: string;
  /** The not-found warnings: only the customer and voucher-redemption answers list them (docs/api.md, Warnings). */
  warnings: WarningDto[];
  /** Triggered rules and, when a passive rule triggered, passiveAction (ADR-0011). */
  rules: RulesBlockDto;
  /** A PSP transaction's 3-D Secure advice at pspBeforeAuth; null elsewhere. */
  transactionOptimisation: TransactionOptimisationDto | null;
}

/** The gateway's verdict without a score: rate limited, or degraded (with its `degraded` warning). */
export interface UnscoredDecision extends AnswerDecision {
  warnings: WarningDto[];
}

/** One checkpoint's answer (the `data` of the HTTP answer, the decision event's `recommendation`), scored or not. */
export interface CheckpointAnswer<Payload, Answer> {
  /** Scoring's answer. */
  scored(payload: Payload, parts: ScoredAnswerParts): Answer;
  /** The gateway's answer when scoring was not asked (rate limited) or did not answer (degraded), under its own `scoreId`. */
  unscored(payload: Payload, decision: UnscoredDecision, scoreId: string): Answer;
}

const NO_RULES_TRIGGERED: RulesBlockDto = { triggered: [] };

/**
 * An unscored answer of a checkpoint whose answer lists no warnings: the scored shape with no
 * rules triggered, and its warning (a degraded one) last, only when there is one.
 */
function unscoredLikeScored<Payload, Answer>(scored: CheckpointAnswer<Payload, Answer>['scored']): CheckpointAnswer<Payload, Answer>['unscored'] {
  return (payload, { action, source, score, warnings }, scoreId) => ({
    ...scored(payload, { decision: { action, source, score }, scoreId, warnings, rules: NO_RULES_TRIGGERED, transactionOptimisation: null }),
    ...(warnings.length > 0 ? { warnings } : {}),
  });
}

const customer: CheckpointAnswer<{ customer: { customerId: string } }, CustomerRecommendationDto> = {
  scored: (payload, { decision, scoreId, warnings, rules }) => ({
    action: decision.action,
    score: decision.score,
    source: decision.source,
    customerId: payload.customer.customerId,
    scoreId,
    warnings,
    rules,
  }),
  // Unscored, no rule was evaluated: the rules block says so (none triggered), like every other answer's.
  unscored: (payload, { action, source, score, warnings }, scoreId) => ({
    action,
    source,
    score,
    warnings,
    customerId: payload.customer.customerId,
    scoreId,
    rules: NO_RULES_TRIGGERED,
  }),
};

const voucherRedemption: CheckpointAnswer<Pick<VoucherRedemptionRequestDto, 'customerId' | 'customer'>, CustomerRecommendationDto> = {
  scored: (payload, { decision, scoreId, warnings, rules }) => ({
    action: decision.action,
    score: decision.score,
    source: decision.source,
    customerId: redeemingCustomerId(payload),
    scoreId,
    warnings,
    rules,
  }),
  unscored: (payload, { action, source, score, warnings }, scoreId) => ({
    action,
    source,
    score,
    warnings,
    customerId: redeemingCustomerId(payload),
    scoreId,
    rules: NO_RULES_TRIGGERED,
  }),
};

type RegistrationPayload = { customer?: { customerId: string }; supplier?: { supplierId: string }; registrationId: string };
const registrationScored: CheckpointAnswer<RegistrationPayload, Omit<RegistrationRecommendationDto, 'credentialStatus'>>['scored'] = (payload, { decision, scoreId, rules }) => ({
  action: decision.action,
  source: decision.source,
  score: decision.score,
  scoreId,
  ...(payload.customer ? { customerId: payload.customer.customerId } : {}),
  ...(payload.supplier ? { supplierId: payload.supplier.supplierId } : {}),
  registrationId: payload.registrationId,
  rules,
});

type PayoutPayload = { supplier: { supplierId: string }; payout: { payoutId: string } };
const payoutScored: CheckpointAnswer<PayoutPayload, PayoutRecommendationDto>['scored'] = (payload, { decision, scoreId, rules }) => ({
  supplierId: payload.supplier.supplierId,
  payoutId: payload.payout.payoutId,
  action: decision.action,
  source: decision.source,
  score: decision.score,
  scoreId,
  rules,
});

const refundScored: CheckpointAnswer<{ customer: { customerId: string } }, RefundRecommendationDto>['scored'] = (payload, { decision, scoreId, rules }) => ({
  customerId: payload.customer.customerId,
  action: decision.action,
  source: decision.source,
  score: decision.score,
  scoreId,
  rules,
});

const transactionScored: CheckpointAnswer<{ transaction: { transactionId: string } }, PspTransactionRecommendationDto>['scored'] = (
  payload,
  { decision, scoreId, rules, transactionOptimisation },
) => ({
  action: decision.action,
  source: decision.source,
  rules,
  score: decision.score,
  scoreId,
  transactionId: payload.transaction.transactionId,
  ...(transactionOptimisation === null ? {} : { transactionOptimisation }),
});

/**
 * Each checkpoint's answer, in one place for both that build it: scoring (scored) and the
 * gateway (rate limited or degraded).
 */
export const CHECKPOINT_ANSWERS = {
  customer,
  voucherRedemption,
  registration: { scored: registrationScored, unscored: unscoredLikeScored(registrationScored) },
  payout: { scored: payoutScored, unscored: unscoredLikeScored(payoutScored) },
  refund: { scored: refundScored, unscored: unscoredLikeScored(refundScored) },
  transaction: { scored: transactionScored, unscored: unscoredLikeScored(transactionScored) },
} satisfies Record<CheckpointRouteName, CheckpointAnswer<never, object>>;
