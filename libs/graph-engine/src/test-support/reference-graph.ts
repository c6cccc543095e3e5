import type { ConnectFeatures, ConnectTag, GraphCaps, TraversalOptions } from '../connect-features';
import { DEFAULT_CAPS } from '../connect-features';
import { NODE_KINDS, type NodeKind } from '../node-kind';

/**
 * A deliberately plain implementation of ADR-0004 for the property tests: string keys,
 * Maps and Sets, level-by-level breadth-first search, statistics computed from the list of all
 * edges. Slow and obvious; the engine must agree with it on every field.
 */
export class ReferenceGraph {
  /** node key → neighbour key → first-seen ms, neighbours in the order first linked. */
  private readonly adjacency = new Map<string, Map<string, number>>();
  private readonly labels = new Map<string, string>();
  private readonly forgiven = new Map<string, boolean>();
  private readonly tags = new Map<string, Map<string, { value: boolean; timestampMs: number }>>();

  link(kindA: NodeKind, idA: string, kindB: NodeKind, idB: string, firstSeenMs: number): void {
    const a = key(kindA, idA);
    const b = key(kindB, idB);
    this.touch(a);
    this.touch(b);
    if (a === b) return;
    const known = this.adjacency.get(a)!.get(b);
    const time = known === undefined ? firstSeenMs : Math.min(known, firstSeenMs);
    this.adjacency.get(a)!.set(b, time);
    this.adjacency.get(b)!.set(a, time);
  }

  setLabel(customerId: string, label: string | null): void {
    this.touch(key('customer', customerId));
    if (label === null) this.labels.delete(customerId);
    else this.labels.set(customerId, label);
  }

  setChargeback(chargebackId: string, state: { forgiven: boolean }): void {
    this.touch(key('chargeback', chargebackId));
    this.forgiven.set(chargebackId, state.forgiven);
  }

  setTags(customerId: string, tags: Record<string, boolean>, timestampMs: number): void {
    this.touch(key('customer', customerId));
    const states = this.tags.get(customerId) ?? new Map();
    this.tags.set(customerId, states);
    for (const [name, value] of Object.entries(tags)) {
      const known = states.get(name);
      if (known === undefined || timestampMs >= known.timestampMs) states.set(name, { value, timestampMs });
    }
  }

  connect(customerId: string, options: TraversalOptions): ConnectFeatures {
    const caps: GraphCaps = { ...DEFAULT_CAPS, ...options.caps };
    const { depthOf, order, maxDegreeHit, maxNodesHit } = this.traverse(customerId, options.depth, caps);
    const degree = (node: string): number => this.adjacency.get(node)?.size ?? 0;

    const fraudsterDepths = order.filter((node) => this.isFraudster(node)).map((node) => depthOf.get(node)!);
    const hopsToFraud = fraudsterDepths.length === 0 ? -1 : Math.min(...fraudsterDepths);
    const maxDepthReached =
      hopsToFraud === -1 &&
      !maxNodesHit &&
      order.some((node) => depthOf.get(node) === options.depth && this.neighbours(node).some((next) => !depthOf.has(next) && degree(next) <= caps.maxDegree));

    const answer: Record<string, unknown> = {};
    const saturate = (value: number): number => (maxNodesHit ? caps.maxNodes : value);
    answer.count = maxNodesHit ? caps.maxNodes * NODE_KINDS.length : order.length;
    for (const kind of NODE_KINDS) answer[`${kind}Count`] = saturate(order.filter((node) => kindOf(node) === kind).length);
    const customers = order.filter((node) => kindOf(node) === 'customer').map(idOf);
    answer.reviewedFraudsterCount = saturate(customers.filter((id) => this.labels.get(id) === 'FRAUDSTER').length);
    answer.reviewedGenuineCount = saturate(customers.filter((id) => this.labels.get(id) === 'GENUINE').length);
    answer.hopsToFraud = hopsToFraud;
    for (const kind of NODE_KINDS) {
      const degrees = order.filter((node) => kindOf(node) === kind).map(degree);
      answer[`${kind}DegreeMin`] = degrees.length === 0 ? 0 : Math.min(...degrees);
      answer[`${kind}DegreeMean`] = mean(degrees);
      answer[`${kind}DegreeMax`] = degrees.length === 0 ? 0 : Math.max(...degrees);
    }
    answer.maxDepthReached = maxDepthReached;
    answer.maxNodesHit = maxNodesHit;
    answer.maxDegreeHit = maxDegreeHit;
    const edgesWithin = (limit: number): number[] =>
      this.edges()
        .filter(([a, b]) => depthOf.has(a) && depthOf.has(b) && depthOf.get(a)! <= limit && depthOf.get(b)! <= limit)
        .map(([, , firstSeenMs]) => firstSeenMs);
    const general = edgesWithin(caps.generalEdgeDepth);
    const local = edgesWithin(caps.localEdgeDepth);
    const isNew = (firstSeenMs: number): boolean => firstSeenMs > options.nowMs - 24 * 3600 * 1000 && firstSeenMs <= options.nowMs;
    answer.edgeGeneralMeanAge = mean(general.map((firstSeenMs) => (options.nowMs - firstSeenMs) / 1000));
    answer.edgeGeneralGrowthRate = general.filter(isNew).length / 24;
    answer.edgeGeneralCount = saturate(general.length);
    answer.edgeLocalMeanAge = mean(local.map((firstSeenMs) => (options.nowMs - firstSeenMs) / 1000));
    answer.edgeLocalGrowthRate = local.filter(isNew).length / 24;
    answer.edgeLocalCount = saturate(local.length);
    answer.meanDegree = mean(order.map(degree));
    const tagDepths = new Map<string, number>();
    for (const node of order.filter((visited) => kindOf(visited) === 'customer')) {
      for (const [name, state] of this.tags.get(idOf(node)) ?? []) {
        if (state.value) tagDepths.set(name, Math.min(tagDepths.get(name) ?? Infinity, depthOf.get(node)!));
      }
    }
    const tags: ConnectTag[] = [...tagDepths].map(([tagName, depth]) => ({ tagName, depth }));
    // Code-point order: compare arrays of code points.
    tags.sort((a, b) => a.depth - b.depth || compareArrays([...a.tagName].map((c) => c.codePointAt(0)!), [...b.tagName].map((c) => c.codePointAt(0)!)));
    answer.tags = tags;
    return answer as ConnectFeatures;
  }

  customersWithin(customerId: string, depth: number, caps?: Partial<GraphCaps>): string[] {
    const { order } = this.traverse(customerId, depth, { ...DEFAULT_CAPS, ...caps });
    return order.filter((node) => kindOf(node) === 'customer').map(idOf);
  }

  /** Other customers, and the fraudsters among them, linked to each device/card/email/phone of the customer. */
  sharedAttributes(customerId: string): { kind: NodeKind; identity: string; otherCustomers: number; fraudCustomers: number }[] {
    const start = key('customer', customerId);
    return this.neighbours(start)
      .filter((node) => ['device', 'card', 'email', 'phone'].includes(kindOf(node)))
      .map((node) => {
        const others = this.neighbours(node).filter((other) => other !== start && kindOf(other) === 'customer');
        return { kind: kindOf(node), identity: idOf(node), otherCustomers: others.length, fraudCustomers: others.filter((other) => this.isFraudster(other)).length };
      });
  }

  /**
   * The neighbourhood for drawing: level by level from the subject up to `depth`, no degree cap,
   * stopping at the first node met once `limit` are in; then every edge with both ends in.
   */
  neighbourhood(
    subjectKind: NodeKind,
    subjectId: string,
    options: { depth: number; limit: number },
  ): { nodes: { kind: NodeKind; identity: string; depth: number; fraudster: boolean }[]; edges: [string, string, number][]; truncated: boolean } {
    const start = key(subjectKind, subjectId);
    const depthOf = new Map([[start, 0]]);
    const order = [start];
    let truncated = false;
    let frontier = this.adjacency.has(start) ? [start] : [];
    levels: for (let level = 0; level < options.depth; level += 1) {
      const next: string[] = [];
      for (const node of frontier) {
        for (const neighbour of this.neighbours(node)) {
          if (depthOf.has(neighbour)) continue;
          if (order.length >= options.limit) {
            truncated = true;
            break levels;
          }
          depthOf.set(neighbour, level + 1);
          order.push(neighbour);
          next.push(neighbour);
        }
      }
      frontier = next;
    }
    return {
      nodes: order.map((node) => ({ kind: kindOf(node), identity: idOf(node), depth: depthOf.get(node)!, fraudster: this.isFraudster(node) })),
      edges: this.edges().filter(([a, b]) => depthOf.has(a) && depthOf.has(b)),
      truncated,
    };
  }

  /** Level by level: the whole frontier of depth d is expanded, in discovery order, before d + 1. */
  private traverse(customerId: string, depth: number, caps: GraphCaps): { depthOf: Map<string, number>; order: string[]; maxDegreeHit: boolean; maxNodesHit: boolean } {
    const start = key('customer', customerId);
    const depthOf = new Map([[start, 0]]);
    const order = [start];
    let maxDegreeHit = false;
    let maxNodesHit = false;
    let frontier = [start];
    levels: for (let level = 0; level < depth && frontier.length > 0; level += 1) {
      const next: string[] = [];
      for (const node of frontier) {
        for (const neighbour of this.neighbours(node)) {
          if (depthOf.has(neighbour)) continue;
          if ((this.adjacency.get(neighbour)?.size ?? 0) > caps.maxDegree) {
            maxDegreeHit = true;
            continue;
          }
          if (order.length >= caps.maxNodes) {
            maxNodesHit = true;
            break levels;
          }
          depthOf.set(neighbour, level + 1);
          order.push(neighbour);
          next.push(neighbour);
        }
      }
      frontier = next;
    }
    return { depthOf, order, maxDegreeHit, maxNodesHit };
  }

  private isFraudster(node: string): boolean {
    if (kindOf(node) !== 'customer') return false;
    if (this.labels.get(idOf(node)) === 'FRAUDSTER') return true;
    return this.neighbours(node).some((other) => kindOf(other) === 'chargeback' && this.forgiven.get(idOf(other)) !== true);
  }

  private neighbours(node: string): string[] {
    return [...(this.adjacency.get(node)?.keys() ?? [])];
  }

  /** Every undirected edge once, as [a, b, firstSeenMs]. */
  private edges(): [string, string, number][] {
    const edges: [string, string, number][] = [];
    for (const [a, neighbours] of this.adjacency) for (const [b, firstSeenMs] of neighbours) if (a < b) edges.push([a, b, firstSeenMs]);
    return edges;
  }

  private touch(node: string): void {
    if (!this.adjacency.has(node)) this.adjacency.set(node, new Map());
  }
}

function key(kind: NodeKind, id: string): string {
  return JSON.stringify([kind, id]);
}

function kindOf(node: string): NodeKind {
  return (JSON.parse(node) as [NodeKind, string])[0];
}

function idOf(node: string): string {
  return (JSON.parse(node) as [NodeKind, string])[1];
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function compareArrays(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
