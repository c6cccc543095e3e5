import type { PaymentMethodType } from '@ringfence/contracts';
import { type ChargebackState, isChargebackForgiven } from '@ringfence/entities';
import type { FixedNodeKind, GraphChange, GraphNodeRef } from '../graph-change';
import { cardIdentity, customNodeIdentity, emailIdentity, identificationIdentity, phoneIdentity, vehicleIdentity } from '../node-identity';

export type Fields = Record<string, unknown>;

/** The node a payload is about: every link has one of these as an endpoint (decisions §4). */
export interface Subject {
  kind: 'customer' | 'supplier';
  identity: string;
}

// The payloads are validated, but open objects may hold anything: every read tolerates any value.
export const asId = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const object = (value: unknown): Fields | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
export const objects = (value: unknown): Fields[] => (Array.isArray(value) ? value.map(object).filter((item) => item !== undefined) : []);

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
export function changesOf(payload: Fields, describe: (changes: PayloadChanges) => void): GraphChange[] {
  if (typeof payload.timestamp !== 'number' || !Number.isFinite(payload.timestamp)) return [];
  const changes = new PayloadChanges(payload.timestamp);
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
  customer(customerId: string | undefined, fields: Fields | undefined): Subject | undefined {
    if (!customerId) return undefined;
    const customer: Subject = { kind: 'customer', identity: customerId };
    this.node(customer);
    this.contact(customer, fields);
    this.tags(customerId, object(fields?.tags));
    return customer;
  }

  /** A supplier object: node and contact. Supplier tags have no place in the graph (only customers carry tags there). */
  supplier(supplierId: string | undefined, fields: Fields | undefined): Subject | undefined {
    if (!supplierId) return undefined;
    const supplier: Subject = { kind: 'supplier', identity: supplierId };
    this.node(supplier);
    this.contact(supplier, fields);
    return supplier;
  }

  /** E-mail and telephone (read with the object's `telephoneCountry`) of a customer, supplier or order. */
  contact(subject: Subject | undefined, fields: Fields | undefined): void {
    if (!fields) return;
    this.link(subject, attribute('email', emailIdentity(text(fields.email))));
    this.link(subject, attribute('phone', phoneIdentity(text(fields.telephone), text(fields.telephoneCountry))));
  }

  /** The payload's device (`deviceId`, else `device.deviceId`), used by whoever the payload is about. */
  device(subjects: ReadonlyArray<Subject | undefined>, payload: Fields): void {
    const deviceId = asId(payload.deviceId) ?? asId(object(payload.device)?.deviceId);
    for (const subject of subjects) this.link(subject, attribute('device', deviceId));
  }

  /** Payout and refund payment methods: only the card variants (`CARD_METHOD_TYPES`). */
  paymentMethodCards(subject: Subject | undefined, methods: Fields[]): void {
    for (const method of methods) if (CARD_METHOD_TYPES.has(method.methodType)) this.card(subject, method);
  }

  /** A card by its instrumentId, else by its paymentMethodId scoped to the subject. */
  card(subject: Subject | undefined, card: Fields | undefined): void {
    if (!subject || !card) return;
    const owner = { kind: subject.kind, id: subject.identity };
    this.link(subject, attribute('card', cardIdentity({ instrumentId: asId(card.instrumentId), paymentMethodId: asId(card.paymentMethodId) }, owner)));
  }

  /** `nationalIdentifications`: each item maps a document kind (`driversLicense`, …) to the document. */
  identifications(subject: Subject | undefined, items: unknown): void {
    for (const item of objects(items)) {
      for (const [documentKind, value] of Object.entries(item)) {
        const document = object(value);
        if (!document) continue;
        const identity = identificationIdentity(documentKind, {
          idNumber: asId(document.idNumber),
          jurisdictionCountry: text(document.jurisdictionCountry),
          jurisdictionState: text(document.jurisdictionState),
        });
        this.link(subject, attribute('identification', identity));
      }
    }
  }

  vehicles(subject: Subject | undefined, items: unknown): void {
    for (const vehicle of objects(items)) {
      const identity = vehicleIdentity({
        vin: asId(vehicle.vin),
        plate: asId(vehicle.plate),
        jurisdictionCountry: text(vehicle.jurisdictionCountry),
        jurisdictionState: text(vehicle.jurisdictionState),
      });
      this.link(subject, attribute('vehicle', identity));
    }
  }

  /** Custom nodes; which customNodeN slot a type takes is the index's business (decisions §4). */
  customNodes(subject: Subject | undefined, items: Fields[]): void {
    for (const item of items) {
      const nodeType = asId(item.nodeType);
      const nodeId = asId(item.nodeId);
      if (nodeType && nodeId) this.link(subject, { kind: 'custom', nodeType, identity: customNodeIdentity(nodeType, nodeId) });
    }
  }

  /**
   * An order: its contact e-mail and telephone are the customer's, and each of its suppliers is
   * a node linked to the customer (the customer–supplier edge of decisions §4).
   */
  order(customer: Subject | undefined, order: Fields | undefined): void {
    if (!order) return;
    this.contact(customer, order);
    for (const item of objects(order.suppliers)) {
      const supplierId = asId(item.supplierId);
      if (!supplierId) continue;
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

  /** Only tag values that are booleans; a map without one changes nothing and is left out. */
  private tags(customerId: string, tags: Fields | undefined): void {
    const booleans = Object.entries(tags ?? {}).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean');
    if (booleans.length > 0) this.list.push({ type: 'tags', customerId, tags: Object.fromEntries(booleans), atMs: this.timestampMs });
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
