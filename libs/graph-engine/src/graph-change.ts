import type { GraphIndex } from './graph-index';
import { CUSTOM_NODE_KINDS, type NodeKind } from './node-kind';

type CustomNodeKind = (typeof CUSTOM_NODE_KINDS)[number];

/** Every node kind whose name is fixed; custom nodes get theirs from the account's slots. */
export type FixedNodeKind = Exclude<NodeKind, CustomNodeKind>;

/**
 * A node as payloads name it. A custom node carries its `nodeType`: which `customNodeN` it is
 * depends on the account's slots (ADR-0004), which only the index and the store know.
 * `identity` is the normalised identity of `node-identity.ts`.
 */
export type GraphNodeRef =
  | { kind: FixedNodeKind; identity: string }
  | { kind: 'custom'; nodeType: string; identity: string };

/**
 * One change to a tenant's graph, as the payloads describe it. Changes are facts, not
 * commands: applying one twice, or applying a set in any order, gives the same graph (edges,
 * transaction owners and disputes keep their earliest first-seen time; labels, chargeback
 * states, tags and redemptions keep the newest `atMs`), which is what at-least-once delivery
 * and a rebuild from the store need.
 */
export type GraphChange =
  /** A customer or supplier named by a payload, linked or not (so connect finds it). */
  | { type: 'node'; node: GraphNodeRef }
  /** An undirected edge, first seen at the payload's time. */
  | { type: 'link'; a: GraphNodeRef; b: GraphNodeRef; firstSeenMs: number }
  /** The customer's current PAYMENT_FRAUD label (null: removed). */
  | { type: 'label'; customerId: string; label: string | null; atMs: number }
  /** A chargeback's state (linking it to its customer is a separate `link`). */
  | { type: 'chargeback'; chargebackId: string; forgiven: boolean; atMs: number }
  /** A customer's tags as a payload sent them. */
  | { type: 'tags'; customerId: string; tags: Readonly<Record<string, boolean>>; atMs: number }
  /** One redemption of a voucher (one per customer, code and redemption time). */
  | { type: 'redemption'; customerId: string; voucherCode: string; redemptionTimeMs: number; success: boolean; atMs: number }
  /**
   * A PSP transaction's customer. Transactions are no nodes: the pair only lets a dispute of the
   * transaction reach its customer, whichever of the two facts arrives first.
   */
  | { type: 'transaction-owner'; transactionId: string; customerId: string; firstSeenMs: number }
  /**
   * A PSP dispute (a chargeback) of a transaction, which names no customer: the chargeback is
   * linked to every customer the transaction has (`transaction-owner`), as soon as both facts
   * are known, the edge first seen at the dispute's time. Its state is a separate `chargeback`.
   */
  | { type: 'dispute'; chargebackId: string; transactionId: string; firstSeenMs: number }
  /**
   * A customer paid at (or was refunded by) a merchant (`transaction.mid`), first at `firstSeenMs`.
   * Merchants are no nodes either: a merchant joins thousands of customers who share nothing
   * else, so it must not make them one network; the pairs only give each merchant's fraud rate
   * (`MerchantCustomers`).
   */
  | { type: 'merchant-customer'; merchantId: string; customerId: string; firstSeenMs: number };

export type GraphChangeType = GraphChange['type'];

/**
 * The node kind of a reference in `index`, assigning a custom slot when the type is new; null
 * for a sixth custom type (nothing is linked for it).
 */
export function resolveNodeKind(index: GraphIndex, node: GraphNodeRef): NodeKind | null {
  return node.kind === 'custom' ? index.customNodeKind(node.nodeType) : node.kind;
}

/** Every node a change names: applying it creates each one the index does not hold yet. */
export function nodesNamedBy(change: GraphChange): GraphNodeRef[] {
  switch (change.type) {
    case 'node':
      return [change.node];
    case 'link':
      return [change.a, change.b];
    case 'chargeback':
    case 'dispute':
      return [{ kind: 'chargeback', identity: change.chargebackId }];
    case 'label':
    case 'tags':
    case 'redemption':
    case 'transaction-owner':
    case 'merchant-customer':
      return [customerNode(change.customerId)];
  }
}

/** Customers and suppliers: the nodes a payload is about. */
export function isSubjectNode(node: GraphNodeRef): boolean {
  return node.kind === 'customer' || node.kind === 'supplier';
}

export const customerNode = (customerId: string): GraphNodeRef => ({ kind: 'customer', identity: customerId });
export const supplierNode = (supplierId: string): GraphNodeRef => ({ kind: 'supplier', identity: supplierId });

export { CUSTOM_NODE_KINDS };
