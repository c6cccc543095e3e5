import { type ChargebackState, chargebackEntry } from './chargebacks';
import type { EntityKind } from './entity-document';

/** One entity a payload describes: the fields to merge into it, at the payload's timestamp. */
export interface EntityUpdate {
  kind: EntityKind;
  entityId: string;
  fields: Record<string, unknown>;
}

type Fields = Record<string, unknown>;
type Identified<K extends string> = { [key in K]?: unknown } & Fields;

/**
 * The structural shapes the extractors read. The request DTOs of `@ringfence/contracts` satisfy
 * them; only the identifiers are named, every other field is kept as sent.
 */
export interface IngestPayload extends Fields {
  timestamp: number;
}

function withoutKey<T extends Fields>(object: T | undefined, key: string): Fields {
  if (!object) return {};
  const { [key]: _dropped, ...rest } = object;
  return rest;
}

const asId = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
const object = (value: unknown): Fields | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
const objects = (value: unknown): Fields[] => (Array.isArray(value) ? value.map(object).filter((item) => item !== undefined) : []);

/** Collects updates, skipping entities without an identifier (nothing to upsert them by). */
class Updates {
  readonly list: EntityUpdate[] = [];

  add(kind: EntityKind, entityId: string | undefined, fields: Fields): this {
    if (entityId) this.list.push({ kind, entityId, fields });
    return this;
  }

  /** The device object (or bare deviceId) of a payload; returns its id for the owner's record. */
  device(payload: Fields): string | undefined {
    const device = object(payload.device);
    const deviceId = asId(payload.deviceId) ?? asId(device?.deviceId);
    if (device) this.add('device', deviceId, withoutKey(device, 'deviceId'));
    return deviceId;
  }

  /** Payment methods keep their owner, so a method is never mistaken for another's. */
  paymentMethods(methods: Fields[], owner: Fields): string[] {
    const ids: string[] = [];
    for (const method of methods) {
      const id = asId(method.paymentMethodId);
      if (!id) continue;
      ids.push(id);
      this.add('paymentMethod', id, { ...withoutKey(method, 'paymentMethodId'), ...owner });
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

/**
 * A transaction's customer: `customerId` (the newest), and `customerIds`, every customer the
 * transaction was ever stored with (a set: one leaf per customer), which its disputes reach
 * (`transactionChargebacksForCustomers`).
 */
const transactionCustomer = (customerId: string | undefined): Fields => (customerId ? { customerId, customerIds: { [customerId]: true } } : {});

/** POST /v2/customer: the customer and its device; from POST /v2/order, also the order it placed. */
export function customerPayloadUpdates(payload: Identified<'customer' | 'device' | 'deviceId' | 'order'>): EntityUpdate[] {
  const updates = new Updates();
  const customer = object(payload.customer);
  const customerId = asId(customer?.customerId);
  const deviceId = updates.device(payload);
  updates.add('customer', customerId, { ...withoutKey(customer, 'customerId'), ...lastDevice(deviceId) });
  const order = object(payload.order);
  updates.add('order', asId(order?.orderId), { ...withoutKey(order, 'orderId'), ...(customerId ? { customerId } : {}) });
  return updates.list;
}

/** POST /v2/supplier: the supplier, its device, identifications and vehicles. */
export function supplierPayloadUpdates(payload: Fields): EntityUpdate[] {
  const updates = new Updates();
  const supplier = object(payload.supplier);
  const deviceId = updates.device(payload);
  updates.add('supplier', asId(supplier?.supplierId), {
    ...withoutKey(supplier, 'supplierId'),
    ...lastDevice(deviceId),
    ...(payload.nationalIdentifications ? { nationalIdentifications: payload.nationalIdentifications } : {}),
    ...(payload.vehicles ? { vehicles: payload.vehicles } : {}),
  });
  return updates.list;
}

/**
 * POST /v2/registration: the attempt (by the registration id the gateway assigned), the customer
 * or supplier registering and the device. The payload never holds a password hash.
 */
export function registrationPayloadUpdates(payload: Fields & { registrationId: string }): EntityUpdate[] {
  const updates = new Updates();
  const customer = object(payload.customer);
  const supplier = object(payload.supplier);
  const deviceId = updates.device(payload);
  const customerId = asId(customer?.customerId);
  const supplierId = asId(supplier?.supplierId);
  updates.add('customer', customerId, { ...withoutKey(customer, 'customerId'), ...lastDevice(deviceId) });
  updates.add('supplier', supplierId, { ...withoutKey(supplier, 'supplierId'), ...lastDevice(deviceId) });
  updates.add('registration', payload.registrationId, {
    ...(object(payload.registration) ?? {}),
    ...(customerId ? { customerId } : {}),
    ...(supplierId ? { supplierId } : {}),
    ...(deviceId ? { deviceId } : {}),
  });
  return updates.list;
}

/** POST /v2/payout: the payout, its recipient and the payment methods it goes to. */
export function payoutPayloadUpdates(payload: Fields): EntityUpdate[] {
  const updates = new Updates();
  const supplier = object(payload.supplier);
  const payout = object(payload.payout);
  const supplierId = asId(supplier?.supplierId);
  updates.add('supplier', supplierId, withoutKey(supplier, 'supplierId'));
  const owner = supplierId ? { supplierId } : {};
  const methodIds = updates.paymentMethods([...objects([payload.paymentMethod]), ...objects(payload.paymentMethods)], owner);
  updates.add('payout', asId(payout?.payoutId), {
    ...withoutKey(payout, 'payoutId'),
    ...owner,
    ...(methodIds.length ? { paymentMethodIds: methodIds } : {}),
  });
  return updates.list;
}

/** POST /v2/refund: the customer, the refund, the order it returns, payment methods and refund transactions. */
export function refundPayloadUpdates(payload: Fields): EntityUpdate[] {
  const updates = new Updates();
  const customer = object(payload.customer);
  const refund = object(payload.refund);
  const order = object(payload.order);
  const customerId = asId(customer?.customerId);
  const orderId = asId(order?.orderId);
  const owner = customerId ? { customerId } : {};
  const deviceId = updates.device(payload);
  updates.add('customer', customerId, { ...withoutKey(customer, 'customerId'), ...lastDevice(deviceId) });
  updates.add('order', orderId, { ...withoutKey(order, 'orderId'), ...owner });
  const methodIds = updates.paymentMethods(objects(payload.paymentMethods), owner);
  for (const transaction of objects(payload.transactions)) {
    updates.add('transaction', asId(transaction.transactionId), {
      ...withoutKey(transaction, 'transactionId'),
      ...transactionCustomer(customerId),
      ...(orderId ? { orderId } : {}),
    });
  }
  updates.add('refund', asId(refund?.refundId), {
    ...withoutKey(refund, 'refundId'),
    ...owner,
    ...(orderId ? { orderId } : {}),
    ...(methodIds.length ? { paymentMethodIds: methodIds } : {}),
  });
  return updates.list;
}

/** POST /v2/voucher: the voucher, by its code. */
export function voucherPayloadUpdates(payload: Fields): EntityUpdate[] {
  const voucher = object(payload.voucher);
  return new Updates().add('voucher', asId(voucher?.voucherCode), withoutKey(voucher, 'voucherCode')).list;
}

/**
 * The identity of a redemption: one customer redeeming one code at one time. Replaying the same
 * redemption therefore upserts the same record, so it counts once (decisions §9).
 */
export function voucherRedemptionId(customerId: string, voucherCode: string, redemptionTime: number): string {
  return JSON.stringify([customerId, voucherCode, redemptionTime]);
}

/** POST /v2/paymentmethod/voucher: the redemption and the customer redeeming. */
export function voucherRedemptionPayloadUpdates(payload: Fields & { timestamp: number }): EntityUpdate[] {
  const updates = new Updates();
  const customer = object(payload.customer);
  const redemption = object(payload.voucherRedemption);
  const customerId = asId(payload.customerId) ?? asId(customer?.customerId);
  const voucherCode = asId(redemption?.voucherCode);
  if (customer) updates.add('customer', customerId, withoutKey(customer, 'customerId'));
  if (customerId && voucherCode) {
    const redeemedAt = typeof redemption?.redemptionTime === 'number' ? redemption.redemptionTime : payload.timestamp;
    updates.add('voucherRedemption', voucherRedemptionId(customerId, voucherCode, redeemedAt), { ...redemption, customerId });
  }
  return updates.list;
}

/**
 * POST /psp/transaction: the transaction (updates of one transaction merge into one record) with
 * its 3-D Secure result and addresses, the customer, the card (by instrument) and the device;
 * from /v2/checkout and /v2/transaction, also the order paid for.
 */
export function pspTransactionPayloadUpdates(payload: Fields): EntityUpdate[] {
  const updates = new Updates();
  const { transaction, customer, paymentMethod, device, order, timestamp: _time, ...context } = payload;
  const transactionFields = object(transaction);
  const customerFields = object(customer);
  const method = object(paymentMethod);
  const orderFields = object(order);
  const customerId = asId(customerFields?.customerId);
  const instrumentId = asId(method?.instrumentId);
  const orderId = asId(orderFields?.orderId);
  const deviceId = updates.device({ device });
  updates.add('customer', customerId, withoutKey(customerFields, 'customerId'));
  if (method) updates.add('paymentMethod', instrumentId, { ...method, ...(customerId ? { customerId } : {}) });
  // The order of a checkout or /v2/transaction: its own record, as a refund's order is.
  updates.add('order', orderId, { ...withoutKey(orderFields, 'orderId'), ...(customerId ? { customerId } : {}) });
  updates.add('transaction', asId(transactionFields?.transactionId), {
    ...withoutKey(transactionFields, 'transactionId'),
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
export function pspDisputePayloadUpdates(payload: Fields): EntityUpdate[] {
  const updates = new Updates();
  const dispute = object(payload.dispute);
  const disputeId = asId(dispute?.disputeId);
  updates.add('dispute', disputeId, withoutKey(dispute, 'disputeId'));
  if (dispute && disputeId) updates.add('transaction', asId(dispute.transactionId), chargebackEntry(disputeId, dispute));
  return updates.list;
}

/**
 * POST /v2/connect: the customer with its identifications, vehicles and custom nodes, its
 * device, its cards, and a chargeback or dispute linked to it.
 */
export function connectPayloadUpdates(payload: Fields): EntityUpdate[] {
  const updates = new Updates();
  const customer = object(payload.customer);
  const customerId = asId(payload.customerId) ?? asId(customer?.customerId);
  const owner = customerId ? { customerId } : {};
  const deviceId = updates.device(payload);
  const cards = objects(payload.paymentMethods).map((method) => object(method.card)).filter((card) => card !== undefined);
  updates.paymentMethods(cards, { ...owner, methodType: 'card' });
  const chargeback = object(payload.chargeback);
  const chargebackId = asId(chargeback?.chargebackId);
  updates.add('dispute', chargebackId, { ...withoutKey(chargeback, 'chargebackId'), ...owner, kind: 'chargeback' });
  const dispute = object(payload.dispute);
  const disputeId = asId(dispute?.disputeId);
  updates.add('dispute', disputeId, { ...withoutKey(dispute, 'disputeId'), ...owner });
  const customNodes = [...objects([payload.customNode]), ...objects(payload.customNodes)];
  updates.add('customer', customerId, {
    ...withoutKey(customer, 'customerId'),
    ...lastDevice(deviceId),
    ...(payload.nationalIdentifications ? { nationalIdentifications: payload.nationalIdentifications } : {}),
    ...(payload.vehicles ? { vehicles: payload.vehicles } : {}),
    ...(customNodes.length ? { customNodes } : {}),
    ...chargebackEntries([
      [chargebackId, chargeback],
      [disputeId, dispute],
    ]),
  });
  return updates.list;
}
