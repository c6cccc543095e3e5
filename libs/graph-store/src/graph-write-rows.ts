import { CUSTOM_NODE_KINDS, type GraphChange, type GraphNodeRef, NODE_KINDS, type NodeKind } from '@ringfence/graph-engine';

/** A node as both stores key it: custom nodes by their slot kind (`customNode1..5`). */
export interface NodeRow {
  kind: NodeKind;
  identity: string;
}

/** An undirected edge with its endpoints in canonical order (`a` before `b`), so it is one row. */
export interface LinkRow {
  kindA: NodeKind;
  identityA: string;
  kindB: NodeKind;
  identityB: string;
  firstSeenMs: number;
}

export interface LabelRow {
  customerId: string;
  label: string | null;
  atMs: number;
}

export interface ChargebackRow {
  chargebackId: string;
  forgiven: boolean;
  atMs: number;
}

export interface TagRow {
  customerId: string;
  name: string;
  value: boolean;
  atMs: number;
}

export interface RedemptionRow {
  customerId: string;
  voucherCode: string;
  redemptionTimeMs: number;
  success: boolean;
  atMs: number;
}

/** A PSP transaction's customer, first seen at `firstSeenMs`. */
export interface TransactionOwnerRow {
  transactionId: string;
  customerId: string;
  firstSeenMs: number;
}

/** A PSP dispute (chargeback) of a transaction, first seen at `firstSeenMs`. */
export interface DisputeRow {
  transactionId: string;
  chargebackId: string;
  firstSeenMs: number;
}

/** A customer paid at a merchant (`transaction.mid`), first seen at `firstSeenMs`. */
export interface MerchantCustomerRow {
  merchantId: string;
  customerId: string;
  firstSeenMs: number;
}

/**
 * One batch of changes as rows, one per key, each table sorted by its key. One row per key
 * because a single `INSERT … ON CONFLICT DO UPDATE` (or an `UNWIND … MERGE`) must not meet a
 * key twice; sorted so that concurrent writers lock rows in the same order and cannot deadlock.
 */
export interface GraphWriteRows {
  nodes: NodeRow[];
  links: LinkRow[];
  labels: LabelRow[];
  chargebacks: ChargebackRow[];
  tags: TagRow[];
  redemptions: RedemptionRow[];
  transactionOwners: TransactionOwnerRow[];
  disputes: DisputeRow[];
  merchantCustomers: MerchantCustomerRow[];
}

/** Five custom-node slots per tenant (ADR-0004). */
export const CUSTOM_NODE_SLOTS = CUSTOM_NODE_KINDS.length;

const FIXED_NODE_KINDS: ReadonlySet<string> = new Set(NODE_KINDS.filter((kind) => !(CUSTOM_NODE_KINDS as readonly string[]).includes(kind)));

/**
 * The custom node types of a batch in the order `TenantGraph.apply` meets them: a node's type,
 * a link's `a` then `b` (both are resolved, so both take a slot, even when the other one is a
 * sixth type and the link is dropped).
 */
export function customNodeTypesIn(changes: readonly GraphChange[]): string[] {
  const seen = new Set<string>();
  const visit = (node: GraphNodeRef) => {
    if (node.kind === 'custom') seen.add(node.nodeType);
  };
  for (const change of changes) {
    if (change.type === 'node') visit(change.node);
    else if (change.type === 'link') {
      visit(change.a);
      visit(change.b);
    }
  }
  return [...seen];
}

/**
 * The tenant's slots after `appearing` met the `known` ones: new types take the free slots in
 * order of appearance; a type arriving when all five are taken gets none, ever.
 */
export function assignCustomNodeTypes(known: readonly string[], appearing: readonly string[]): string[] {
  const assigned = [...known];
  for (const nodeType of appearing) {
    if (assigned.length >= CUSTOM_NODE_SLOTS) break;
    if (!assigned.includes(nodeType)) assigned.push(nodeType);
  }
  return assigned;
}

/** True when `appearing` holds a type that `known` lacks and a slot is still free. */
export function needsNewCustomSlots(known: readonly string[], appearing: readonly string[]): boolean {
  return known.length < CUSTOM_NODE_SLOTS && appearing.some((nodeType) => !known.includes(nodeType));
}

/**
 * Merges a batch into rows with the rules of `TenantGraph.apply`, given the tenant's slots
 * (already including the batch's new types): an edge, a transaction owner, a dispute and a
 * merchant's customer keep their earliest first-seen time; a label, chargeback state, tag value
 * or redemption state keeps the newest `atMs`, a later change with an equal one replacing it; a
 * node or link touching a type without a slot is dropped; a node is never linked to itself.
 * Labels, tags, redemptions, transaction owners and merchants' customers also store their
 * customer, chargeback states and disputes their chargeback node, as `apply` creates them. The
 * customer–chargeback edges that `apply` derives from owners and disputes are not rows: a
 * rebuild derives them again.
 * Throws a `TypeError` or `RangeError` for a kind that is not one or a time that is not an
 * integer number of milliseconds (a caller bug; nothing of the batch is written).
 */
export function toWriteRows(changes: readonly GraphChange[], customNodeTypes: readonly string[]): GraphWriteRows {
  const rows = new WriteRowsBuilder(customNodeTypes);
  for (const change of changes) rows.add(change);
  return rows.sorted();
}

type ChangeOf<Type extends GraphChange['type']> = Extract<GraphChange, { type: Type }>;

/** A batch's rows as they collect: one map per table, by the row's key. */
class WriteRowsBuilder {
  private readonly nodes = new Map<string, NodeRow>();
  private readonly links = new Map<string, LinkRow>();
  private readonly labels = new Map<string, LabelRow>();
  private readonly chargebacks = new Map<string, ChargebackRow>();
  private readonly tags = new Map<string, TagRow>();
  private readonly redemptions = new Map<string, RedemptionRow>();
  private readonly transactionOwners = new Map<string, TransactionOwnerRow>();
  private readonly disputes = new Map<string, DisputeRow>();
  private readonly merchantCustomers = new Map<string, MerchantCustomerRow>();

  constructor(private readonly customNodeTypes: readonly string[]) {}

  add(change: GraphChange): void {
    switch (change.type) {
      case 'node': {
        const row = this.rowOf(change.node);
        if (row !== null) this.addNode(row);
        break;
      }
      case 'link':
        this.addLink(change);
        break;
      case 'label':
        this.addNode({ kind: 'customer', identity: change.customerId });
        keepNewest(this.labels, change.customerId, { customerId: change.customerId, label: change.label, atMs: epochMs(change.atMs, 'atMs') });
        break;
      case 'chargeback':
        this.addNode({ kind: 'chargeback', identity: change.chargebackId });
        keepNewest(this.chargebacks, change.chargebackId, { chargebackId: change.chargebackId, forgiven: change.forgiven, atMs: epochMs(change.atMs, 'atMs') });
        break;
      case 'tags':
        this.addTags(change);
        break;
      case 'redemption':
        this.addRedemption(change);
        break;
      case 'transaction-owner':
      case 'dispute':
      case 'merchant-customer':
        this.addFirstSeen(change);
        break;
    }
  }

  sorted(): GraphWriteRows {
    return {
      nodes: [...this.nodes.values()].sort(compareNodes),
      links: [...this.links.values()].sort(compareLinks),
      labels: [...this.labels.values()].sort((x, y) => compareText(x.customerId, y.customerId)),
      chargebacks: [...this.chargebacks.values()].sort((x, y) => compareText(x.chargebackId, y.chargebackId)),
      tags: [...this.tags.values()].sort((x, y) => compareText(x.customerId, y.customerId) || compareText(x.name, y.name)),
      redemptions: [...this.redemptions.values()].sort(
        (x, y) => compareText(x.customerId, y.customerId) || compareText(x.voucherCode, y.voucherCode) || x.redemptionTimeMs - y.redemptionTimeMs,
      ),
      transactionOwners: [...this.transactionOwners.values()].sort((x, y) => compareText(x.transactionId, y.transactionId) || compareText(x.customerId, y.customerId)),
      disputes: [...this.disputes.values()].sort((x, y) => compareText(x.transactionId, y.transactionId) || compareText(x.chargebackId, y.chargebackId)),
      merchantCustomers: [...this.merchantCustomers.values()].sort((x, y) => compareText(x.merchantId, y.merchantId) || compareText(x.customerId, y.customerId)),
    };
  }

  private addNode(row: NodeRow): void {
    this.nodes.set(nodeKey(row), row);
  }

  private rowOf(node: GraphNodeRef): NodeRow | null {
    const kind = kindOf(node, this.customNodeTypes);
    return kind === null ? null : { kind, identity: node.identity };
  }

  private addLink(change: ChangeOf<'link'>): void {
    const a = this.rowOf(change.a);
    const b = this.rowOf(change.b);
    if (a === null || b === null) return;
    const firstSeenMs = epochMs(change.firstSeenMs, 'firstSeenMs');
    this.addNode(a);
    this.addNode(b);
    const order = compareNodes(a, b);
    if (order === 0) return;
    const [first, second] = order < 0 ? [a, b] : [b, a];
    const key = JSON.stringify([first.kind, first.identity, second.kind, second.identity]);
    const known = this.links.get(key);
    if (known === undefined) this.links.set(key, { kindA: first.kind, identityA: first.identity, kindB: second.kind, identityB: second.identity, firstSeenMs });
    else if (firstSeenMs < known.firstSeenMs) known.firstSeenMs = firstSeenMs;
  }

  private addTags(change: ChangeOf<'tags'>): void {
    this.addNode({ kind: 'customer', identity: change.customerId });
    const atMs = epochMs(change.atMs, 'atMs');
    for (const [name, value] of Object.entries(change.tags)) {
      // As GraphIndex.setTags: a value that is not a boolean is no tag.
      if (typeof value !== 'boolean') continue;
      keepNewest(this.tags, JSON.stringify([change.customerId, name]), { customerId: change.customerId, name, value, atMs });
    }
  }

  private addRedemption(change: ChangeOf<'redemption'>): void {
    this.addNode({ kind: 'customer', identity: change.customerId });
    const row: RedemptionRow = {
      customerId: change.customerId,
      voucherCode: change.voucherCode,
      redemptionTimeMs: epochMs(change.redemptionTimeMs, 'redemptionTimeMs'),
      success: change.success,
      atMs: epochMs(change.atMs, 'atMs'),
    };
    keepNewest(this.redemptions, JSON.stringify([row.customerId, row.voucherCode, row.redemptionTimeMs]), row);
  }

  /** The relations kept with the time they were first seen: transaction owners, disputes, merchants' customers. */
  private addFirstSeen(change: ChangeOf<'transaction-owner' | 'dispute' | 'merchant-customer'>): void {
    const firstSeenMs = epochMs(change.firstSeenMs, 'firstSeenMs');
    switch (change.type) {
      case 'transaction-owner':
        this.addNode({ kind: 'customer', identity: change.customerId });
        keepEarliest(this.transactionOwners, JSON.stringify([change.transactionId, change.customerId]), { transactionId: change.transactionId, customerId: change.customerId, firstSeenMs });
        break;
      case 'dispute':
        this.addNode({ kind: 'chargeback', identity: change.chargebackId });
        keepEarliest(this.disputes, JSON.stringify([change.transactionId, change.chargebackId]), { transactionId: change.transactionId, chargebackId: change.chargebackId, firstSeenMs });
        break;
      case 'merchant-customer':
        this.addNode({ kind: 'customer', identity: change.customerId });
        keepEarliest(this.merchantCustomers, JSON.stringify([change.merchantId, change.customerId]), { merchantId: change.merchantId, customerId: change.customerId, firstSeenMs });
        break;
    }
  }
}

/** The stored kind of a node: its slot kind for a custom node (null without a slot). */
function kindOf(node: GraphNodeRef, customNodeTypes: readonly string[]): NodeKind | null {
  if (node.kind === 'custom') {
    const slot = customNodeTypes.indexOf(node.nodeType);
    return slot < 0 ? null : CUSTOM_NODE_KINDS[slot];
  }
  // The kind becomes part of a statement's text in the Neo4j adapter: only the fixed list passes.
  if (!FIXED_NODE_KINDS.has(node.kind)) throw new TypeError(`not a graph node kind: ${String(node.kind)}`);
  return node.kind;
}

/** 1..5 for `customNode1..5`, 0 for a fixed kind. */
export function customSlotOf(kind: NodeKind): number {
  return (CUSTOM_NODE_KINDS as readonly string[]).indexOf(kind) + 1;
}

function keepNewest<Row extends { atMs: number }>(rows: Map<string, Row>, key: string, row: Row): void {
  const known = rows.get(key);
  if (known === undefined || row.atMs >= known.atMs) rows.set(key, row);
}

function keepEarliest<Row extends { firstSeenMs: number }>(rows: Map<string, Row>, key: string, row: Row): void {
  const known = rows.get(key);
  if (known === undefined || row.firstSeenMs < known.firstSeenMs) rows.set(key, row);
}

/** Times are stored as bigint (SQL) and integers (Neo4j): whole milliseconds only. */
function epochMs(value: number, field: string): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${field} must be an integer number of epoch milliseconds, got ${value}`);
  return value;
}

// A kind is a fixed word without NUL, so everything after the first NUL is the identity.
const nodeKey = (row: NodeRow): string => `${row.kind}\u0000${row.identity}`;

function compareText(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareNodes(x: NodeRow, y: NodeRow): number {
  return compareText(x.kind, y.kind) || compareText(x.identity, y.identity);
}

function compareLinks(x: LinkRow, y: LinkRow): number {
  return compareText(x.kindA, y.kindA) || compareText(x.identityA, y.identityA) || compareText(x.kindB, y.kindB) || compareText(x.identityB, y.identityB);
}
