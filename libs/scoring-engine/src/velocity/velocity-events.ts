import { EventTopics, type PartyFacts, type PayloadFacts, type PayloadMoney, type PaymentMethodFacts, namedText, objectOf, payloadFacts } from '@ringfence/contracts';
import { isChargebackForgiven, voucherRedemptionIdOf } from '@ringfence/entities';
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

const amountOf = (money: PayloadMoney | undefined): Money | undefined => money && { minorUnits: money.minorUnits, currency: money.currency ?? null };

function email(value: string | undefined): string | undefined {
  return value === undefined ? undefined : normaliseEmail(value) || undefined;
}

/** E.164 as the graph and lookup read it; a country code that cannot be read is ignored, never an error. */
function phone(value: string | undefined, country: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let normalised: string;
  try {
    normalised = normaliseTelephone(value, country);
  } catch {
    normalised = normaliseTelephone(value);
  }
  return normalised || undefined;
}

function ipAddress(value: string | undefined): string | undefined {
  const raw = value?.trim();
  return raw === undefined ? undefined : (canonicalIpAddress(raw) ?? raw.toLowerCase());
}

const card = (instrumentId: string | undefined): string | undefined => (instrumentId === undefined ? undefined : normalisePaymentIdentifier(instrumentId));

/** The instrumentIds of a payload's card payment methods (v2 payment-method variants). */
function cardsOf(methods: readonly PaymentMethodFacts[]): string[] {
  const cards = methods.filter((method) => method.methodType === 'card').map((method) => card(method.instrumentId));
  return [...new Set(cards.filter((instrument) => instrument !== undefined))];
}

/** The e-mail and telephone of a customer or supplier, normalised. */
const contactKeys = (party: PartyFacts | undefined): Pick<VelocityKeys, 'email' | 'phone'> => ({
  email: email(party?.email),
  phone: phone(party?.telephone, party?.telephoneCountry),
});

/** The payload's device and its IP address. */
const deviceKeys = ({ device }: PayloadFacts): Pick<VelocityKeys, 'device' | 'ipAddress'> => ({ device: device.id, ipAddress: ipAddress(device.ipAddress) });

/** PSP transaction steps that are not a payment attempt (value set not fixed by the specification). */
const NOT_AN_ATTEMPT = new Set(['refund', 'reversal', 'void', 'cancel', 'cancellation', 'chargeback', 'credit']);

type Extractor = (facts: PayloadFacts) => Omit<VelocityEvent, 'eventId' | 'timestampMillis'>;

/**
 * What each ingest topic feeds (the velocity README has the table), from the payload's facts.
 * Supplier updates, vouchers, disputes and connect carry no activity of a customer, card, device
 * or merchant at a time: connect declares links, disputes arrive weeks later about an old transaction.
 */
const EXTRACTORS = {
  [EventTopics.transactionUpdated]: (facts) => {
    const { transaction } = facts;
    const instrument = card(facts.paymentMethod?.instrumentId);
    const type = transaction?.type?.trim().toLowerCase();
    return {
      keys: {
        customer: facts.customerId,
        cards: instrument === undefined ? [] : [instrument],
        ...deviceKeys(facts),
        email: email(facts.customer?.email),
        // A PSP customer's telephone is read without a country (its open object may carry one).
        phone: phone(facts.customer?.telephone, undefined),
        merchant: facts.merchantId,
      },
      occurrence: {
        kind: 'transaction',
        id: transaction?.id,
        counts: type === undefined || !NOT_AN_ATTEMPT.has(type),
        failed: transaction?.success === false || transaction?.declineCode !== undefined,
        amount: amountOf(facts.money),
      },
    };
  },
  [EventTopics.customerUpdated]: (facts) => ({
    keys: { customer: facts.customerId, cards: [], ...deviceKeys(facts), ...contactKeys(facts.customer) },
  }),
  [EventTopics.registrationSubmitted]: (facts) => ({
    // A supplier's registration counts for its device, IP, e-mail and phone; suppliers are not customers.
    keys: { customer: facts.customer?.id, cards: [], ...deviceKeys(facts), ...contactKeys(facts.customer ?? facts.supplier) },
    occurrence: { kind: 'registration', id: facts.registration.id, counts: true, failed: facts.registration.success === false },
  }),
  [EventTopics.voucherRedemptionSubmitted]: (facts) => ({
    keys: { customer: facts.customerId, cards: [], ...contactKeys(facts.customer) },
    occurrence: {
      kind: 'voucherRedemption',
      // The identity ingestion stores it under: one customer redeeming one code at one time.
      id: voucherRedemptionIdOf(facts),
      counts: true,
      failed: facts.voucherRedemption?.success === false,
      amount: amountOf(facts.money),
    },
  }),
  [EventTopics.refundRequested]: (facts) => ({
    keys: { customer: facts.customerId, cards: cardsOf(facts.paymentMethods), ...deviceKeys(facts), ...contactKeys(facts.customer), merchant: facts.merchantId },
    // A refund without a currency is in its order's (`PayloadFacts.money`, as the refund checkpoint reads it).
    occurrence: { kind: 'refund', id: facts.refund?.id, counts: true, failed: false, amount: amountOf(facts.money) },
  }),
  [EventTopics.payoutRequested]: (facts) => ({
    keys: { cards: cardsOf(facts.paymentMethod ? [facts.paymentMethod, ...facts.paymentMethods] : facts.paymentMethods) },
    occurrence: { kind: 'payout', id: facts.payout?.id, counts: true, failed: false, amount: amountOf(facts.money) },
  }),
} as const satisfies Record<string, Extractor>;

/** The ingest topics velocity reads: the checkpoints' (PAYLOAD_ROUTES rows with a checkpoint). */
export type VelocityTopic = keyof typeof EXTRACTORS;
export const VELOCITY_TOPICS = Object.keys(EXTRACTORS) as VelocityTopic[];

export function isVelocityTopic(topic: string): topic is VelocityTopic {
  return Object.hasOwn(EXTRACTORS, topic);
}

/**
 * The velocity event of an ingest event: the facts of its payload, and its event id. Null for a
 * topic velocity does not read or a payload without a time.
 */
export function velocityEventOfFacts(topic: string, facts: PayloadFacts, eventId: string): VelocityEvent | null {
  if (!isVelocityTopic(topic) || facts.timestampMs === undefined) return null;
  const extractor: Extractor = EXTRACTORS[topic];
  return { eventId, timestampMillis: facts.timestampMs, ...extractor(facts) };
}

/** `velocityEventOfFacts` of a payload in wire JSON (times in epoch ms, as on the bus). */
export function velocityEventOf(topic: string, payload: Wire, eventId: string): VelocityEvent | null {
  return velocityEventOfFacts(topic, payloadFacts(payload), eventId);
}

/**
 * The merchant (`transaction.mid`) an ingest event is about, as velocity keys it: the graph's
 * merchant fraud rate is asked about the same one. Undefined when the event names none.
 */
export function merchantOfFacts(topic: string, facts: PayloadFacts): string | undefined {
  return isVelocityTopic(topic) ? (EXTRACTORS[topic] as Extractor)(facts).keys.merchant : undefined;
}

/** `merchantOfFacts` of a payload in wire JSON. */
export function merchantOfEvent(topic: string, payload: Wire): string | undefined {
  return merchantOfFacts(topic, payloadFacts(payload));
}

/** What a `/psp/dispute` event says of its transaction, for counting it against the transaction's card, customer and merchant. */
export interface TransactionDispute {
  disputeId: string;
  transactionId: string;
  /** Already won by the merchant or reversed when it arrives: not a disputed payment (isChargebackForgiven). */
  forgiven: boolean;
}

/**
 * The dispute of an ingest event on the dispute topic; undefined for another topic or a dispute
 * without its disputeId or transactionId. A dispute names only its transaction, so its keys come
 * from the transaction as stored (`disputeVelocityEvent`).
 */
export function transactionDisputeOfFacts(topic: string, { dispute }: PayloadFacts): TransactionDispute | undefined {
  if (topic !== EventTopics.disputeUpdated || dispute?.id === undefined || dispute.transactionId === undefined) return undefined;
  return { disputeId: dispute.id, transactionId: dispute.transactionId, forgiven: isChargebackForgiven(dispute.fields) };
}

/** `transactionDisputeOfFacts` of a payload in wire JSON. */
export function transactionDisputeOf(topic: string, payload: Wire): TransactionDispute | undefined {
  return topic === EventTopics.disputeUpdated ? transactionDisputeOfFacts(topic, payloadFacts(payload)) : undefined;
}

/**
 * The velocity event of a dispute, counted at the dispute's own time (when it became known)
 * against the card, the customer and the merchant of its transaction's stored fields (as
 * ingestion keeps them: `mid`, `paymentMethod.instrumentId`, `customerId`; a stored document,
 * not a payload, read with the payloads' rule for blank strings). Null when the transaction is
 * not stored (a dispute ahead of its payment counts nothing) or names none of them.
 */
export function disputeVelocityEvent(eventId: string, timestampMillis: number, dispute: TransactionDispute, transactionFields: Wire | undefined): VelocityEvent | null {
  if (transactionFields === undefined) return null;
  const instrument = card(namedText(objectOf(transactionFields.paymentMethod)?.instrumentId));
  const keys: VelocityKeys = {
    customer: namedText(transactionFields.customerId),
    cards: instrument === undefined ? [] : [instrument],
    merchant: namedText(transactionFields.mid),
  };
  if (keys.customer === undefined && keys.merchant === undefined && keys.cards.length === 0) return null;
  return { eventId, timestampMillis, keys, countsOnly: true, occurrence: { kind: 'dispute', id: dispute.disputeId, counts: !dispute.forgiven, failed: false } };
}
