import type { AdjacencyArena } from './adjacency-arena';
import { grownSize, resized } from './adjacency-arena';
import type { GraphCaps } from './connect-features';
import { GROWTH_WINDOW_MS } from './connect-features';
import { CUSTOMER, KIND_COUNT } from './node-kind';

/** Label codes of the per-node `labels` array (the current PAYMENT_FRAUD label). */
export const LABEL_NONE = 0;
export const LABEL_FRAUDSTER = 1;
export const LABEL_GENUINE = 2;
export const LABEL_OTHER = 3;

/**
 * Set in a node's depth slot (`visit[2n + 1]`) once the node is expanded, so that an edge seen
 * from both endpoints is counted only from the one expanded first: a visited neighbour whose
 * slot holds this flag has a "depth" above any edge-depth limit and is skipped.
 */
export const EXPANDED = 1 << 30;
const DEPTH_MASK = EXPANDED - 1;

/** The depth at which `node` was visited in the traversal last run into `scratch`. */
export function depthOf(scratch: TraversalScratch, node: number): number {
  return scratch.visit[2 * node + 1] & DEPTH_MASK;
}

/** What a traversal reads from an index. */
export interface GraphView {
  readonly nodeCount: number;
  readonly arena: AdjacencyArena;
  readonly kinds: Uint8Array;
  readonly labels: Uint8Array;
  /** Per node: how many unforgiven chargeback nodes it is linked to. */
  readonly unforgivenChargebacks: Int32Array;
}

/**
 * The reusable state of a traversal and its outcome, kept between calls. `visit` holds two
 * Int32 per node, side by side so that one cache line serves both: `visit[2n]` is the epoch of
 * the call that last visited node n (a node is visited in this call when it equals `epoch`, so
 * nothing is cleared per call) and `visit[2n + 1]` its depth in that call. `queue[0 .. visited)`
 * lists the visited nodes in breadth-first order (non-decreasing depth). The depth slot also
 * carries the `EXPANDED` flag: read depths with `depthOf`.
 */
export class TraversalScratch {
  visit = new Int32Array(0);
  queue = new Int32Array(0);
  epoch = 0;
  visited = 0;
  hopsToFraud = -1;
  maxNodesHit = false;
  maxDegreeHit = false;
  maxDepthReached = false;

  begin(nodeCount: number): void {
    if (this.queue.length < nodeCount) {
      const size = grownSize(this.queue.length, nodeCount);
      this.visit = resized(this.visit, 2 * size);
      this.queue = new Int32Array(size);
    }
    if (this.epoch === 0x7fffffff) {
      this.visit.fill(0);
      this.epoch = 0;
    }
    this.epoch += 1;
    this.visited = 0;
    this.hopsToFraud = -1;
    this.maxNodesHit = false;
    this.maxDegreeHit = false;
    this.maxDepthReached = false;
  }
}

/**
 * Statistics a connect traversal gathers while it runs (ADR-0004), kept between calls so
 * that a connect allocates only its answer. Per node kind: visited count and the sum, minimum
 * and maximum of full degrees; reviewed customers; the visited customers with tags, in
 * visiting order; and the general/local edges (count, summed age in ms, edges first seen
 * in the growth window).
 */
export class TraversalStatistics {
  readonly count = new Float64Array(KIND_COUNT);
  readonly degreeSum = new Float64Array(KIND_COUNT);
  readonly degreeMin = new Float64Array(KIND_COUNT);
  readonly degreeMax = new Float64Array(KIND_COUNT);
  /** [general count, general age sum (ms), general new, local count, local age sum (ms), local new]. */
  readonly edges = new Float64Array(6);
  tagged = new Int32Array(16);
  taggedCount = 0;
  reviewedFraudster = 0;
  reviewedGenuine = 0;
  degreeTotal = 0;
  nowMs = 0;
  windowStart = 0;
  generalDepth = 0;
  localDepth = 0;

  private hasTags: Uint8Array = new Uint8Array(0);

  begin(caps: GraphCaps, nowMs: number, hasTags: Uint8Array): void {
    this.hasTags = hasTags;
    this.count.fill(0);
    this.degreeSum.fill(0);
    this.degreeMin.fill(Infinity);
    this.degreeMax.fill(0);
    this.edges.fill(0);
    this.taggedCount = 0;
    this.reviewedFraudster = 0;
    this.reviewedGenuine = 0;
    this.degreeTotal = 0;
    this.nowMs = nowMs;
    this.windowStart = nowMs - GROWTH_WINDOW_MS;
    this.generalDepth = caps.generalEdgeDepth;
    this.localDepth = caps.localEdgeDepth;
  }

  /** A node just visited. */
  addNode(view: GraphView, node: number, nodeDegree: number): void {
    const kind = view.kinds[node];
    this.count[kind] += 1;
    this.degreeSum[kind] += nodeDegree;
    if (nodeDegree < this.degreeMin[kind]) this.degreeMin[kind] = nodeDegree;
    if (nodeDegree > this.degreeMax[kind]) this.degreeMax[kind] = nodeDegree;
    this.degreeTotal += nodeDegree;
    if (kind !== CUSTOMER) return;
    const label = view.labels[node];
    if (label === LABEL_FRAUDSTER) this.reviewedFraudster += 1;
    else if (label === LABEL_GENUINE) this.reviewedGenuine += 1;
    if (this.hasTags[node] === 1) {
      if (this.taggedCount === this.tagged.length) this.tagged = resized(this.tagged, 2 * this.tagged.length);
      this.tagged[this.taggedCount] = node;
      this.taggedCount += 1;
    }
  }

  /** An edge between two visited nodes, counted once, the deeper endpoint at `edgeDepth`. */
  addEdge(seenAt: number, edgeDepth: number): void {
    const edges = this.edges;
    // In ms: with integer times the sum is exact while below 2^53 (e.g. 10^5 edges a year old),
    // so the mean comes out correctly rounded whatever order the edges are met in.
    const age = this.nowMs - seenAt;
    const isNew = seenAt > this.windowStart && seenAt <= this.nowMs ? 1 : 0;
    if (edgeDepth <= this.generalDepth) {
      edges[0] += 1;
      edges[1] += age;
      edges[2] += isNew;
    }
    if (edgeDepth <= this.localDepth) {
      edges[3] += 1;
      edges[4] += age;
      edges[5] += isNew;
    }
  }
}

export function isFraudster(view: GraphView, node: number): boolean {
  return view.kinds[node] === CUSTOMER && (view.labels[node] === LABEL_FRAUDSTER || view.unforgivenChargebacks[node] > 0);
}

/**
 * ADR-0004's breadth-first traversal from `start` up to `maxDepth` edges, into `scratch`:
 * - the start is always visited; a neighbour with more than `maxDegree` edges is never visited
 *   and sets `maxDegreeHit` (it is met only as a neighbour of an expanded node);
 * - once `maxNodes` nodes are visited, the traversal goes on looking, and the first further
 *   eligible (degree ≤ maxDegree) unvisited neighbour sets `maxNodesHit` and ends it;
 * - nodes at `maxDepth` are not expanded; `maxDepthReached` when no fraudster was visited and
 *   one of them has an eligible unvisited neighbour (so a further hop would have visited more).
 *   When the depth-limit nodes are reached every node is discovered, so the check is final; it
 *   cannot coincide with `maxNodesHit`, which can only end the expansion of shallower nodes.
 * Neighbours are met in the order their edges were first added.
 *
 * With `stats`, the connect statistics are gathered in the same pass, so that the scattered
 * adjacency of the visited nodes is read once: node statistics when a node is visited, and an
 * edge between two visited nodes when the first of its endpoints is expanded (the other is then
 * visited already, or visited by this very expansion — it is eligible, being visited at all).
 * Only the nodes visited but never expanded need another look at their lists: those at the
 * depth limit (looked at when dequeued) and, after `maxNodesHit`, the queue's rest and the rest
 * of the list whose expansion was cut short. Between two such nodes, an edge is counted from
 * the endpoint with the smaller id.
 */
export function traverse(view: GraphView, scratch: TraversalScratch, start: number, maxDepth: number, caps: GraphCaps, stats: TraversalStatistics | null = null): void {
  // `start` may be the scratch node for an unknown customer, one beyond the real ones.
  scratch.begin(Math.max(view.nodeCount, start + 1));
  const { visit, queue, epoch } = scratch;
  // Edges with an endpoint deeper than this count nowhere; -1 gathers no edges at all.
  const deepest = stats === null ? -1 : Math.max(caps.generalEdgeDepth, caps.localEdgeDepth);
  visit[2 * start] = epoch;
  visit[2 * start + 1] = 0;
  queue[0] = start;
  if (stats !== null) stats.addNode(view, start, view.arena.degree[start]);
  const expansion: Expansion = { visited: 1, hops: isFraudster(view, start) ? 0 : -1, maxDegreeHit: false, cutNode: -1, cutDepth: 0, cutAt: 0 };
  let maxDepthReached = false;
  let head = 0;
  while (head < expansion.visited && expansion.cutNode === -1) {
    const node = queue[head];
    head += 1;
    const nodeDepth = visit[2 * node + 1];
    if (nodeDepth < maxDepth) expandNode(view, scratch, stats, node, deepest, caps, expansion);
    // Not expanded. Every shallower node was, so all its visited neighbours are known.
    else if (lookAtDepthLimitNode(view, scratch, stats, node, expansion.hops === -1 && !maxDepthReached, deepest, caps.maxDegree)) maxDepthReached = true;
  }
  if (stats !== null && expansion.cutNode !== -1) countEdgesOfUnexpanded(view, scratch, stats, deepest, expansion, head);
  scratch.visited = expansion.visited;
  scratch.hopsToFraud = expansion.hops;
  scratch.maxNodesHit = expansion.cutNode !== -1;
  scratch.maxDegreeHit = expansion.maxDegreeHit;
  scratch.maxDepthReached = maxDepthReached;
}

/** Where a traversal's expansion stands: what `expandNode` moves on. */
interface Expansion {
  visited: number;
  /** Depth of the first fraudster visited; -1: none yet. */
  hops: number;
  maxDegreeHit: boolean;
  /** The node whose expansion `maxNodes` cut short (-1: none), its depth, and where in its list. */
  cutNode: number;
  cutDepth: number;
  cutAt: number;
}

/**
 * Expands one node short of the depth limit: visits its eligible unvisited neighbours one deeper
 * (until `maxNodes`, where it records the cut), and, within the edge depth, counts its edges to
 * visited nodes not yet expanded. Measured: as a function it costs the traversal nothing.
 */
function expandNode(view: GraphView, scratch: TraversalScratch, stats: TraversalStatistics | null, node: number, deepest: number, caps: GraphCaps, expansion: Expansion): void {
  const { neighbours, firstSeen, offset, degree } = view.arena;
  const { visit, queue, epoch } = scratch;
  const { maxNodes, maxDegree } = caps;
  const nodeDepth = visit[2 * node + 1];
  visit[2 * node + 1] = nodeDepth | EXPANDED;
  const countEdges = nodeDepth <= deepest;
  const childDepth = nodeDepth + 1;
  let visited = expansion.visited;
  let hops = expansion.hops;
  const end = offset[node] + degree[node];
  for (let i = offset[node]; i < end; i += 1) {
    const next = neighbours[i];
    if (visit[2 * next] === epoch) {
      if (countEdges) {
        const nextDepth = visit[2 * next + 1];
        if (nextDepth <= deepest) stats?.addEdge(firstSeen[i], nextDepth > nodeDepth ? nextDepth : nodeDepth);
      }
      continue;
    }
    const nextDegree = degree[next];
    if (nextDegree > maxDegree) {
      expansion.maxDegreeHit = true;
      continue;
    }
    if (visited >= maxNodes) {
      expansion.cutNode = node;
      expansion.cutDepth = nodeDepth;
      expansion.cutAt = i + 1;
      break;
    }
    visit[2 * next] = epoch;
    visit[2 * next + 1] = childDepth;
    queue[visited] = next;
    visited += 1;
    if (stats !== null) {
      stats.addNode(view, next, nextDegree);
      if (childDepth <= deepest) stats.addEdge(firstSeen[i], childDepth);
    }
    if (hops === -1 && isFraudster(view, next)) hops = childDepth;
  }
  expansion.visited = visited;
  expansion.hops = hops;
}

/**
 * A node at the depth limit, not expanded: whether it has an eligible unvisited neighbour (looked
 * for only while `lookForMore`: a further hop would have visited more), and, within the edge
 * depth, its edges to visited neighbours not expanded (expanded ones counted the edge). Measured:
 * as a function it costs the traversal nothing.
 */
function lookAtDepthLimitNode(view: GraphView, scratch: TraversalScratch, stats: TraversalStatistics | null, node: number, lookForMore: boolean, deepest: number, maxDegree: number): boolean {
  const { neighbours, firstSeen, offset, degree } = view.arena;
  const { visit, epoch } = scratch;
  const nodeDepth = visit[2 * node + 1];
  const countEdges = nodeDepth <= deepest;
  if (!lookForMore && !countEdges) return false;
  let reached = false;
  const end = offset[node] + degree[node];
  for (let i = offset[node]; i < end; i += 1) {
    const next = neighbours[i];
    if (visit[2 * next] !== epoch) {
      if (lookForMore && degree[next] <= maxDegree) {
        reached = true;
        lookForMore = false;
        if (!countEdges) break;
      }
      continue;
    }
    if (countEdges && next > node) {
      // Expanded neighbours carry EXPANDED, above `deepest`: they counted the edge.
      const nextDepth = visit[2 * next + 1];
      if (nextDepth <= deepest) stats?.addEdge(firstSeen[i], nextDepth > nodeDepth ? nextDepth : nodeDepth);
    }
  }
  return reached;
}

/**
 * After `maxNodesHit`, the edges `traverse` has not counted: the rest of the list whose expansion
 * was cut (its visited, unexpanded neighbours; the others counted the edge), then the edges among
 * the visited nodes never expanded (`queue[head .. visited)`, in non-decreasing depth), each from
 * its endpoint with the smaller id. Runs once per traversal.
 */
function countEdgesOfUnexpanded(view: GraphView, scratch: TraversalScratch, stats: TraversalStatistics, deepest: number, cut: Expansion, head: number): void {
  const { neighbours, firstSeen, offset, degree } = view.arena;
  const { visit, queue, epoch } = scratch;
  const { visited, cutDepth } = cut;
  if (cutDepth <= deepest) {
    const end = offset[cut.cutNode] + degree[cut.cutNode];
    for (let i = cut.cutAt; i < end; i += 1) {
      const next = neighbours[i];
      if (visit[2 * next] !== epoch) continue;
      const nextDepth = visit[2 * next + 1];
      if (nextDepth <= deepest) stats.addEdge(firstSeen[i], nextDepth > cutDepth ? nextDepth : cutDepth);
    }
  }
  for (let k = head; k < visited; k += 1) {
    const node = queue[k];
    const nodeDepth = visit[2 * node + 1];
    if (nodeDepth > deepest) break;
    const end = offset[node] + degree[node];
    for (let i = offset[node]; i < end; i += 1) {
      const next = neighbours[i];
      if (next < node || visit[2 * next] !== epoch) continue;
      const nextDepth = visit[2 * next + 1];
      if (nextDepth <= deepest) stats.addEdge(firstSeen[i], nextDepth > nodeDepth ? nextDepth : nodeDepth);
    }
  }
}
