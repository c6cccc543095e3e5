import { AdjacencyArena, type EdgeChange, grownSize, resized } from './adjacency-arena';
import type { ConnectFeatures, GraphCaps, TraversalOptions } from './connect-features';
import { resolveCaps } from './connect-features';
import { connectStatistics, generalEdgeGrowthRate } from './connect-statistics';
import { CHARGEBACK, CUSTOM_NODE_KINDS, CUSTOMER, NODE_KINDS, type NodeKind, kindCode } from './node-kind';
import type { NetworkFeatures, NetworkSubjectKind, SharedAttribute, SharedAttributeKind } from './network-features';
import { SHARED_ATTRIBUTE_KINDS } from './network-features';
import { type Neighbourhood, type NeighbourhoodOptions, neighbourhood } from './neighbourhood';
import type { GraphView } from './traversal';
import { LABEL_FRAUDSTER, LABEL_GENUINE, LABEL_NONE, LABEL_OTHER, TraversalScratch, isFraudster, TraversalStatistics, traverse } from './traversal';

interface TagState {
  value: boolean;
  timestampMs: number;
}

export interface GraphIndexOptions {
  /** The account's custom-node types already given slots, slot 1 first (from the store). */
  customNodeTypes?: readonly string[];
}

/**
 * The in-memory graph of one account and environment (ADR-0004).
 *
 * Nodes are interned: each (kind, identity) gets a dense integer id; per-node state lives in
 * typed arrays indexed by it, edges in an `AdjacencyArena`. Mutations are idempotent and
 * commutative where the data allow (an edge keeps its earliest first-seen time; tags keep the
 * newest value per name). Not safe for concurrent use from several threads; within one event
 * loop every method runs to completion, which is what the reused traversal scratch relies on.
 */
export class GraphIndex implements GraphView {
  readonly arena = new AdjacencyArena();
  kinds = new Uint8Array(1 << 10);
  labels = new Uint8Array(1 << 10);
  unforgivenChargebacks = new Int32Array(1 << 10);
  /** Chargeback nodes: 1 when forgiven. */
  private forgiven = new Uint8Array(1 << 10);
  /** 1 when the node has an entry in `tags`, so traversals skip the map for the others. */
  private hasTags = new Uint8Array(1 << 10);
  private readonly tags = new Map<number, Map<string, TagState>>();
  private readonly idsByKind: Map<string, number>[] = NODE_KINDS.map(() => new Map());
  private readonly identities: string[] = [];
  private readonly customSlots = new Map<string, NodeKind>();
  private readonly scratch = new TraversalScratch();
  private readonly statistics = new TraversalStatistics();
  private nodes = 0;
  /**
   * Told whenever a customer becomes (true) or stops being (false) a fraudster: by a label, or
   * by an unforgiven chargeback linked, forgiven or unforgiven again. Counts kept elsewhere
   * (`MerchantCustomers`) follow it instead of recounting.
   */
  onFraudsterChange: ((customer: number, fraudster: boolean) => void) | undefined;

  constructor(options: GraphIndexOptions = {}) {
    for (const nodeType of options.customNodeTypes ?? []) this.customNodeKind(nodeType);
  }

  get nodeCount(): number {
    return this.nodes;
  }

  get edgeCount(): number {
    return this.arena.edgeCount;
  }

  /** The node id of (kind, identity), or undefined when the index has never seen it. */
  find(kind: NodeKind, identity: string): number | undefined {
    return this.idsByKind[kindCode(kind)].get(identity);
  }

  /** The node id of (kind, identity), created (without edges) when new. */
  ensureNode(kind: NodeKind, identity: string): number {
    const code = kindCode(kind);
    const byIdentity = this.idsByKind[code];
    const known = byIdentity.get(identity);
    if (known !== undefined) return known;
    const node = this.nodes;
    this.nodes += 1;
    if (node >= this.kinds.length) this.growNodes(node + 1);
    this.arena.ensureNodes(this.nodes);
    this.kinds[node] = code;
    byIdentity.set(identity, node);
    this.identities.push(identity);
    return node;
  }

  kindOf(node: number): NodeKind {
    return NODE_KINDS[this.kinds[node]];
  }

  identityOf(node: number): string {
    return this.identities[node];
  }

  /** Full degree (distinct neighbours) of a node, 0 when unknown. */
  degreeOf(kind: NodeKind, identity: string): number {
    const node = this.find(kind, identity);
    return node === undefined ? 0 : this.arena.degree[node];
  }

  /**
   * Links two nodes (created when new) with an undirected edge first seen at `firstSeenMs`
   * (epoch ms of the payload). Linking an existing pair again keeps the earliest time. A node
   * is never linked to itself. Returns what changed of the edge (`AdjacencyArena.addEdge`).
   */
  link(kindA: NodeKind, identityA: string, kindB: NodeKind, identityB: string, firstSeenMs: number): EdgeChange {
    const a = this.ensureNode(kindA, identityA);
    const b = this.ensureNode(kindB, identityB);
    if (a === b) return 'unchanged';
    const change = this.arena.addEdge(a, b, firstSeenMs);
    if (change !== 'added') return change;
    if (this.isUnforgivenChargeback(a)) this.addUnforgivenChargebacks(b, 1);
    if (this.isUnforgivenChargeback(b)) this.addUnforgivenChargebacks(a, 1);
    return change;
  }

  /**
   * Sets a customer's current PAYMENT_FRAUD label (it replaces the previous one); null or
   * undefined clears it. Any value other than FRAUDSTER and GENUINE counts as "other".
   */
  setLabel(customerId: string, label: string | null | undefined): void {
    const node = this.ensureNode('customer', customerId);
    const wasFraudster = isFraudster(this, node);
    this.labels[node] = label === null || label === undefined ? LABEL_NONE : label === 'FRAUDSTER' ? LABEL_FRAUDSTER : label === 'GENUINE' ? LABEL_GENUINE : LABEL_OTHER;
    this.tellIfFraudsterChanged(node, wasFraudster);
  }

  /** The current PAYMENT_FRAUD label class of a customer. */
  labelOf(customerId: string): 'FRAUDSTER' | 'GENUINE' | 'OTHER' | null {
    const node = this.find('customer', customerId);
    const label = node === undefined ? LABEL_NONE : this.labels[node];
    return label === LABEL_FRAUDSTER ? 'FRAUDSTER' : label === LABEL_GENUINE ? 'GENUINE' : label === LABEL_OTHER ? 'OTHER' : null;
  }

  /**
   * Sets whether a chargeback node is forgiven (ADR-0004: `nonFraud: true`, outcome `WON`
   * or stage `CHARGEBACK_REVERSED`; see `isChargebackForgiven` in @ringfence/entities). A
   * chargeback is unforgiven until told otherwise, so linking one before its state arrives
   * already marks its customer. The caller passes the chargeback's current (newest) state.
   */
  setChargeback(chargebackId: string, state: { forgiven: boolean }): void {
    const node = this.ensureNode('chargeback', chargebackId);
    const forgiven = state.forgiven ? 1 : 0;
    if (this.forgiven[node] === forgiven) return;
    this.forgiven[node] = forgiven;
    const change = forgiven === 1 ? -1 : 1;
    const { neighbours, offset, degree } = this.arena;
    for (let i = offset[node]; i < offset[node] + degree[node]; i += 1) this.addUnforgivenChargebacks(neighbours[i], change);
  }

  /** True when the customer is labelled FRAUDSTER or linked to an unforgiven chargeback. */
  isFraudster(customerId: string): boolean {
    const node = this.find('customer', customerId);
    return node !== undefined && isFraudster(this, node);
  }

  /** As `isFraudster`, by node id. */
  isFraudsterNode(node: number): boolean {
    return isFraudster(this, node);
  }

  /**
   * Sets a customer's tags from a payload of time `timestampMs`: per tag name, the value of the
   * newest payload wins (an equal timestamp replaces, so a replay changes nothing). Only tags
   * whose current value is true appear in connect answers.
   */
  setTags(customerId: string, tags: Readonly<Record<string, boolean>>, timestampMs: number): void {
    const node = this.ensureNode('customer', customerId);
    let states = this.tags.get(node);
    for (const [name, value] of Object.entries(tags)) {
      if (typeof value !== 'boolean') continue;
      if (states === undefined) {
        states = new Map();
        this.tags.set(node, states);
        this.hasTags[node] = 1;
      }
      const known = states.get(name);
      if (known === undefined || timestampMs >= known.timestampMs) states.set(name, { value, timestampMs });
    }
  }

  /** The names of the tags currently true on a customer. */
  trueTags(customerId: string): string[] {
    const node = this.find('customer', customerId);
    return node === undefined ? [] : [...this.trueTagsOf(node)];
  }

  /** The slot of a custom node type the index holds, without giving a new type one. */
  knownCustomNodeKind(nodeType: string): NodeKind | undefined {
    return this.customSlots.get(nodeType);
  }

  /**
   * The node kind for a custom nodeType: the account's first five distinct nodeTypes take
   * customNode1..5 in order of first appearance; a sixth and later type gets null and the
   * caller links nothing for it (the answer has five custom slots only).
   */
  customNodeKind(nodeType: string): NodeKind | null {
    const known = this.customSlots.get(nodeType);
    if (known !== undefined) return known;
    if (this.customSlots.size >= CUSTOM_NODE_KINDS.length) return null;
    const kind = CUSTOM_NODE_KINDS[this.customSlots.size];
    this.customSlots.set(nodeType, kind);
    return kind;
  }

  /** The nodeTypes holding slots 1..n, to persist the assignment. */
  customNodeTypes(): string[] {
    return [...this.customSlots.keys()];
  }

  /**
   * The connect statistics (ADR-0004) from a customer. A customer the index does not know
   * is answered as a lone node (count 1, no edges) without creating it: the caller applies the
   * request's own links (and `ensureNode('customer', id)`) first, so this only happens for a
   * bare request about an unknown customer.
   *
   * A supplier subject (the statistics of its network) is the same traversal from the
   * supplier's node, as `networkFeatures` does.
   */
  connect(subjectId: string, options: TraversalOptions, subjectKind: NetworkSubjectKind = 'customer'): ConnectFeatures {
    return this.connectFrom(this.find(subjectKind, subjectId) ?? this.ensureLone(kindCode(subjectKind)), options);
  }

  /**
   * The subject's neighbourhood for drawing (`neighbourhood.ts`): breadth-first up to
   * `options.depth` hops, at most `options.limit` nodes. A subject the index does not know is
   * its own neighbourhood (one node, no edges), not created.
   */
  neighbourhood(subjectId: string, options: NeighbourhoodOptions, subjectKind: NetworkSubjectKind = 'customer'): Neighbourhood {
    const start = this.find(subjectKind, subjectId);
    if (start === undefined) return { nodes: [{ kind: subjectKind, identity: subjectId, depth: 0, fraudster: false }], edges: [], truncated: false };
    return neighbourhood(this, start, options);
  }

  private connectFrom(start: number, options: TraversalOptions): ConnectFeatures {
    const caps = this.traverseFrom(start, options);
    return connectStatistics(this.scratch, this.statistics, caps, (node) => this.trueTagsOf(node));
  }

  /** The connect traversal from `start`, its statistics left in `scratch` and `statistics`; returns the caps it ran under. */
  private traverseFrom(start: number, options: TraversalOptions): GraphCaps {
    const caps = resolveCaps(options.caps);
    this.statistics.begin(caps, options.nowMs, this.hasTags);
    traverse(this, this.scratch, start, options.depth, caps, this.statistics);
    return caps;
  }

  /**
   * The voucher network: the customers visited by the connect traversal from `customerId` up
   * to `depth` (ADR-0004, same caps), the customer itself first. An unknown customer is
   * its own network.
   */
  customersWithin(customerId: string, depth: number, caps?: TraversalOptions['caps']): string[] {
    const start = this.find('customer', customerId);
    if (start === undefined) return [customerId];
    traverse(this, this.scratch, start, depth, resolveCaps(caps));
    const customers: string[] = [];
    const { queue, visited } = this.scratch;
    for (let k = 0; k < visited; k += 1) if (this.kinds[queue[k]] === CUSTOMER) customers.push(this.identities[queue[k]]);
    return customers;
  }

  /**
   * Network features for scoring: connect's traversal (hops to fraud, size, growth) plus, for
   * each of the subject's devices, cards, e-mails and phones, the number of other customers
   * linked to it (counted over the node's full list, whatever its degree).
   *
   * The subject is a customer, or a supplier (payouts, supplier registrations): the same
   * traversal from the supplier's node, so `hopsToFraud` is the distance to the nearest
   * fraudster customer (1 for a customer of one of its orders, 2 for a customer sharing its
   * e-mail, phone, device or card). An unknown subject is a lone node, not created.
   */
  networkFeatures(subjectId: string, options: TraversalOptions, subjectKind: NetworkSubjectKind = 'customer'): NetworkFeatures {
    const start = this.find(subjectKind, subjectId);
    // The traversal alone: of connect's answer (some sixty fields) this reads three.
    this.traverseFrom(start ?? this.ensureLone(kindCode(subjectKind)), options);
    const { queue, visited } = this.scratch;
    let networkCustomers = 0;
    for (let k = 0; k < visited; k += 1) if (this.kinds[queue[k]] === CUSTOMER) networkCustomers += 1;
    const maxOtherCustomers: Record<SharedAttributeKind, number> = { device: 0, card: 0, email: 0, phone: 0 };
    const maxFraudCustomers: Record<SharedAttributeKind, number> = { device: 0, card: 0, email: 0, phone: 0 };
    const maxFraudRate: Record<SharedAttributeKind, number> = { device: 0, card: 0, email: 0, phone: 0 };
    const shared: SharedAttribute[] = [];
    if (start !== undefined) {
      const { neighbours, offset, degree } = this.arena;
      for (let i = offset[start]; i < offset[start] + degree[start]; i += 1) {
        const node = neighbours[i];
        const kind = this.kindOf(node);
        if (!isSharedAttributeKind(kind)) continue;
        const { customers: otherCustomers, fraudsters } = this.customerNeighbours(node, start);
        shared.push({ kind, identity: this.identities[node], otherCustomers, fraudCustomers: fraudsters });
        if (otherCustomers > maxOtherCustomers[kind]) maxOtherCustomers[kind] = otherCustomers;
        if (fraudsters > maxFraudCustomers[kind]) maxFraudCustomers[kind] = fraudsters;
        if (otherCustomers > 0 && fraudsters / otherCustomers > maxFraudRate[kind]) maxFraudRate[kind] = fraudsters / otherCustomers;
      }
    }
    return {
      hopsToFraud: this.scratch.hopsToFraud,
      networkSize: visited,
      networkCustomers,
      maxNodesHit: this.scratch.maxNodesHit,
      networkGrowthRate: generalEdgeGrowthRate(this.statistics),
      shared,
      maxOtherCustomers,
      maxFraudCustomers,
      maxFraudRate,
    };
  }

  /** The neighbours of a node as (kind, identity, firstSeenMs), in the order first linked. */
  neighboursOf(kind: NodeKind, identity: string): { kind: NodeKind; identity: string; firstSeenMs: number }[] {
    const node = this.find(kind, identity);
    if (node === undefined) return [];
    const { neighbours, firstSeen, offset, degree } = this.arena;
    const result = [];
    for (let i = offset[node]; i < offset[node] + degree[node]; i += 1) {
      result.push({ kind: this.kindOf(neighbours[i]), identity: this.identities[neighbours[i]], firstSeenMs: firstSeen[i] });
    }
    return result;
  }

  /**
   * The customers linked to `node` other than `except`, and how many of them are fraudsters as
   * the graph knows now (labelled FRAUDSTER, or linked to an unforgiven chargeback): a label
   * given after the customer used the node counts as soon as it is applied.
   */
  customerNeighbours(node: number, except: number): { customers: number; fraudsters: number } {
    const { neighbours, offset, degree } = this.arena;
    let customers = 0;
    let fraudsters = 0;
    for (let i = offset[node]; i < offset[node] + degree[node]; i += 1) {
      const other = neighbours[i];
      if (other === except || this.kinds[other] !== CUSTOMER) continue;
      customers += 1;
      if (isFraudster(this, other)) fraudsters += 1;
    }
    return { customers, fraudsters };
  }

  /** Nodes per kind, for reports. */
  nodeCountsByKind(): Record<NodeKind, number> {
    return Object.fromEntries(NODE_KINDS.map((kind, code) => [kind, this.idsByKind[code].size])) as Record<NodeKind, number>;
  }

  private *trueTagsOf(node: number): Iterable<string> {
    const states = this.tags.get(node);
    if (states === undefined) return;
    for (const [name, state] of states) if (state.value) yield name;
  }

  private addUnforgivenChargebacks(node: number, change: number): void {
    const wasFraudster = isFraudster(this, node);
    this.unforgivenChargebacks[node] += change;
    this.tellIfFraudsterChanged(node, wasFraudster);
  }

  private tellIfFraudsterChanged(node: number, wasFraudster: boolean): void {
    if (this.onFraudsterChange !== undefined && isFraudster(this, node) !== wasFraudster) this.onFraudsterChange(node, !wasFraudster);
  }

  private isUnforgivenChargeback(node: number): boolean {
    return this.kinds[node] === CHARGEBACK && this.forgiven[node] === 0;
  }

  /**
   * A traversal start for an unknown customer (or supplier): a scratch node of that kind with no
   * edges and no state, beyond the real ones, so the index's contents do not change.
   */
  private ensureLone(kind: number): number {
    const lone = this.nodes;
    if (lone >= this.kinds.length) this.growNodes(lone + 1);
    this.arena.ensureNodes(lone + 1);
    this.kinds[lone] = kind;
    this.labels[lone] = LABEL_NONE;
    this.unforgivenChargebacks[lone] = 0;
    this.hasTags[lone] = 0;
    this.arena.degree[lone] = 0;
    return lone;
  }

  private growNodes(needed: number): void {
    const size = grownSize(this.kinds.length, needed);
    this.kinds = resized(this.kinds, size);
    this.labels = resized(this.labels, size);
    this.unforgivenChargebacks = resized(this.unforgivenChargebacks, size);
    this.forgiven = resized(this.forgiven, size);
    this.hasTags = resized(this.hasTags, size);
  }
}

function isSharedAttributeKind(kind: NodeKind): kind is SharedAttributeKind {
  return (SHARED_ATTRIBUTE_KINDS as readonly NodeKind[]).includes(kind);
}
