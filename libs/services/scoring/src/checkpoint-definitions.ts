import { type CheckpointRouteName, PAYLOAD_ROUTES, type RpcTopics, redeemingCustomerId } from '@ringfence/contracts';
import { ENTITY_UPDATES_BY_TOPIC } from '@ringfence/entities';
import { payoutSignals, refundSignals, registrationSignals, transactionSignals } from '@ringfence/scoring-engine';
import type { CheckpointDefinition, EntityReference } from './checkpoint-definition';

type Fields = Record<string, unknown>;
const fields = (payload: object) => payload as Fields;
const noSignals = () => [];
const noRules = { triggered: [] };

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
  return { checkpoint, rpcTopic, ingestTopic, decisionTopic, payloadClass, updates: ENTITY_UPDATES_BY_TOPIC[ingestTopic] };
}

function reference(kind: EntityReference['kind'], id: string | undefined, when = true): EntityReference[] {
  return id && when ? [{ kind, id }] : [];
}

export const customerCheckpoint: CheckpointDefinition<typeof RpcTopics.customerCheckpoint> = {
  ...fromPayloadTable('customer'),
  subject: (payload) => ({ kind: 'customer', id: payload.customer.customerId }),
  references: (payload) => reference('customer', payload.customer.customerId, onlyIdentifies(payload.customer, 'customerId')),
  signals: noSignals,
  scoresIdentity: true,
  reply: (payload, { decision, scoreId, warnings }) => ({
    action: decision.action,
    score: decision.score,
    source: decision.source,
    customerId: payload.customer.customerId,
    scoreId,
    warnings,
  }),
};

export const voucherRedemptionCheckpoint: CheckpointDefinition<typeof RpcTopics.voucherRedemptionCheckpoint> = {
  ...fromPayloadTable('voucherRedemption'),
  subject: (payload) => ({ kind: 'customer', id: redeemingCustomerId(payload) }),
  references: (payload) => [
    ...reference('customer', payload.customerId ?? payload.customer?.customerId, !payload.customer || onlyIdentifies(payload.customer, 'customerId')),
    ...reference('paymentMethod', payload.voucherRedemption.paymentMethodId),
  ],
  signals: noSignals,
  scoresIdentity: true,
  voucherUse: (payload) => ({ voucherCode: payload.voucherRedemption.voucherCode, voucherType: payload.voucherRedemption.voucherType }),
  reply: (payload, { decision, scoreId, warnings }) => ({
    action: decision.action,
    score: decision.score,
    source: decision.source,
    customerId: redeemingCustomerId(payload),
    scoreId,
    warnings,
  }),
};

export const registrationCheckpoint: CheckpointDefinition<typeof RpcTopics.registrationCheckpoint> = {
  ...fromPayloadTable('registration'),
  // An anonymous attempt (neither customer nor supplier yet) is scored on its own signals, keyed on its id.
  subject: (payload) =>
    payload.supplier
      ? { kind: 'supplier', id: payload.supplier.supplierId }
      : { kind: 'customer', id: payload.customer?.customerId ?? `registration:${payload.registrationId}` },
  references: () => [],
  signals: (payload) =>
    registrationSignals(fields(payload), payload.credentialStatus.usernameBreached || payload.credentialStatus.passwordBreached),
  scoresIdentity: true,
  reply: (payload, { decision }) => ({
    action: decision.action,
    source: decision.source,
    ...(payload.customer ? { customerId: payload.customer.customerId } : {}),
    ...(payload.supplier ? { supplierId: payload.supplier.supplierId } : {}),
    registrationId: payload.registrationId,
    rules: noRules,
  }),
};

export const payoutCheckpoint: CheckpointDefinition<typeof RpcTopics.payoutCheckpoint> = {
  ...fromPayloadTable('payout'),
  subject: (payload) => ({ kind: 'supplier', id: payload.supplier.supplierId }),
  references: (payload) => reference('supplier', payload.supplier.supplierId, onlyIdentifies(payload.supplier, 'supplierId')),
  signals: (payload) => payoutSignals(fields(payload)),
  scoresIdentity: true,
  reply: (payload, { decision }) => ({
    supplierId: payload.supplier.supplierId,
    payoutId: payload.payout.payoutId,
    action: decision.action,
    source: decision.source,
    rules: noRules,
  }),
};

export const refundCheckpoint: CheckpointDefinition<typeof RpcTopics.refundCheckpoint> = {
  ...fromPayloadTable('refund'),
  subject: (payload) => ({ kind: 'customer', id: payload.customer.customerId }),
  references: (payload) => [
    ...reference('customer', payload.customer.customerId, onlyIdentifies(payload.customer, 'customerId')),
    ...reference('order', payload.order.orderId, onlyIdentifies(payload.order, 'orderId')),
  ],
  signals: (payload) => refundSignals(fields(payload)),
  scoresIdentity: true,
  // A refund abuser's refunds are prevented; NOT_REFUND_ABUSE allows them (the most severe label wins).
  customerLabelCategories: ['REFUND_ABUSE'],
  reply: (payload, { decision }) => ({ customerId: payload.customer.customerId, action: decision.action, source: decision.source, rules: noRules }),
};

export const transactionCheckpoint: CheckpointDefinition<typeof RpcTopics.transactionCheckpoint> = {
  ...fromPayloadTable('transaction'),
  // Without a customer the transaction is scored on its own signals; its id stands in as subject.
  subject: (payload) => ({ kind: 'customer', id: payload.customer?.customerId ?? `transaction:${payload.transaction.transactionId}` }),
  references: (payload) => reference('transaction', payload.transaction.parentTransactionId),
  signals: (payload) => transactionSignals(fields(payload)),
  scoresIdentity: false,
  reply: (payload, { decision, scoreId }) => ({
    action: decision.action,
    rules: noRules,
    score: decision.score,
    scoreId,
    transactionId: payload.transaction.transactionId,
  }),
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
