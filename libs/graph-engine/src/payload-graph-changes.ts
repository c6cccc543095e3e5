import { type LabelCategory, type LabelReview, type LabelSubjectKind, type PayloadFacts, type WireObject, payloadFacts } from '@ringfence/contracts';
import type { GraphChange } from './graph-change';
import { changesOf } from './payload-graph-changes/payload-changes';

/**
 * What each payload adds to a tenant's graph (ADR-0004). Pure: the payload is wire JSON,
 * timestamps already in epoch ms; every edge is first seen at the payload's `timestamp`, every
 * state (tags, chargeback, redemption) is at that time too. Changes come in payload order, each
 * node and edge once; anything without an identity is skipped, never an error.
 *
 * | payload                        | nodes                                 | edges and states                                                        |
 * |--------------------------------|---------------------------------------|-------------------------------------------------------------------------|
 * | POST /v2/customer              | customer, order suppliers             | customer–email/phone/device; order: customer–email/phone/supplier; tags |
 * | POST /v2/supplier              | supplier                              | supplier–email/phone/device/identification/vehicle                      |
 * | POST /v2/registration          | customer and/or supplier              | each–email/phone/device; customer tags                                  |
 * | POST /v2/payout                | supplier, order suppliers             | supplier–email/phone/card (paymentMethod, paymentMethods)               |
 * | POST /v2/refund                | customer, order suppliers             | customer–email/phone/device/card; order: customer–email/phone/supplier; tags; owner of its transactions; merchants (`mid`) |
 * | POST /v2/voucher               | customer (referrerId)                 | none                                                                    |
 * | POST /v2/paymentmethod/voucher | customer                              | customer–email/phone; tags; redemption                                  |
 * | POST /psp/transaction          | customer, order suppliers             | customer–email/phone/device/card; order as above; tags; transaction owner; merchant (`mid`) |
 * | POST /psp/dispute              | chargeback (disputeId)                | dispute of its transaction (customer–chargeback once the owner is known); chargeback state |
 * | POST /v2/connect               | customer                              | customer–email/phone/device/card/identification/vehicle/custom/chargeback; tags; chargeback states |
 * | label event                    | (the label creates its customer)      | customer PAYMENT_FRAUD label                                            |
 *
 * The original service's other v2 paths arrive as these payloads (the gateway maps them): `/v2/order`,
 * `/v2/login` and customer tags as POST /v2/customer (an order in `order`), `/v2/checkout` and
 * `/v2/transaction` as POST /psp/transaction (with `order`), `/v2/chargeback` as a connect chargeback.
 *
 * The `registration` object is never read: it holds the password hash, and its username is not
 * an e-mail address by contract. The connect `review` is not read either: the gateway applies it
 * through the labelling service like the label endpoint (ADR-0004), whose event reaches
 * `labelGraphChanges` with the label's own time.
 */

/** A payload as wire JSON; its `timestamp` (epoch ms) is always there once validated. */
export type WirePayload = Record<string, unknown>;

/** POST /v2/customer. */
export function customerGraphChanges(facts: PayloadFacts): GraphChange[] {
  return changesOf(facts, (changes) => {
    const customer = changes.customer(facts.customerId, facts.customer);
    changes.device([customer], facts.device);
    changes.order(customer, facts.order);
  });
}

/** POST /v2/supplier. */
export function supplierGraphChanges(facts: PayloadFacts): GraphChange[] {
  return changesOf(facts, (changes) => {
    const supplier = changes.supplier(facts.supplier?.id, facts.supplier);
    changes.device([supplier], facts.device);
    changes.identifications(supplier, facts.identifications);
    changes.vehicles(supplier, facts.vehicles);
  });
}

/** POST /v2/registration: the customer or supplier registering, and the device they used. */
export function registrationGraphChanges(facts: PayloadFacts): GraphChange[] {
  return changesOf(facts, (changes) => {
    const customer = changes.customer(facts.customer?.id, facts.customer);
    const supplier = changes.supplier(facts.supplier?.id, facts.supplier);
    changes.device([customer, supplier], facts.device);
  });
}

/** POST /v2/payout: the recipient and the cards the payout goes to (the deprecated array too). */
export function payoutGraphChanges(facts: PayloadFacts): GraphChange[] {
  return changesOf(facts, (changes) => {
    const supplier = changes.supplier(facts.supplier?.id, facts.supplier);
    changes.paymentMethodCards(supplier, facts.paymentMethod ? [facts.paymentMethod, ...facts.paymentMethods] : facts.paymentMethods);
    // A payout names no customer: an order's suppliers are nodes, linked to nobody.
    changes.order(undefined, facts.order);
  });
}

/**
 * POST /v2/refund. The refund `transactions` only name payment methods by id, which the
 * `paymentMethods` carry with their cards; their customer is the refund's, so a dispute of one
 * of them reaches it (as the entity store keeps them: transactions with their customer).
 */
export function refundGraphChanges(facts: PayloadFacts): GraphChange[] {
  return changesOf(facts, (changes) => {
    const customer = changes.customer(facts.customerId, facts.customer);
    changes.device([customer], facts.device);
    changes.paymentMethodCards(customer, facts.paymentMethods);
    changes.order(customer, facts.order);
    for (const transaction of facts.transactions) {
      changes.transactionOwner(customer, transaction.id);
      changes.merchantCustomer(customer, transaction.merchantId);
    }
  });
}

/**
 * POST /v2/voucher: the referrer is a customer, so it becomes a node; nothing links. A voucher is
 * not a node kind, and joining the referrer to whoever redeems would be a customer–customer edge,
 * which ADR-0004 does not have (the voucher check counts redemptions instead).
 */
export function voucherGraphChanges(facts: PayloadFacts): GraphChange[] {
  return changesOf(facts, (changes) => {
    changes.customer(facts.voucher?.referrerId, undefined);
  });
}

/**
 * POST /v2/paymentmethod/voucher: the customer redeeming (top-level `customerId`, else
 * `customer.customerId`, as `redeemingCustomerId` of the contracts) and the redemption. A guest's
 * customerId is often its e-mail address; it stays an identifier, not an e-mail node.
 */
export function voucherRedemptionGraphChanges(facts: PayloadFacts): GraphChange[] {
  return changesOf(facts, (changes) => {
    const { customerId, voucherRedemption: redemption } = facts;
    changes.customer(customerId, facts.customer);
    if (customerId && redemption?.code) {
      changes.redemption(customerId, redemption.code, redemption.redemptionTimeMs ?? changes.timestampMs, redemption.success !== false);
    }
  });
}

/**
 * POST /psp/transaction: the paying customer, its device and card. The PSP `paymentMethod` is
 * a card whatever its `methodType` (ADR-0004 lists it as a card source; its fields are a
 * card's and its methodType values are not shown). Without a customer nothing links. With one,
 * the transaction's owner, which its disputes reach (`pspDisputePayloadGraphChanges`).
 */
export function pspTransactionGraphChanges(facts: PayloadFacts): GraphChange[] {
  return changesOf(facts, (changes) => {
    const customer = changes.customer(facts.customerId, facts.customer);
    changes.device([customer], facts.device);
    changes.card(customer, facts.paymentMethod);
    changes.order(customer, facts.order);
    changes.transactionOwner(customer, facts.transaction?.id);
    changes.merchantCustomer(customer, facts.transaction?.merchantId);
  });
}

/**
 * POST /psp/dispute: the chargeback's state, and the dispute of the transaction it names. The
 * dispute names no customer: `TenantGraph` links the chargeback to the transaction's customer
 * once it knows both, whichever of the dispute and the transaction came first.
 */
export function pspDisputeGraphChanges(facts: PayloadFacts): GraphChange[] {
  return changesOf(facts, (changes) => {
    const { dispute } = facts;
    if (dispute) changes.dispute(dispute.id, dispute.transactionId, dispute.fields);
  });
}

/** POST /v2/connect: everything in the body joins the customer (`customerId`, else `customer.customerId`). */
export function connectGraphChanges(facts: PayloadFacts): GraphChange[] {
  return changesOf(facts, (changes) => {
    const customer = changes.customer(facts.customerId, facts.customer);
    changes.device([customer], facts.device);
    for (const card of facts.connectCards) changes.card(customer, card);
    changes.identifications(customer, facts.identifications);
    changes.vehicles(customer, facts.vehicles);
    changes.customNodes(customer, facts.customNodes);
    const { chargeback, dispute } = facts;
    if (chargeback) changes.chargeback(customer, chargeback.id, chargeback.fields);
    if (dispute) changes.chargeback(customer, dispute.id, dispute.fields);
  });
}

/** The same changes of a payload in wire JSON (for a handler with no other reader of its facts). */
export const customerPayloadGraphChanges = (payload: WireObject): GraphChange[] => customerGraphChanges(payloadFacts(payload));
export const supplierPayloadGraphChanges = (payload: WireObject): GraphChange[] => supplierGraphChanges(payloadFacts(payload));
export const registrationPayloadGraphChanges = (payload: WireObject): GraphChange[] => registrationGraphChanges(payloadFacts(payload));
export const payoutPayloadGraphChanges = (payload: WireObject): GraphChange[] => payoutGraphChanges(payloadFacts(payload));
export const refundPayloadGraphChanges = (payload: WireObject): GraphChange[] => refundGraphChanges(payloadFacts(payload));
export const voucherPayloadGraphChanges = (payload: WireObject): GraphChange[] => voucherGraphChanges(payloadFacts(payload));
export const voucherRedemptionPayloadGraphChanges = (payload: WireObject): GraphChange[] => voucherRedemptionGraphChanges(payloadFacts(payload));
export const pspTransactionPayloadGraphChanges = (payload: WireObject): GraphChange[] => pspTransactionGraphChanges(payloadFacts(payload));
export const pspDisputePayloadGraphChanges = (payload: WireObject): GraphChange[] => pspDisputeGraphChanges(payloadFacts(payload));
export const connectPayloadGraphChanges = (payload: WireObject): GraphChange[] => connectGraphChanges(payloadFacts(payload));

/** A stored label, as the labelling service publishes it (`LabelUpdatedEvent` satisfies this). */
export interface GraphLabelEvent {
  subjectKind: string;
  subjectId: string;
  category: string;
  review: string;
  /** When the label was applied, epoch ms. */
  eventTime: number;
}

// Typed by the label vocabulary, so a renamed value breaks the build rather than the graph.
const LABELLED_SUBJECT: LabelSubjectKind = 'customer';
const GRAPH_LABEL_CATEGORY: LabelCategory = 'PAYMENT_FRAUD';
const CLEARING_REVIEW: LabelReview = 'UNREVIEWED';

/**
 * Only a customer's PAYMENT_FRAUD label decides who is a fraudster in the graph (ADR-0004);
 * REFUND_ABUSE and supplier labels change nothing there. UNREVIEWED clears the label.
 */
export function labelGraphChanges(event: GraphLabelEvent): GraphChange[] {
  if (event.subjectKind !== LABELLED_SUBJECT || event.category !== GRAPH_LABEL_CATEGORY || !event.subjectId) return [];
  const label = event.review === CLEARING_REVIEW ? null : event.review;
  return [{ type: 'label', customerId: event.subjectId, label, atMs: event.eventTime }];
}
