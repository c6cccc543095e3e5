import { CHECKPOINT_ANSWERS, type CheckpointRouteName, PAYLOAD_ROUTES, type RpcTopics, redeemingCustomerId } from '@ringfence/contracts';
import { ENTITY_FACTS_UPDATES_BY_TOPIC } from '@ringfence/entities';
import type { CheckpointDefinition, EntityReference } from './checkpoint-definition';

type Fields = Record<string, unknown>;

/** An object that carries nothing but its id only names the entity: it may be unknown. */
const onlyIdentifies = (object: object | undefined, idField: string) =>
  object !== undefined && Object.keys(object).every((key) => key === idField || (object as Fields)[key] === undefined);

/**
 * A checkpoint's row of the contracts' payload table (its topics and payload class), and the
 * entities its payload describes, as ingestion stores them.
 */
function fromPayloadTable<K extends CheckpointRouteName>(
  name: K,
): Pick<(typeof PAYLOAD_ROUTES)[K], 'checkpoint' | 'rpcTopic' | 'ingestTopic' | 'decisionTopic' | 'payloadClass'> & Pick<CheckpointDefinition, 'updates'> {
  const { checkpoint, rpcTopic, ingestTopic, decisionTopic, payloadClass } = PAYLOAD_ROUTES[name];
  return { checkpoint, rpcTopic, ingestTopic, decisionTopic, payloadClass, updates: ENTITY_FACTS_UPDATES_BY_TOPIC[ingestTopic] };
}

function reference(kind: EntityReference['kind'], id: string | undefined, when = true): EntityReference[] {
  return id && when ? [{ kind, id }] : [];
}

export const customerCheckpoint: CheckpointDefinition<typeof RpcTopics.customerCheckpoint> = {
  ...fromPayloadTable('customer'),
  subject: (payload) => ({ kind: 'customer', id: payload.customer.customerId }),
  references: (payload) => reference('customer', payload.customer.customerId, onlyIdentifies(payload.customer, 'customerId')),
  reply: CHECKPOINT_ANSWERS.customer.scored,
};

export const voucherRedemptionCheckpoint: CheckpointDefinition<typeof RpcTopics.voucherRedemptionCheckpoint> = {
  ...fromPayloadTable('voucherRedemption'),
  subject: (payload) => ({ kind: 'customer', id: redeemingCustomerId(payload) }),
  references: (payload) => [
    ...reference('customer', payload.customerId ?? payload.customer?.customerId, !payload.customer || onlyIdentifies(payload.customer, 'customerId')),
    ...reference('paymentMethod', payload.voucherRedemption.paymentMethodId),
  ],
  voucherUse: (payload) => ({ voucherCode: payload.voucherRedemption.voucherCode, voucherType: payload.voucherRedemption.voucherType }),
  reply: CHECKPOINT_ANSWERS.voucherRedemption.scored,
};

export const registrationCheckpoint: CheckpointDefinition<typeof RpcTopics.registrationCheckpoint> = {
  ...fromPayloadTable('registration'),
  // An anonymous attempt (neither customer nor supplier yet) is scored on its own signals, keyed on its id.
  subject: (payload) =>
    payload.supplier
      ? { kind: 'supplier', id: payload.supplier.supplierId }
      : { kind: 'customer', id: payload.customer?.customerId ?? `registration:${payload.registrationId}` },
  references: () => [],
  reply: CHECKPOINT_ANSWERS.registration.scored,
};

export const payoutCheckpoint: CheckpointDefinition<typeof RpcTopics.payoutCheckpoint> = {
  ...fromPayloadTable('payout'),
  subject: (payload) => ({ kind: 'supplier', id: payload.supplier.supplierId }),
  references: (payload) => reference('supplier', payload.supplier.supplierId, onlyIdentifies(payload.supplier, 'supplierId')),
  reply: CHECKPOINT_ANSWERS.payout.scored,
};

export const refundCheckpoint: CheckpointDefinition<typeof RpcTopics.refundCheckpoint> = {
  ...fromPayloadTable('refund'),
  subject: (payload) => ({ kind: 'customer', id: payload.customer.customerId }),
  references: (payload) => [
    ...reference('customer', payload.customer.customerId, onlyIdentifies(payload.customer, 'customerId')),
    ...reference('order', payload.order.orderId, onlyIdentifies(payload.order, 'orderId')),
  ],
  // A refund abuser's refunds are prevented; NOT_REFUND_ABUSE allows them (the most severe label wins).
  customerLabelCategories: ['REFUND_ABUSE'],
  reply: CHECKPOINT_ANSWERS.refund.scored,
};

export const transactionCheckpoint: CheckpointDefinition<typeof RpcTopics.transactionCheckpoint> = {
  ...fromPayloadTable('transaction'),
  // Without a customer the transaction is scored on its own signals; its id stands in as subject.
  subject: (payload) => ({ kind: 'customer', id: payload.customer?.customerId ?? `transaction:${payload.transaction.transactionId}` }),
  references: (payload) => reference('transaction', payload.transaction.parentTransactionId),
  reply: CHECKPOINT_ANSWERS.transaction.scored,
};

/** Every checkpoint the scoring service answers. */
export const CHECKPOINT_DEFINITIONS = [
  customerCheckpoint,
  voucherRedemptionCheckpoint,
  registrationCheckpoint,
  payoutCheckpoint,
  refundCheckpoint,
  transactionCheckpoint,
] as const;
