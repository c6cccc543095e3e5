import type { AdjacencyArena } from './adjacency-arena';
import { grownSize, resized } from './adjacency-arena';
import type { GraphCaps } from './connect-features';
import { CUSTOMER } from './node-kind';

/** Label codes of the per-node `labels` array (the current PAYMENT_FRAUD label). */
export const LABEL_NONE = 0;
export const LABEL_FRAUDSTER = 1;
export const LABEL_GENUINE = 2;
export const LABEL_OTHER = 3;

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
 * lists the visited nodes in breadth-first order (non-decreasing depth).
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

export function isFraudster(view: GraphView, node: number): boolean {
  return view.kinds[node] === CUSTOMER && (view.labels[node] === LABEL_FRAUDSTER || view.unforgivenChargebacks[node] > 0);
}

/**
 * decisions §4's breadth-first traversal from `start` up to `maxDepth` edges, into `scratch`:
 * - the start is always visited; a neighbour with more than `maxDegree` edges is never visited
 *   and sets `maxDegreeHit` (it is met only as a neighbour of an expanded node);
 * - once `maxNodes` nodes are visited, the traversal goes on looking, and the first further
 *   eligible (degree ≤ maxDegree) unvisited neighbour sets `maxNodesHit` and ends it;
 * - nodes at `maxDepth` are not expanded; `maxDepthReached` when no fraudster was visited and
 *   one of them has an eligible unvisited neighbour (so a further hop would have visited more).
 *   When the depth-limit nodes are reached every node is discovered, so the check is final; it
 *   cannot coincide with `maxNodesHit`, which can only end the expansion of shallower nodes.
 * Neighbours are met in the order their edges were first added.
 */
export function traverse(view: GraphView, scratch: TraversalScratch, start: number, maxDepth: number, caps: GraphCaps): void {
  // `start` may be the scratch node for an unknown customer, one beyond the real ones.
  scratch.begin(Math.max(view.nodeCount, start + 1));
  const { neighbours, offset, degree } = view.arena;
  const { visit, queue, epoch } = scratch;
  const maxNodes = caps.maxNodes;
  const maxDegree = caps.maxDegree;
  visit[2 * start] = epoch;
  visit[2 * start + 1] = 0;
  queue[0] = start;
  let visited = 1;
  let hops = isFraudster(view, start) ? 0 : -1;
  let maxDegreeHit = false;
  let maxNodesHit = false;
  let maxDepthReached = false;
  let head = 0;
  expansion: while (head < visited) {
    const node = queue[head];
    head += 1;
    const nodeDepth = visit[2 * node + 1];
    const from = offset[node];
    const end = from + degree[node];
    if (nodeDepth >= maxDepth) {
      if (hops === -1 && !maxDepthReached) {
        for (let i = from; i < end; i += 1) {
          const next = neighbours[i];
          if (visit[2 * next] !== epoch && degree[next] <= maxDegree) {
            maxDepthReached = true;
            break;
          }
        }
      }
      continue;
    }
    for (let i = from; i < end; i += 1) {
      const next = neighbours[i];
      if (visit[2 * next] === epoch) continue;
      if (degree[next] > maxDegree) {
        maxDegreeHit = true;
        continue;
      }
      if (visited >= maxNodes) {
        maxNodesHit = true;
        break expansion;
      }
      visit[2 * next] = epoch;
      visit[2 * next + 1] = nodeDepth + 1;
      queue[visited] = next;
      visited += 1;
      if (hops === -1 && isFraudster(view, next)) hops = nodeDepth + 1;
    }
  }
  scratch.visited = visited;
  scratch.hopsToFraud = hops;
  scratch.maxNodesHit = maxNodesHit;
  scratch.maxDegreeHit = maxDegreeHit;
  scratch.maxDepthReached = maxDepthReached;
}
