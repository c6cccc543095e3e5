import { EventTopics } from '@ringfence/contracts';
import { isChargebackForgiven, voucherRedemptionId } from '@ringfence/entities';
import { canonicalIpAddress, normaliseEmail, normalisePaymentIdentifier, normaliseTelephone } from '@ringfence/lookup';
import type { Money } from '../currency-amounts';
import type { VelocityOccurrenceKind } from './velocity-dimensions';

/** The dimension values an event or a checkpoint names, normalised; a value it lacks is absent. */
export interface VelocityKeys {
  customer?: string;
  /** Cards by instrumentId: a refund or payout may name several. */
  cards: readonly string[];
  device?: string;
  email?: string;
  phone?: string;
  ipAddress?: string;
  merchant?: string;
}

/** What an event is an occurrence of, for the counts and sums. */
export interface VelocityOccurrence {
  kind: VelocityOccurrenceKind;
  /** Identifies the occurrence across its updates and replays; absent: every event is a new one. */
  id?: string;
  /** False for an update that does not make the occurrence count (a transaction's refund step). */
  counts: boolean;
  /** The update reports a failure (a declined payment). */
  failed: boolean;
  amount?: Money;
}

/** One ingest event as velocity sees it. */
export interface VelocityEvent {
  eventId: string;
  /** Event time: the payload's `timestamp`, epoch ms. */
  timestampMillis: number;
  keys: VelocityKeys;
  occurrence?: VelocityOccurrence;
  /** Counts its occurrence and adds no distinct link (a dispute: it says nothing new of who was seen with whom). */
  countsOnly?: boolean;
}

type Wire = Record<string, unknown>;

const object = (value: unknown): Wire | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Wire) : undefined);
const objects = (value: unknown): Wire[] => (Array.isArray(value) ? value.map(object).filter((item) => item !== undefined) : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const amountOf = (minorUnits: unknown, currency: unknown): Money | undefined =>
  typeof minorUnits === 'number' && Number.isFinite(minorUnits) ? { minorUnits, currency: text(currency) ?? null } : undefined;

function email(value: unknown): string | undefined {
  const raw = text(value);
  return raw === undefined ? undefined : normaliseEmail(raw) || undefined;
}

/** E.164 as the graph and lookup read it; a country code that cannot be read is ignored, never an error. */
function phone(value: unknown, country: unknown): string | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  let normalised: string;
  try {
    normalised = normaliseTelephone(raw, text(country));
  } catch {
    normalised = normaliseTelephone(raw);
  }
  return normalised || undefined;
}

function ipAddress(value: unknown): string | undefined {
  const raw = text(value)?.trim();
  return raw === undefined ? undefined : (canonicalIpAddress(raw) ?? raw.toLowerCase());
}

const card = (value: unknown): string | undefined => {
  const raw = text(value);
  return raw === undefined ? undefined : normalisePaymentIdentifier(raw);
};

/** The instrumentIds of a payload's card payment methods (v2 payment-method variants). */
function cardsOf(methods: Wire[]): string[] {
  const cards = methods.filter((method) => method.methodType === 'card').map((method) => card(method.instrumentId));
  return [...new Set(cards.filter((instrument) => instrument !== undefined))];
}

/** A device object or a bare `deviceId`, as the v2 payloads send it. */
function deviceKeys(payload: Wire): Pick<VelocityKeys, 'device' | 'ipAddress'> {
  const device = object(payload.device);
  return { device: text(payload.deviceId) ?? text(device?.deviceId), ipAddress: ipAddress(device?.ipAddress) };
}

/** PSP transaction steps that are not a payment attempt (value set not fixed by the specification). */
const NOT_AN_ATTEMPT = new Set(['refund', 'reversal', 'void', 'cancel', 'cancellation', 'chargeback', 'credit']);

type Extractor = (payload: Wire, eventId: string) => Omit<VelocityEvent, 'eventId' | 'timestampMillis'>;

/**
 * What each ingest topic feeds (the velocity README has the table). Supplier updates, vouchers,
 * disputes and connect carry no activity of a customer, card, device or merchant at a time:
 * connect declares links, disputes arrive weeks later about an old transaction.
 */
const EXTRACTORS = {
  [EventTopics.transactionUpdated]: (payload) => {
    const transaction = object(payload.transaction) ?? {};
    const customer = object(payload.customer);
    const device = object(payload.device);
    const method = object(payload.paymentMethod);
    const instrument = card(method?.instrumentId);
    const type = text(transaction.type)?.trim().toLowerCase();
    return {
      keys: {
        customer: text(customer?.customerId),
        cards: instrument === undefined ? [] : [instrument],
        device: text(device?.deviceId),
        email: email(customer?.email),
        phone: phone(customer?.telephone, undefined),
        ipAddress: ipAddress(device?.ipAddress),
        merchant: text(transaction.mid),
      },
      occurrence: {
        kind: 'transaction',
        id: text(transaction.transactionId),
        counts: type === undefined || !NOT_AN_ATTEMPT.has(type),
        failed: transaction.success === false || text(transaction.declineCode) !== undefined,
        amount: amountOf(transaction.amount, transaction.currency),
      },
    };
  },
  [EventTopics.customerUpdated]: (payload) => {
    const customer = object(payload.customer);
    return {
      keys: {
        customer: text(customer?.customerId),
        cards: [],
        ...deviceKeys(payload),
        email: email(customer?.email),
        phone: phone(customer?.telephone, customer?.telephoneCountry),
      },
    };
  },
  [EventTopics.registrationSubmitted]: (payload) => {
    const customer = object(payload.customer);
    // A supplier's registration counts for its device, IP, e-mail and phone; suppliers are not customers.
    const registrant = customer ?? object(payload.supplier);
    return {
      keys: {
        customer: text(customer?.customerId),
        cards: [],
        ...deviceKeys(payload),
        email: email(registrant?.email),
        phone: phone(registrant?.telephone, registrant?.telephoneCountry),
      },
      occurrence: { kind: 'registration', id: text(payload.registrationId), counts: true, failed: object(payload.registration)?.success === false },
    };
  },
  [EventTopics.voucherRedemptionSubmitted]: (payload) => {
    const customer = object(payload.customer);
    const redemption = object(payload.voucherRedemption) ?? {};
    const customerId = text(payload.customerId) ?? text(customer?.customerId);
    const code = text(redemption.voucherCode);
    const redeemedAt = typeof redemption.redemptionTime === 'number' ? redemption.redemptionTime : (payload.timestamp as number);
    return {
      keys: { customer: customerId, cards: [], email: email(customer?.email), phone: phone(customer?.telephone, customer?.telephoneCountry) },
      occurrence: {
        kind: 'voucherRedemption',
        // The identity ingestion stores it under: one customer redeeming one code at one time.
        id: customerId !== undefined && code !== undefined ? voucherRedemptionId(customerId, code, redeemedAt) : undefined,
        counts: true,
        failed: redemption.success === false,
        amount: amountOf(redemption.value, redemption.currency),
      },
    };
  },
  [EventTopics.refundRequested]: (payload) => {
    const customer = object(payload.customer);
    const refund = object(payload.refund) ?? {};
    const order = object(payload.order);
    const transactions = objects(payload.transactions);
    return {
      keys: {
        customer: text(customer?.customerId),
        cards: cardsOf(objects(payload.paymentMethods)),
        ...deviceKeys(payload),
        email: email(customer?.email),
        phone: phone(customer?.telephone, customer?.telephoneCountry),
        merchant: transactions.map((transaction) => text(transaction.mid)).find((mid) => mid !== undefined),
      },
      occurrence: {
        kind: 'refund',
        id: text(refund.refundId),
        counts: true,
        failed: false,
        // A refund without a currency is in its order's (as the refund checkpoint reads it).
        amount: amountOf(refund.amount, refund.currency ?? order?.currency),
      },
    };
  },
  [EventTopics.payoutRequested]: (payload) => {
    const payout = object(payload.payout) ?? {};
    const earnings = object(payout.earnings);
    return {
      keys: { cards: cardsOf([...objects([payload.paymentMethod]), ...objects(payload.paymentMethods)]) },
      occurrence: { kind: 'payout', id: text(payout.payoutId), counts: true, failed: false, amount: amountOf(earnings?.totalNetAmount, earnings?.currency) },
    };
  },
} as const satisfies Record<string, Extractor>;

/** The ingest topics velocity reads: the checkpoints' (PAYLOAD_ROUTES rows with a checkpoint). */
export type VelocityTopic = keyof typeof EXTRACTORS;
export const VELOCITY_TOPICS = Object.keys(EXTRACTORS) as VelocityTopic[];

export function isVelocityTopic(topic: string): topic is VelocityTopic {
  return Object.hasOwn(EXTRACTORS, topic);
}

/**
 * The velocity event of an ingest event: its payload in wire JSON (times in epoch ms, as on the
 * bus), and its event id. Null for a topic velocity does not read or a payload without a time.
 */
export function velocityEventOf(topic: string, payload: Wire, eventId: string): VelocityEvent | null {
  if (!isVelocityTopic(topic)) return null;
  const timestampMillis = payload.timestamp;
  if (typeof timestampMillis !== 'number' || !Number.isFinite(timestampMillis)) return null;
  const extractor: Extractor = EXTRACTORS[topic];
  return { eventId, timestampMillis, ...extractor(payload, eventId) };
}

/**
 * The merchant (`transaction.mid`) an ingest event is about, as velocity keys it: the graph's
 * merchant fraud rate is asked about the same one. Undefined when the event names none.
 */
export function merchantOfEvent(topic: string, payload: Wire): string | undefined {
  return isVelocityTopic(topic) ? (EXTRACTORS[topic] as Extractor)(payload, '').keys.merchant : undefined;
}

/** What a `/psp/dispute` event says of its transaction, for counting it against the transaction's card, customer and merchant. */
export interface TransactionDispute {
  disputeId: string;
  transactionId: string;
  /** Already won by the merchant or reversed when it arrives: not a disputed payment (isChargebackForgiven). */
  forgiven: boolean;
}

/**
 * The dispute of an ingest event on the dispute topic (wire JSON); undefined for another topic or
 * a dispute without its disputeId or transactionId. A dispute names only its transaction, so its
 * keys come from the transaction as stored (`disputeVelocityEvent`).
 */
export function transactionDisputeOf(topic: string, payload: Wire): TransactionDispute | undefined {
  if (topic !== EventTopics.disputeUpdated) return undefined;
  const dispute = object(payload.dispute);
  const disputeId = text(dispute?.disputeId);
  const transactionId = text(dispute?.transactionId);
  if (dispute === undefined || disputeId === undefined || transactionId === undefined) return undefined;
  return { disputeId, transactionId, forgiven: isChargebackForgiven(dispute) };
}

/**
 * The velocity event of a dispute, counted at the dispute's own time (when it became known)
 * against the card, the customer and the merchant of its transaction's stored fields (as
 * ingestion keeps them: `mid`, `paymentMethod.instrumentId`, `customerId`). Null when the
 * transaction is not stored (a dispute ahead of its payment counts nothing) or names none of them.
 */
export function disputeVelocityEvent(eventId: string, timestampMillis: number, dispute: TransactionDispute, transactionFields: Wire | undefined): VelocityEvent | null {
  if (transactionFields === undefined) return null;
  const instrument = card(object(transactionFields.paymentMethod)?.instrumentId);
  const keys: VelocityKeys = {
    customer: text(transactionFields.customerId),
    cards: instrument === undefined ? [] : [instrument],
    merchant: text(transactionFields.mid),
  };
  if (keys.customer === undefined && keys.merchant === undefined && keys.cards.length === 0) return null;
  return { eventId, timestampMillis, keys, countsOnly: true, occurrence: { kind: 'dispute', id: dispute.disputeId, counts: !dispute.forgiven, failed: false } };
}
