import type { CustomNodeFacts, DeviceFacts, IdentificationFacts, OrderFacts, PartyFacts, PayloadFacts, PaymentMethodFacts, PaymentMethodType, VehicleFacts } from '@ringfence/contracts';
import { type ChargebackState, isChargebackForgiven } from '@ringfence/entities';
import type { FixedNodeKind, GraphChange, GraphNodeRef } from '../graph-change';
import { cardIdentity, customNodeIdentity, emailIdentity, identificationIdentity, phoneIdentity, vehicleIdentity } from '../node-identity';

/** The node a payload is about: every link has one of these as an endpoint (ADR-0004). */
export interface Subject {
  kind: 'customer' | 'supplier';
  identity: string;
}

/** Whose e-mail and telephone: a customer, a supplier or an order. */
type Contact = Pick<PartyFacts, 'email' | 'telephone' | 'telephoneCountry'>;

/**
 * The payout and refund payment-method variants that are cards (specification §2.2): `card`,
 * and `paymentMethodCipher`, which is a card's full details encrypted by a client SDK. Every
 * other variant is not a card: cash, bank account, PayPal, merchant credit, invoice, wallet
 * (its fields are not shown; it names no card), the deprecated direct debit, bank transfer and other;
 * `fromTransaction` only points at another transaction's method, and `removal` marks a saved
 * method removed (edges are never removed, and it carries no card of its own).
 */
const CARD_METHOD_TYPES: ReadonlySet<unknown> = new Set(['card', 'paymentMethodCipher'] satisfies PaymentMethodType[]);

const attribute = (kind: FixedNodeKind, identity: string | null | undefined): GraphNodeRef | null => (identity ? { kind, identity } : null);

/** A key per node, equal exactly when two references name the same node. */
const nodeKey = (node: GraphNodeRef): string => JSON.stringify(node.kind === 'custom' ? [node.kind, node.nodeType, node.identity] : [node.kind, node.identity]);

/**
 * The changes `describe` adds for a payload. A validated payload always has its `timestamp`;
 * one without a numeric time could date none of its edges, so it adds nothing (ingestion must
 * not fail on it).
 */
export function changesOf(facts: PayloadFacts, describe: (changes: PayloadChanges) => void): GraphChange[] {
  if (facts.timestampMs === undefined) return [];
  const changes = new PayloadChanges(facts.timestampMs);
  describe(changes);
  return changes.list;
}

/**
 * The graph changes of one payload, in the order they are added, each node and edge once (a
 * refund may name the same e-mail for its customer and its order). Edges are first seen at the
 * payload's `timestamp`. Every method taking a subject does nothing without one, so a payload
 * that names no customer or supplier links nothing.
 */
export class PayloadChanges {
  readonly list: GraphChange[] = [];
  private readonly added = new Set<string>();

  /** `timestampMs`: the payload's `timestamp`, epoch ms. */
  constructor(readonly timestampMs: number) {}

  /** A customer object (customer, connect, registration, refund, redemption, PSP): node, contact, tags. */
  customer(customerId: string | undefined, party: PartyFacts | undefined): Subject | undefined {
    if (!customerId) return undefined;
    const customer: Subject = { kind: 'customer', identity: customerId };
    this.node(customer);
    this.contact(customer, party);
    this.tags(customerId, party?.tags);
    return customer;
  }

  /** A supplier object: node and contact. Supplier tags have no place in the graph (only customers carry tags there). */
  supplier(supplierId: string | undefined, party: PartyFacts | undefined): Subject | undefined {
    if (!supplierId) return undefined;
    const supplier: Subject = { kind: 'supplier', identity: supplierId };
    this.node(supplier);
    this.contact(supplier, party);
    return supplier;
  }

  /** E-mail and telephone (read with the object's `telephoneCountry`) of a customer, supplier or order. */
  contact(subject: Subject | undefined, contact: Contact | undefined): void {
    if (!contact) return;
    this.link(subject, attribute('email', emailIdentity(contact.email)));
    this.link(subject, attribute('phone', phoneIdentity(contact.telephone, contact.telephoneCountry)));
  }

  /** The payload's device (`deviceId`, else `device.deviceId`), used by whoever the payload is about. */
  device(subjects: ReadonlyArray<Subject | undefined>, device: DeviceFacts): void {
    for (const subject of subjects) this.link(subject, attribute('device', device.id));
  }

  /** Payout and refund payment methods: only the card variants (`CARD_METHOD_TYPES`). */
  paymentMethodCards(subject: Subject | undefined, methods: readonly PaymentMethodFacts[]): void {
    for (const method of methods) if (CARD_METHOD_TYPES.has(method.methodType)) this.card(subject, method);
  }

  /** A card by its instrumentId, else by its paymentMethodId scoped to the subject. */
  card(subject: Subject | undefined, card: PaymentMethodFacts | undefined): void {
    if (!subject || !card) return;
    const owner = { kind: subject.kind, id: subject.identity };
    this.link(subject, attribute('card', cardIdentity({ instrumentId: card.instrumentId, paymentMethodId: card.paymentMethodId }, owner)));
  }

  /** `nationalIdentifications`: a document kind (`driversLicense`, …) with its document. */
  identifications(subject: Subject | undefined, documents: readonly IdentificationFacts[]): void {
    for (const { documentKind, ...document } of documents) this.link(subject, attribute('identification', identificationIdentity(documentKind, document)));
  }

  vehicles(subject: Subject | undefined, vehicles: readonly VehicleFacts[]): void {
    for (const vehicle of vehicles) this.link(subject, attribute('vehicle', vehicleIdentity(vehicle)));
  }

  /** Custom nodes; which customNodeN slot a type takes is the index's business (ADR-0004). */
  customNodes(subject: Subject | undefined, nodes: readonly CustomNodeFacts[]): void {
    for (const { nodeType, nodeId } of nodes) {
      if (nodeType && nodeId) this.link(subject, { kind: 'custom', nodeType, identity: customNodeIdentity(nodeType, nodeId) });
    }
  }

  /**
   * An order: its contact e-mail and telephone are the customer's, and each of its suppliers is
   * a node linked to the customer (the customer–supplier edge of ADR-0004).
   */
  order(customer: Subject | undefined, order: OrderFacts | undefined): void {
    if (!order) return;
    this.contact(customer, order);
    for (const supplierId of order.supplierIds) {
      const supplier: Subject = { kind: 'supplier', identity: supplierId };
      this.node(supplier);
      this.link(customer, supplier);
    }
  }

  /** A connect chargeback or a dispute: linked to the customer when there is one, and its state either way. */
  chargeback(customer: Subject | undefined, chargebackId: string | undefined, state: ChargebackState): void {
    if (!chargebackId) return;
    this.link(customer, { kind: 'chargeback', identity: chargebackId });
    this.list.push({ type: 'chargeback', chargebackId, forgiven: isChargebackForgiven(state), atMs: this.timestampMs });
  }

  /** A PSP transaction's customer, so that the transaction's disputes reach it. */
  transactionOwner(customer: Subject | undefined, transactionId: string | undefined): void {
    if (customer?.kind !== 'customer' || !transactionId) return;
    this.list.push({ type: 'transaction-owner', transactionId, customerId: customer.identity, firstSeenMs: this.timestampMs });
  }

  /** The customer paid at (or was refunded by) the merchant `merchantId` (`transaction.mid`). */
  merchantCustomer(customer: Subject | undefined, merchantId: string | undefined): void {
    if (customer?.kind !== 'customer' || !merchantId) return;
    this.once(`merchant:${JSON.stringify([customer.identity, merchantId])}`, { type: 'merchant-customer', merchantId, customerId: customer.identity, firstSeenMs: this.timestampMs });
  }

  /**
   * A PSP dispute: the dispute of its transaction (without one the chargeback reaches nobody)
   * and the chargeback's state either way.
   */
  dispute(chargebackId: string | undefined, transactionId: string | undefined, state: ChargebackState): void {
    if (!chargebackId) return;
    if (transactionId) this.list.push({ type: 'dispute', chargebackId, transactionId, firstSeenMs: this.timestampMs });
    this.chargeback(undefined, chargebackId, state);
  }

  redemption(customerId: string, voucherCode: string, redemptionTimeMs: number, success: boolean): void {
    this.list.push({ type: 'redemption', customerId, voucherCode, redemptionTimeMs, success, atMs: this.timestampMs });
  }

  private node(node: Subject): void {
    this.once(`node:${nodeKey(node)}`, { type: 'node', node });
  }

  /** Only tag values that are booleans (`PartyFacts.tags`); a map without one changes nothing and is left out. */
  private tags(customerId: string, tags: Readonly<Record<string, boolean>> | undefined): void {
    if (tags !== undefined && Object.keys(tags).length > 0) this.list.push({ type: 'tags', customerId, tags: { ...tags }, atMs: this.timestampMs });
  }

  /**
   * Every edge runs from the subject to a node of another kind (an attribute, a chargeback, or
   * an order's supplier from a customer), so no edge joins a node to itself.
   */
  private link(subject: Subject | undefined, other: GraphNodeRef | null): void {
    if (!subject || !other) return;
    this.once(`link:${JSON.stringify([nodeKey(subject), nodeKey(other)])}`, { type: 'link', a: subject, b: other, firstSeenMs: this.timestampMs });
  }

  private once(key: string, change: GraphChange): void {
    if (this.added.has(key)) return;
    this.added.add(key);
    this.list.push(change);
  }
}
