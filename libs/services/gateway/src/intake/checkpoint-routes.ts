import { EventTopics, RpcTopics, redeemingCustomerId } from '@ringfence/contracts';
import { prefixedId } from '@ringfence/platform';
import type { CheckpointRoute } from './event-intake.service';

const noRules = { triggered: [] };

/**
 * The gateway's side of each checkpoint: where the payload is ingested, which request topic
 * scores it, where decisions go, and the answer for a customer over its limit (decisions §1).
 */
export const CheckpointRoutes = {
  customer: {
    checkpoint: 'customer',
    ingestTopic: EventTopics.customerUpdated,
    rpcTopic: RpcTopics.customerCheckpoint,
    decisionTopic: EventTopics.customerScored,
    rateLimitedReply: (payload, decision) => ({ ...decision, customerId: payload.customer.customerId, scoreId: prefixedId('scr'), warnings: [] }),
  } satisfies CheckpointRoute<typeof EventTopics.customerUpdated, typeof RpcTopics.customerCheckpoint, typeof EventTopics.customerScored>,
  voucherRedemption: {
    checkpoint: 'voucherRedemption',
    ingestTopic: EventTopics.voucherRedemptionSubmitted,
    rpcTopic: RpcTopics.voucherRedemptionCheckpoint,
    decisionTopic: EventTopics.voucherRedemptionScored,
    rateLimitedReply: (payload, decision) => ({
      ...decision,
      customerId: redeemingCustomerId(payload),
      scoreId: prefixedId('scr'),
      warnings: [],
    }),
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
    rateLimitedReply: (payload, { action, source }) => ({
      action,
      source,
      ...(payload.customer ? { customerId: payload.customer.customerId } : {}),
      ...(payload.supplier ? { supplierId: payload.supplier.supplierId } : {}),
      registrationId: payload.registrationId,
      rules: noRules,
    }),
  } satisfies CheckpointRoute<typeof EventTopics.registrationSubmitted, typeof RpcTopics.registrationCheckpoint, typeof EventTopics.registrationScored>,
  payout: {
    checkpoint: 'payout',
    ingestTopic: EventTopics.payoutRequested,
    rpcTopic: RpcTopics.payoutCheckpoint,
    decisionTopic: EventTopics.payoutScored,
    rateLimitedReply: (payload, { action, source }) => ({
      supplierId: payload.supplier.supplierId,
      payoutId: payload.payout.payoutId,
      action,
      source,
      rules: noRules,
    }),
  } satisfies CheckpointRoute<typeof EventTopics.payoutRequested, typeof RpcTopics.payoutCheckpoint, typeof EventTopics.payoutScored>,
  refund: {
    checkpoint: 'refund',
    ingestTopic: EventTopics.refundRequested,
    rpcTopic: RpcTopics.refundCheckpoint,
    decisionTopic: EventTopics.refundScored,
    rateLimitedReply: (payload, { action, source }) => ({ customerId: payload.customer.customerId, action, source, rules: noRules }),
  } satisfies CheckpointRoute<typeof EventTopics.refundRequested, typeof RpcTopics.refundCheckpoint, typeof EventTopics.refundScored>,
  transaction: {
    checkpoint: 'transaction',
    ingestTopic: EventTopics.transactionUpdated,
    rpcTopic: RpcTopics.transactionCheckpoint,
    decisionTopic: EventTopics.transactionScored,
    rateLimitedReply: (payload, { action, score }) => ({
      action,
      rules: noRules,
      score,
      scoreId: prefixedId('scr'),
      transactionId: payload.transaction.transactionId,
    }),
  } satisfies CheckpointRoute<typeof EventTopics.transactionUpdated, typeof RpcTopics.transactionCheckpoint, typeof EventTopics.transactionScored>,
};
