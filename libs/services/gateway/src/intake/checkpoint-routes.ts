import { CHECKPOINT_ANSWERS, type CheckpointRouteName, type EventTopics, PAYLOAD_ROUTES, type RpcTopics } from '@ringfence/contracts';
import { prefixedId } from '@ringfence/platform';
import type { CheckpointRoute } from './event-intake.service';

/** A checkpoint's topics, from the contracts' payload table. */
function fromPayloadTable<K extends CheckpointRouteName>(name: K): Pick<(typeof PAYLOAD_ROUTES)[K], 'checkpoint' | 'ingestTopic' | 'rpcTopic' | 'decisionTopic'> {
  const { checkpoint, ingestTopic, rpcTopic, decisionTopic } = PAYLOAD_ROUTES[name];
  return { checkpoint, ingestTopic, rpcTopic, decisionTopic };
}

/**
 * The gateway's side of each checkpoint: its row of the payload table (where the payload is
 * ingested, which request topic scores it, where decisions go) and its answer without a score
 * (rate limited or degraded), shaped by the contracts' `CHECKPOINT_ANSWERS` as scoring's is.
 */
export const CheckpointRoutes = {
  customer: {
    ...fromPayloadTable('customer'),
    fallbackReply: (payload, decision) => CHECKPOINT_ANSWERS.customer.unscored(payload, decision, prefixedId('scr')),
  } satisfies CheckpointRoute<typeof EventTopics.customerUpdated, typeof RpcTopics.customerCheckpoint, typeof EventTopics.customerScored>,
  voucherRedemption: {
    ...fromPayloadTable('voucherRedemption'),
    fallbackReply: (payload, decision) => CHECKPOINT_ANSWERS.voucherRedemption.unscored(payload, decision, prefixedId('scr')),
  } satisfies CheckpointRoute<
    typeof EventTopics.voucherRedemptionSubmitted,
    typeof RpcTopics.voucherRedemptionCheckpoint,
    typeof EventTopics.voucherRedemptionScored
  >,
  registration: {
    ...fromPayloadTable('registration'),
    fallbackReply: (payload, decision) => CHECKPOINT_ANSWERS.registration.unscored(payload, decision, prefixedId('scr')),
  } satisfies CheckpointRoute<typeof EventTopics.registrationSubmitted, typeof RpcTopics.registrationCheckpoint, typeof EventTopics.registrationScored>,
  payout: {
    ...fromPayloadTable('payout'),
    fallbackReply: (payload, decision) => CHECKPOINT_ANSWERS.payout.unscored(payload, decision, prefixedId('scr')),
  } satisfies CheckpointRoute<typeof EventTopics.payoutRequested, typeof RpcTopics.payoutCheckpoint, typeof EventTopics.payoutScored>,
  refund: {
    ...fromPayloadTable('refund'),
    fallbackReply: (payload, decision) => CHECKPOINT_ANSWERS.refund.unscored(payload, decision, prefixedId('scr')),
  } satisfies CheckpointRoute<typeof EventTopics.refundRequested, typeof RpcTopics.refundCheckpoint, typeof EventTopics.refundScored>,
  transaction: {
    ...fromPayloadTable('transaction'),
    fallbackReply: (payload, decision) => CHECKPOINT_ANSWERS.transaction.unscored(payload, decision, prefixedId('scr')),
  } satisfies CheckpointRoute<typeof EventTopics.transactionUpdated, typeof RpcTopics.transactionCheckpoint, typeof EventTopics.transactionScored>,
};
