import { type DeviceFacts, type PayloadFacts, type PaymentMethodFacts, type WireObject, payloadFacts } from '@ringfence/contracts';
import { type ChargebackState, chargebackEntry } from './chargebacks';
import type { EntityKind } from './entity-document';

/** One entity a payload describes: the fields to merge into it, at the payload's timestamp. */
export interface EntityUpdate {
  kind: EntityKind;
  entityId: string;
  fields: Record<string, unknown>;
}

type Fields = Record<string, unknown>;

function withoutKey(object: WireObject | undefined, key: string): Fields {
  if (!object) return {};
  const { [key]: _dropped, ...rest } = object;
  return rest;
}

/** Collects updates, skipping entities without an identifier (nothing to upsert them by). */
class Updates {
  readonly list: EntityUpdate[] = [];

  add(kind: EntityKind, entityId: string | undefined, fields: Fields): this {
    if (entityId) this.list.push({ kind, entityId, fields });
    return this;
  }

  /** The payload's device object, by the payload's device id; returns that id for the owner's record. */
  device({ id, fields }: DeviceFacts): string | undefined {
    if (fields) this.add('device', id, withoutKey(fields, 'deviceId'));
    return id;
  }

  /** Payment methods keep their owner, so a method is never mistaken for another's. */
  paymentMethods(methods: readonly PaymentMethodFacts[], owner: Fields): string[] {
    const ids: string[] = [];
    for (const method of methods) {
      const id = method.paymentMethodId;
      if (!id) continue;
      ids.push(id);
      this.add('paymentMethod', id, { ...withoutKey(method.fields, 'paymentMethodId'), ...owner });
    }
    return ids;
  }
}

/** `chargebacks.<id>.forgiven` entries for every chargeback or dispute present. */
function chargebackEntries(items: Array<[string | undefined, ChargebackState | undefined]>): Fields {
  // fromEntries defines own properties: Object.assign would make an id "__proto__" the prototype.
  const entries: Fields = Object.fromEntries(
    items.flatMap(([id, state]) => (id && state ? Object.entries(chargebackEntry(id, state).chargebacks as Fields) : [])),
  );
  return Object.keys(entries).length ? { chargebacks: entries } : {};
}

const lastDevice = (deviceId: string | undefined): Fields => (deviceId ? { lastDeviceId: deviceId } : {});
const ownedBy = (customerId: string | undefined): Fields => (customerId ? { customerId } : {});

/**
 * A transaction's customer: `customerId` (the newest), and `customerIds`, every customer the
 * transaction was ever stored with (a set: one leaf per customer), which its disputes reach
 * (`transactionChargebacksForCustomers`).
 */
const transactionCustomer = (customerId: string | undefined): Fields => (customerId ? { customerId, customerIds: { [customerId]: true } } : {});

/** `nationalIdentifications` and `vehicles` as sent, kept whole on the owner's record. */
function documentsSent({ wire }: PayloadFacts): Fields {
  return {
    ...(wire.nationalIdentifications ? { nationalIdentifications: wire.nationalIdentifications } : {}),
    ...(wire.vehicles ? { vehicles: wire.vehicles } : {}),
  };
}

/** POST /v2/customer: the customer and its device; from POST /v2/order, also the order it placed. */
export function customerFactsUpdates(facts: PayloadFacts): EntityUpdate[] {
  const updates = new Updates();
  const { customerId } = facts;
  const deviceId = updates.device(facts.device);
  updates.add('customer', customerId, { ...withoutKey(facts.customer?.fields, 'customerId'), ...lastDevice(deviceId) });
  updates.add('order', facts.order?.id, { ...withoutKey(facts.order?.fields, 'orderId'), ...ownedBy(customerId) });
  return updates.list;
}

/** POST /v2/supplier: the supplier, its device, identifications and vehicles. */
export function supplierFactsUpdates(facts: PayloadFacts): EntityUpdate[] {
  const updates = new Updates();
  const deviceId = updates.device(facts.device);
  updates.add('supplier', facts.supplier?.id, { ...withoutKey(facts.supplier?.fields, 'supplierId'), ...lastDevice(deviceId), ...documentsSent(facts) });
  return updates.list;
}

/**
 * POST /v2/registration: the attempt (by the registration id the gateway assigned), the customer
 * or supplier registering and the device. The payload never holds a password hash.
 */
export function registrationFactsUpdates(facts: PayloadFacts): EntityUpdate[] {
  const updates = new Updates();
  const deviceId = updates.device(facts.device);
  const customerId = facts.customer?.id;
  const supplierId = facts.supplier?.id;
  updates.add('customer', customerId, { ...withoutKey(facts.customer?.fields, 'customerId'), ...lastDevice(deviceId) });
  updates.add('supplier', supplierId, { ...withoutKey(facts.supplier?.fields, 'supplierId'), ...lastDevice(deviceId) });
  updates.add('registration', facts.registration.id, {
    ...(facts.registration.fields ?? {}),
    ...ownedBy(customerId),
    ...(supplierId ? { supplierId } : {}),
    ...(deviceId ? { deviceId } : {}),
  });
  return updates.list;
}

/** POST /v2/payout: the payout, its recipient and the payment methods it goes to. */
export function payoutFactsUpdates(facts: PayloadFacts): EntityUpdate[] {
  const updates = new Updates();
  const supplierId = facts.supplier?.id;
  updates.add('supplier', supplierId, withoutKey(facts.supplier?.fields, 'supplierId'));
  const owner = supplierId ? { supplierId } : {};
  const methods = facts.paymentMethod ? [facts.paymentMethod, ...facts.paymentMethods] : facts.paymentMethods;
  const methodIds = updates.paymentMethods(methods, owner);
  updates.add('payout', facts.payout?.id, {
    ...withoutKey(facts.payout?.fields, 'payoutId'),
    ...owner,
    ...(methodIds.length ? { paymentMethodIds: methodIds } : {}),
  });
  return updates.list;
}

/** POST /v2/refund: the customer, the refund, the order it returns, payment methods and refund transactions. */
export function refundFactsUpdates(facts: PayloadFacts): EntityUpdate[] {
  const updates = new Updates();
  const { customerId } = facts;
  const orderId = facts.order?.id;
  const owner = ownedBy(customerId);
  const deviceId = updates.device(facts.device);
  updates.add('customer', customerId, { ...withoutKey(facts.customer?.fields, 'customerId'), ...lastDevice(deviceId) });
  updates.add('order', orderId, { ...withoutKey(facts.order?.fields, 'orderId'), ...owner });
  const methodIds = updates.paymentMethods(facts.paymentMethods, owner);
  for (const transaction of facts.transactions) {
    updates.add('transaction', transaction.id, {
      ...withoutKey(transaction.fields, 'transactionId'),
      ...transactionCustomer(customerId),
      ...(orderId ? { orderId } : {}),
    });
  }
  updates.add('refund', facts.refund?.id, {
    ...withoutKey(facts.refund?.fields, 'refundId'),
    ...owner,
    ...(orderId ? { orderId } : {}),
    ...(methodIds.length ? { paymentMethodIds: methodIds } : {}),
  });
  return updates.list;
}

/** POST /v2/voucher: the voucher, by its code. */
export function voucherFactsUpdates(facts: PayloadFacts): EntityUpdate[] {
  return new Updates().add('voucher', facts.voucher?.code, withoutKey(facts.voucher?.fields, 'voucherCode')).list;
}

/**
 * The identity of a redemption: one customer redeeming one code at one time. Replaying the same
 * redemption therefore upserts the same record, so it counts once (ADR-0009).
 */
export function voucherRedemptionId(customerId: string, voucherCode: string, redemptionTime: number): string {
  return JSON.stringify([customerId, voucherCode, redemptionTime]);
}

/**
 * The identity a redemption payload is stored under: its customer, its code and its
 * `redemptionTime` (else the payload's time). Undefined without a customer or a code.
 */
export function voucherRedemptionIdOf(facts: PayloadFacts): string | undefined {
  const { customerId, voucherRedemption } = facts;
  if (!customerId || !voucherRedemption?.code) return undefined;
  // JSON has no NaN: a payload without a time is stored under a null time, as it always was.
  return voucherRedemptionId(customerId, voucherRedemption.code, voucherRedemption.redemptionTimeMs ?? facts.timestampMs ?? Number.NaN);
}

/** POST /v2/paymentmethod/voucher: the redemption and the customer redeeming. */
export function voucherRedemptionFactsUpdates(facts: PayloadFacts): EntityUpdate[] {
  const updates = new Updates();
  const { customerId, customer, voucherRedemption } = facts;
  if (customer) updates.add('customer', customerId, withoutKey(customer.fields, 'customerId'));
  updates.add('voucherRedemption', voucherRedemptionIdOf(facts), { ...voucherRedemption?.fields, ...ownedBy(customerId) });
  return updates.list;
}

/**
 * POST /psp/transaction: the transaction (updates of one transaction merge into one record) with
 * its 3-D Secure result and addresses, the customer, the card (by instrument) and the device;
 * from /v2/checkout and /v2/transaction, also the order paid for.
 */
export function pspTransactionFactsUpdates(facts: PayloadFacts): EntityUpdate[] {
  const updates = new Updates();
  const { transaction: _transaction, customer: _customer, paymentMethod: _method, device: _device, order: _order, timestamp: _time, ...context } = facts.wire;
  const { customerId } = facts;
  const method = facts.paymentMethod?.fields;
  const orderId = facts.order?.id;
  const deviceId = updates.device(facts.device);
  updates.add('customer', customerId, withoutKey(facts.customer?.fields, 'customerId'));
  if (method) updates.add('paymentMethod', facts.paymentMethod?.instrumentId, { ...method, ...ownedBy(customerId) });
  // The order of a checkout or /v2/transaction: its own record, as a refund's order is.
  updates.add('order', orderId, { ...withoutKey(facts.order?.fields, 'orderId'), ...ownedBy(customerId) });
  updates.add('transaction', facts.transaction?.id, {
    ...withoutKey(facts.transaction?.fields, 'transactionId'),
    ...context,
    ...(method ? { paymentMethod: method } : {}),
    ...transactionCustomer(customerId),
    ...(deviceId ? { deviceId } : {}),
    ...(orderId ? { orderId } : {}),
  });
  return updates.list;
}

/**
 * POST /psp/dispute: the dispute, by its id, and its chargeback recorded on the transaction it
 * names (upserted by transactionId, whether or not the transaction is stored yet). A dispute
 * names no customer: storing the transaction's document carries its chargebacks to the
 * transaction's customers (`transactionChargebacksForCustomers`), in whichever order the dispute
 * and the transaction arrive.
 */
export function pspDisputeFactsUpdates({ dispute }: PayloadFacts): EntityUpdate[] {
  const updates = new Updates();
  updates.add('dispute', dispute?.id, withoutKey(dispute?.fields, 'disputeId'));
  if (dispute?.id) updates.add('transaction', dispute.transactionId, chargebackEntry(dispute.id, dispute.fields));
  return updates.list;
}

/**
 * POST /v2/connect: the customer with its identifications, vehicles and custom nodes, its
 * device, its cards, and a chargeback or dispute linked to it.
 */
export function connectFactsUpdates(facts: PayloadFacts): EntityUpdate[] {
  const updates = new Updates();
  const { customerId, chargeback, dispute } = facts;
  const owner = ownedBy(customerId);
  const deviceId = updates.device(facts.device);
  updates.paymentMethods(facts.connectCards, { ...owner, methodType: 'card' });
  updates.add('dispute', chargeback?.id, { ...withoutKey(chargeback?.fields, 'chargebackId'), ...owner, kind: 'chargeback' });
  updates.add('dispute', dispute?.id, { ...withoutKey(dispute?.fields, 'disputeId'), ...owner });
  const customNodes = facts.customNodes.map((node) => node.fields);
  updates.add('customer', customerId, {
    ...withoutKey(facts.customer?.fields, 'customerId'),
    ...lastDevice(deviceId),
    ...documentsSent(facts),
    ...(customNodes.length ? { customNodes } : {}),
    ...chargebackEntries([
      [chargeback?.id, chargeback?.fields],
      [dispute?.id, dispute?.fields],
    ]),
  });
  return updates.list;
}

/** The same extractions of a payload in wire JSON (for a handler with no other reader of its facts). */
export const customerPayloadUpdates = (payload: WireObject): EntityUpdate[] => customerFactsUpdates(payloadFacts(payload));
export const supplierPayloadUpdates = (payload: WireObject): EntityUpdate[] => supplierFactsUpdates(payloadFacts(payload));
export const registrationPayloadUpdates = (payload: WireObject): EntityUpdate[] => registrationFactsUpdates(payloadFacts(payload));
export const payoutPayloadUpdates = (payload: WireObject): EntityUpdate[] => payoutFactsUpdates(payloadFacts(payload));
export const refundPayloadUpdates = (payload: WireObject): EntityUpdate[] => refundFactsUpdates(payloadFacts(payload));
export const voucherPayloadUpdates = (payload: WireObject): EntityUpdate[] => voucherFactsUpdates(payloadFacts(payload));
export const voucherRedemptionPayloadUpdates = (payload: WireObject): EntityUpdate[] => voucherRedemptionFactsUpdates(payloadFacts(payload));
export const pspTransactionPayloadUpdates = (payload: WireObject): EntityUpdate[] => pspTransactionFactsUpdates(payloadFacts(payload));
export const pspDisputePayloadUpdates = (payload: WireObject): EntityUpdate[] => pspDisputeFactsUpdates(payloadFacts(payload));
export const connectPayloadUpdates = (payload: WireObject): EntityUpdate[] => connectFactsUpdates(payloadFacts(payload));
