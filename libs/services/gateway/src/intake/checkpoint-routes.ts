import { EventTopics, RpcTopics, type WarningDto, redeemingCustomerId } from '@ringfence/contracts';
import { prefixedId } from '@ringfence/platform';
import type { CheckpointRoute } from './event-intake.service';

const noRules = { triggered: [] };

/** Answers without a score carry `warnings` only when there is one to give (a degraded answer). */
const withWarnings = (warnings: WarningDto[]) => (warnings.length > 0 ? { warnings } : {});

/**
 * The gateway's side of each checkpoint: where the payload is ingested, which request topic
 * scores it, where decisions go, and its answer without a score (rate limited or degraded).
 */
export const CheckpointRoutes = {
  customer: {
    checkpoint: 'customer',
    ingestTopic: EventTopics.customerUpdated,
    rpcTopic: RpcTopics.customerCheckpoint,
    decisionTopic: EventTopics.customerScored,
    fallbackReply: (payload, decision) => ({ ...decision, customerId: payload.customer.customerId, scoreId: prefixedId('scr') }),
  } satisfies CheckpointRoute<typeof EventTopics.customerUpdated, typeof RpcTopics.customerCheckpoint, typeof EventTopics.customerScored>,
  voucherRedemption: {
    checkpoint: 'voucherRedemption',
    ingestTopic: EventTopics.voucherRedemptionSubmitted,
    rpcTopic: RpcTopics.voucherRedemptionCheckpoint,
    decisionTopic: EventTopics.voucherRedemptionScored,
    fallbackReply: (payload, decision) => ({ ...decision, customerId: redeemingCustomerId(payload), scoreId: prefixedId('scr') }),
  } satisfies CheckpointRoute<
    typeof EventTopics.voucherRedemptionSubmitted,
    typeof RpcTopics.voucherRedemptionCheckpoint,
    typeof EventTopics.voucherRedemptionScored
  >,
  registration: {
    checkpoint: 'registration',
    ingestTopic: EventTopics.registrationSubmitted,
    rpcTopic: RpcTopics.registrationCheckpoint,
    decisionTopic: EventTopics.registrationScored,
    fallbackReply: (payload, { action, source, warnings }) => ({
      action,
      source,
      ...(payload.customer ? { customerId: payload.customer.customerId } : {}),
      ...(payload.supplier ? { supplierId: payload.supplier.supplierId } : {}),
      registrationId: payload.registrationId,
      rules: noRules,
      ...withWarnings(warnings),
    }),
  } satisfies CheckpointRoute<typeof EventTopics.registrationSubmitted, typeof RpcTopics.registrationCheckpoint, typeof EventTopics.registrationScored>,
  payout: {
    checkpoint: 'payout',
    ingestTopic: EventTopics.payoutRequested,
    rpcTopic: RpcTopics.payoutCheckpoint,
    decisionTopic: EventTopics.payoutScored,
    fallbackReply: (payload, { action, source, warnings }) => ({
      supplierId: payload.supplier.supplierId,
      payoutId: payload.payout.payoutId,
      action,
      source,
      rules: noRules,
      ...withWarnings(warnings),
    }),
  } satisfies CheckpointRoute<typeof EventTopics.payoutRequested, typeof RpcTopics.payoutCheckpoint, typeof EventTopics.payoutScored>,
  refund: {
    checkpoint: 'refund',
    ingestTopic: EventTopics.refundRequested,
    rpcTopic: RpcTopics.refundCheckpoint,
    decisionTopic: EventTopics.refundScored,
    fallbackReply: (payload, { action, source, warnings }) => ({ customerId: payload.customer.customerId, action, source, rules: noRules, ...withWarnings(warnings) }),
  } satisfies CheckpointRoute<typeof EventTopics.refundRequested, typeof RpcTopics.refundCheckpoint, typeof EventTopics.refundScored>,
  transaction: {
    checkpoint: 'transaction',
    ingestTopic: EventTopics.transactionUpdated,
    rpcTopic: RpcTopics.transactionCheckpoint,
    decisionTopic: EventTopics.transactionScored,
    fallbackReply: (payload, { action, score, warnings }) => ({
      action,
      rules: noRules,
      score,
      scoreId: prefixedId('scr'),
      transactionId: payload.transaction.transactionId,
      ...withWarnings(warnings),
    }),
  } satisfies CheckpointRoute<typeof EventTopics.transactionUpdated, typeof RpcTopics.transactionCheckpoint, typeof EventTopics.transactionScored>,
};
