import {
  type CurrentPaymentReview,
  type CustomerEvidenceDto,
  type EntityDocumentMessage,
  type EvidenceAddressDto,
  type EvidenceCardDto,
  type EvidenceDecisionDto,
  type EvidenceDecisionMessage,
  type EvidenceDeviceSeenDto,
  type EvidenceDisputeDto,
  type EvidenceIpSeenDto,
  type EvidencePaymentDto,
  type PayloadFacts,
  type PaymentMethodFacts,
  type WireObject,
  payloadFacts,
} from '@ringfence/contracts';
import { normaliseTimestampToMillis } from '@ringfence/platform';

type Fields = Record<string, unknown>;

/** What a customer's evidence is made from: the owners' answers, as read. */
export interface EvidenceSources {
  customerId: string;
  customer: EntityDocumentMessage | null;
  /** Newest first. */
  decisions: readonly EvidenceDecisionMessage[];
  /** Stored transactions and disputes, by id. */
  transactions: ReadonlyMap<string, EntityDocumentMessage>;
  disputes: ReadonlyMap<string, EntityDocumentMessage>;
  /** The payments' current analyst reviews, by transaction id. */
  reviews: ReadonlyMap<string, CurrentPaymentReview>;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const integer = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

interface Reading {
  decision: EvidenceDecisionMessage;
  facts: PayloadFacts;
}

/** The decisions with a payload, newest first, each read once. */
export function readings(decisions: readonly EvidenceDecisionMessage[]): Reading[] {
  return decisions.flatMap((decision) => (decision.payload === null ? [] : [{ decision, facts: payloadFacts(decision.payload as WireObject) }]));
}

/** The ids of the disputes a customer's evidence lists: the customer's own chargebacks, then its payments'. */
export function disputeIdsOf(customer: EntityDocumentMessage | null, transactions: Iterable<EntityDocumentMessage>): string[] {
  const ids = new Set<string>();
  for (const document of [customer, ...transactions]) {
    const chargebacks = document?.fields.chargebacks;
    if (isObject(chargebacks)) for (const id of Object.keys(chargebacks)) ids.add(id);
  }
  return [...ids];
}

/**
 * A customer's evidence (ADR-0014): what its decisions saw, newest first, and what the entity
 * store knows of its record, transactions and disputes. Amounts stay integers in minor units
 * with their currency; a payment decided twice (before and after authorisation) is one payment
 * with its newest decision, success and decline code.
 */
export function customerEvidence(sources: EvidenceSources): CustomerEvidenceDto {
  const read = readings(sources.decisions);
  const disputes = disputeList(sources);
  const payments = paymentsOf(read, disputes, sources.reviews);
  return {
    customer: customerOf(sources.customerId, sources.customer),
    payments,
    orders: ordersOf(read),
    refunds: refundsOf(read),
    disputes,
    spend: spendOf(payments),
    addresses: addressesOf(read),
    devices: devicesOf(read),
    ips: ipsOf(read),
    decisionsRead: sources.decisions.length,
  };
}

function customerOf(id: string, document: EntityDocumentMessage | null): CustomerEvidenceDto['customer'] {
  const fields = document?.fields ?? {};
  const created = integer(fields.registrationTime);
  const location = isObject(fields.location) ? fields.location : {};
  const [name, email, phone, country] = [text(fields.name), text(fields.email), text(fields.telephone), text(location.country)];
  return {
    id,
    ...(name === undefined ? {} : { name }),
    ...(email === undefined ? {} : { email }),
    ...(phone === undefined ? {} : { phone }),
    ...(created === null ? {} : { createdAt: normaliseTimestampToMillis(created) }),
    ...(country === undefined ? {} : { country }),
  };
}

const decisionOf = ({ scoreId, checkpoint, action, score }: EvidenceDecisionMessage): EvidenceDecisionDto => ({ scoreId, checkpoint, action, score });

function cardOf(method: PaymentMethodFacts | undefined, featureCountry: string | undefined): EvidenceCardDto | undefined {
  if (method === undefined) return undefined;
  const bin = text(method.fields.cardBin) ?? text(method.fields.iin);
  const last4 = text(method.fields.cardLastFour) ?? text(method.fields.lastFour);
  if (bin === undefined || last4 === undefined) return undefined;
  const country = method.countryIssued ?? featureCountry;
  return { bin, last4, ...(country === undefined ? {} : { country }), ...(method.instrumentId === undefined ? {} : { instrumentId: method.instrumentId }) };
}

function reviewOf(review: CurrentPaymentReview | undefined): EvidencePaymentDto['review'] {
  return review === undefined ? null : { decision: review.decision, actor: review.actor, at: review.at, comment: review.comment };
}

function paymentsOf(read: readonly Reading[], disputes: readonly EvidenceDisputeDto[], reviews: ReadonlyMap<string, CurrentPaymentReview>): EvidencePaymentDto[] {
  const payments = new Map<string, EvidencePaymentDto>();
  for (const { decision, facts } of read) {
    const transaction = facts.transaction;
    if (transaction?.id === undefined) continue;
    const known = payments.get(transaction.id);
    if (known !== undefined) {
      // An older decision of the same payment fills only what the newer one did not carry.
      if (known.success === undefined && transaction.success !== undefined) known.success = transaction.success;
      if (known.declineCode === undefined && transaction.declineCode !== undefined) known.declineCode = transaction.declineCode;
      continue;
    }
    const card = cardOf(facts.paymentMethod ?? facts.paymentMethods[0], decision.cardCountry);
    const orderId = text(transaction.fields.orderId) ?? facts.order?.id;
    const { wire, device } = facts;
    payments.set(transaction.id, {
      transactionId: transaction.id,
      ...(orderId === undefined ? {} : { orderId }),
      at: decision.timestamp,
      amount: transaction.amount ?? null,
      currency: transaction.currency ?? null,
      ...(transaction.success === undefined ? {} : { success: transaction.success }),
      ...(transaction.declineCode === undefined ? {} : { declineCode: transaction.declineCode }),
      ...(card === undefined ? {} : { card }),
      ...(device.ipAddress === undefined ? {} : { ip: { address: device.ipAddress, ...(decision.ipCountry === undefined ? {} : { country: decision.ipCountry }) } }),
      ...(device.id === undefined ? {} : { device: { deviceId: device.id, ...(device.userAgent === undefined ? {} : { userAgent: device.userAgent }) } }),
      ...(isObject(wire.billingAddress) ? { billingAddress: wire.billingAddress } : {}),
      ...(isObject(wire.shippingAddress) ? { shippingAddress: wire.shippingAddress } : {}),
      decision: decisionOf(decision),
      disputes: disputes.filter((dispute) => dispute.transactionId === transaction.id),
      review: reviewOf(reviews.get(transaction.id)),
    });
  }
  return [...payments.values()];
}

function ordersOf(read: readonly Reading[]): CustomerEvidenceDto['orders'] {
  const orders = new Map<string, CustomerEvidenceDto['orders'][number]>();
  for (const { decision, facts } of read) {
    const order = facts.order;
    if (order?.id === undefined || orders.has(order.id)) continue;
    orders.set(order.id, { orderId: order.id, at: decision.timestamp, amount: order.price ?? null, currency: order.currency ?? null, decision: decisionOf(decision) });
  }
  return [...orders.values()];
}

function refundsOf(read: readonly Reading[]): CustomerEvidenceDto['refunds'] {
  const refunds = new Map<string, CustomerEvidenceDto['refunds'][number]>();
  for (const { decision, facts } of read) {
    const refund = facts.refund;
    if (refund?.id === undefined || refunds.has(refund.id)) continue;
    const transactionId = facts.transactions[0]?.id;
    refunds.set(refund.id, {
      refundId: refund.id,
      ...(transactionId === undefined ? {} : { transactionId }),
      at: decision.timestamp,
      amount: facts.money?.minorUnits ?? refund.amount ?? null,
      currency: facts.money?.currency ?? refund.currency ?? null,
      decision: decisionOf(decision),
    });
  }
  return [...refunds.values()];
}

/** Every dispute read, newest first; its transaction is the one whose record lists it. */
function disputeList({ customer, transactions, disputes }: EvidenceSources): EvidenceDisputeDto[] {
  const transactionOf = new Map<string, string>();
  for (const [transactionId, document] of transactions) {
    const chargebacks = document.fields.chargebacks;
    if (isObject(chargebacks)) for (const id of Object.keys(chargebacks)) transactionOf.set(id, transactionId);
  }
  const list: EvidenceDisputeDto[] = [];
  for (const disputeId of disputeIdsOf(customer, transactions.values())) {
    const document = disputes.get(disputeId);
    const fields = document?.fields ?? {};
    const state = [customer, ...transactions.values()].map((owner) => (isObject(owner?.fields.chargebacks) ? owner.fields.chargebacks[disputeId] : undefined)).find(isObject);
    const transactionId = text(fields.transactionId) ?? transactionOf.get(disputeId);
    const raised = integer(fields.disputeTime);
    const reported = document === undefined ? null : Math.max(0, ...Object.values(document.fieldTimestamps));
    const [outcome, reason, currency, amount] = [text(fields.outcome), text(fields.reason), text(fields.currency), integer(fields.amount)];
    list.push({
      disputeId,
      ...(transactionId === undefined ? {} : { transactionId }),
      status: text(fields.status) ?? text(fields.stage) ?? outcome ?? null,
      ...(outcome === undefined ? {} : { outcome }),
      ...(reason === undefined ? {} : { reason }),
      forgiven: state?.forgiven === true,
      ...(amount === null ? {} : { amount }),
      ...(currency === undefined ? {} : { currency }),
      at: raised === null ? (reported === 0 ? null : reported) : normaliseTimestampToMillis(raised),
    });
  }
  return list.sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
}

function spendOf(payments: readonly EvidencePaymentDto[]): CustomerEvidenceDto['spend'] {
  const spend: CustomerEvidenceDto['spend'] = {};
  for (const payment of payments) {
    if (payment.success === false || payment.amount === null || payment.currency === null) continue;
    // Own properties only (a currency named like an Object.prototype member stays data).
    const known = Object.hasOwn(spend, payment.currency) ? spend[payment.currency] : undefined;
    Object.defineProperty(spend, payment.currency, { value: { total: (known?.total ?? 0) + payment.amount, count: (known?.count ?? 0) + 1 }, enumerable: true, writable: true, configurable: true });
  }
  return spend;
}

function addressesOf(read: readonly Reading[]): EvidenceAddressDto[] {
  const addresses = new Map<string, EvidenceAddressDto>();
  for (const { decision, facts } of read) {
    for (const kind of ['billing', 'shipping'] as const) {
      const address = facts.wire[`${kind}Address`];
      const key = `${kind}:${JSON.stringify(address)}`;
      if (isObject(address) && !addresses.has(key)) addresses.set(key, { kind, address, lastSeen: decision.timestamp });
    }
  }
  return [...addresses.values()];
}

interface Sighting {
  firstSeen: number;
  lastSeen: number;
  count: number;
}

/** Sightings keyed by `key`, newest first (decisions are read newest first). */
function sightings<T extends object>(read: readonly Reading[], keyOf: (reading: Reading) => string | undefined, describe: (reading: Reading, key: string) => T): Array<T & Sighting> {
  const seen = new Map<string, T & Sighting>();
  for (const reading of read) {
    const key = keyOf(reading);
    if (key === undefined) continue;
    const known = seen.get(key);
    const at = reading.decision.timestamp;
    if (known === undefined) seen.set(key, { ...describe(reading, key), firstSeen: at, lastSeen: at, count: 1 });
    else Object.assign(known, { firstSeen: Math.min(known.firstSeen, at), lastSeen: Math.max(known.lastSeen, at), count: known.count + 1 });
  }
  return [...seen.values()];
}

function devicesOf(read: readonly Reading[]): EvidenceDeviceSeenDto[] {
  return sightings(read, ({ facts }) => facts.device.id, ({ facts }, deviceId) => ({ deviceId, ...(facts.device.userAgent === undefined ? {} : { userAgent: facts.device.userAgent }) }));
}

function ipsOf(read: readonly Reading[]): EvidenceIpSeenDto[] {
  return sightings(read, ({ facts }) => facts.device.ipAddress, ({ decision }, address) => ({ address, ...(decision.ipCountry === undefined ? {} : { country: decision.ipCountry }) }));
}
