import { type CheckpointRouteName, type EventTopics, PAYLOAD_ROUTES, type RpcTopics, type WarningDto, redeemingCustomerId } from '@ringfence/contracts';
import { prefixedId } from '@ringfence/platform';
import type { CheckpointRoute } from './event-intake.service';

const noRules = { triggered: [] };

/** Answers that do not list warnings carry them only when there is one to give (a degraded answer). */
const withWarnings = (warnings: WarningDto[]) => (warnings.length > 0 ? { warnings } : {});

/** A checkpoint's topics, from the contracts' payload table. */
function fromPayloadTable<K extends CheckpointRouteName>(name: K): Pick<(typeof PAYLOAD_ROUTES)[K], 'checkpoint' | 'ingestTopic' | 'rpcTopic' | 'decisionTopic'> {
  const { checkpoint, ingestTopic, rpcTopic, decisionTopic } = PAYLOAD_ROUTES[name];
  return { checkpoint, ingestTopic, rpcTopic, decisionTopic };
}

/**
 * The gateway's side of each checkpoint: its row of the payload table (where the payload is
 * ingested, which request topic scores it, where decisions go) and its answer without a score
 * (rate limited or degraded).
 */
export const CheckpointRoutes = {
  customer: {
    ...fromPayloadTable('customer'),
    fallbackReply: (payload, decision) => ({ ...decision, customerId: payload.customer.customerId, scoreId: prefixedId('scr') }),
  } satisfies CheckpointRoute<typeof EventTopics.customerUpdated, typeof RpcTopics.customerCheckpoint, typeof EventTopics.customerScored>,
  voucherRedemption: {
    ...fromPayloadTable('voucherRedemption'),
    fallbackReply: (payload, decision) => ({ ...decision, customerId: redeemingCustomerId(payload), scoreId: prefixedId('scr') }),
  } satisfies CheckpointRoute<
    typeof EventTopics.voucherRedemptionSubmitted,
    typeof RpcTopics.voucherRedemptionCheckpoint,
    typeof EventTopics.voucherRedemptionScored
  >,
  registration: {
    ...fromPayloadTable('registration'),
    fallbackReply: (payload, { action, source, score, warnings }) => ({
      action,
      source,
      score,
      scoreId: prefixedId('scr'),
      ...(payload.customer ? { customerId: payload.customer.customerId } : {}),
      ...(payload.supplier ? { supplierId: payload.supplier.supplierId } : {}),
      registrationId: payload.registrationId,
      rules: noRules,
      ...withWarnings(warnings),
    }),
  } satisfies CheckpointRoute<typeof EventTopics.registrationSubmitted, typeof RpcTopics.registrationCheckpoint, typeof EventTopics.registrationScored>,
  payout: {
    ...fromPayloadTable('payout'),
    fallbackReply: (payload, { action, source, score, warnings }) => ({
      supplierId: payload.supplier.supplierId,
      payoutId: payload.payout.payoutId,
      action,
      source,
      score,
      scoreId: prefixedId('scr'),
      rules: noRules,
      ...withWarnings(warnings),
    }),
  } satisfies CheckpointRoute<typeof EventTopics.payoutRequested, typeof RpcTopics.payoutCheckpoint, typeof EventTopics.payoutScored>,
  refund: {
    ...fromPayloadTable('refund'),
    fallbackReply: (payload, { action, source, score, warnings }) => ({
      customerId: payload.customer.customerId,
      action,
      source,
      score,
      scoreId: prefixedId('scr'),
      rules: noRules,
      ...withWarnings(warnings),
    }),
  } satisfies CheckpointRoute<typeof EventTopics.refundRequested, typeof RpcTopics.refundCheckpoint, typeof EventTopics.refundScored>,
  transaction: {
    ...fromPayloadTable('transaction'),
    fallbackReply: (payload, { action, source, score, warnings }) => ({
      action,
      source,
      rules: noRules,
      score,
      scoreId: prefixedId('scr'),
      transactionId: payload.transaction.transactionId,
      ...withWarnings(warnings),
    }),
  } satisfies CheckpointRoute<typeof EventTopics.transactionUpdated, typeof RpcTopics.transactionCheckpoint, typeof EventTopics.transactionScored>,
};
