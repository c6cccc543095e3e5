import type { NodeKind } from './node-kind';
import type { GraphView } from './traversal';
import { isFraudster } from './traversal';

/** What the neighbourhood reads from an index: the traversal's view plus each node's name. */
export interface NeighbourhoodView extends GraphView {
  kindOf(node: number): NodeKind;
  identityOf(node: number): string;
}

export interface NeighbourhoodOptions {
  /** Hops from the subject beyond which nothing is included (the subject is at 0). */
  depth: number;
  /** Nodes included at most, the subject among them. */
  limit: number;
}

export interface NeighbourhoodNode {
  kind: NodeKind;
  /** The identity the graph keys the node by (ADR-0004's node table). */
  identity: string;
  /** Hops from the subject. */
  depth: number;
  /** A customer labelled FRAUDSTER or linked to an unforgiven chargeback, as known now. */
  fraudster: boolean;
}

export interface NeighbourhoodEdge {
  /** Indexes into `nodes`: `source` is the endpoint met first (never deeper than `target`). */
  source: number;
  target: number;
  /** The edge's first-seen time, epoch ms. */
  firstSeenMs: number;
}

/** A subject's surroundings, for drawing: the nodes in breadth-first order (subject first) and every edge among them. */
export interface Neighbourhood {
  nodes: NeighbourhoodNode[];
  edges: NeighbourhoodEdge[];
  /** True when a node within `depth` was left out because `limit` nodes were included already. */
  truncated: boolean;
}

/**
 * The subject's neighbourhood: breadth-first from `start` up to `depth` hops, at most `limit`
 * nodes, neighbours met in the order their edges were first added (as connect's traversal
 * meets them), so the same graph always gives the same picture.
 *
 * Unlike connect's traversal there is no degree cap: a hub (an e-mail shared by thousands) is
 * exactly what an analyst wants to see, and `limit` bounds the work instead. Once `limit` nodes
 * are in, the search only looks for one more node to tell `truncated`; a list holds at most
 * `limit` included nodes before a new one, so the search reads O(limit²) slots whatever the
 * degrees.
 *
 * The edges are all those among the included nodes, also between two nodes that were not
 * expanded (at the depth limit, or left when the limit was reached). A node expanded to the end
 * of its list records its edges as it goes (all its neighbours are included, so that list is
 * short). Among the others, each edge is read from the endpoint with fewer edges and the longest
 * list is never read, so a hub's list is read only to find its edges to another hub.
 */
export function neighbourhood(view: NeighbourhoodView, start: number, options: NeighbourhoodOptions): Neighbourhood {
  const { neighbours, offset, degree, firstSeen } = view.arena;
  const position = new Map<number, number>([[start, 0]]);
  const order = [start];
  const depths = [0];
  const expanded = new Set<number>();
  const edges: NeighbourhoodEdge[] = [];
  const edge = (a: number, b: number, firstSeenMs: number): NeighbourhoodEdge => (a < b ? { source: a, target: b, firstSeenMs } : { source: b, target: a, firstSeenMs });
  let truncated = false;
  search: for (let head = 0; head < order.length; head += 1) {
    const nodeDepth = depths[head];
    // Breadth-first order: every node after this one is at least as deep.
    if (nodeDepth >= options.depth) break;
    const node = order[head];
    // Kept only once the whole list is read: a list cut short is read again below.
    const found: NeighbourhoodEdge[] = [];
    for (let i = offset[node]; i < offset[node] + degree[node]; i += 1) {
      const next = neighbours[i];
      const known = position.get(next);
      if (known !== undefined) {
        if (!expanded.has(next)) found.push(edge(head, known, firstSeen[i]));
        continue;
      }
      if (order.length >= options.limit) {
        truncated = true;
        break search;
      }
      found.push(edge(head, order.length, firstSeen[i]));
      position.set(next, order.length);
      order.push(next);
      depths.push(nodeDepth + 1);
    }
    expanded.add(node);
    edges.push(...found);
  }

  // The nodes not expanded, shortest list first (ties: included first); each reads its edges to
  // the ones after it, so the last (the longest list) reads nothing.
  const rest = order
    .map((_node, k) => k)
    .filter((k) => !expanded.has(order[k]))
    .sort((j, k) => degree[order[j]] - degree[order[k]] || j - k);
  const rank = new Map(rest.map((k, r) => [order[k], r]));
  for (let r = 0; r < rest.length - 1; r += 1) {
    const node = order[rest[r]];
    for (let i = offset[node]; i < offset[node] + degree[node]; i += 1) {
      const other = rank.get(neighbours[i]);
      if (other !== undefined && other > r) edges.push(edge(rest[r], rest[other], firstSeen[i]));
    }
  }
  edges.sort((a, b) => a.source - b.source || a.target - b.target);

  const nodes = order.map((node, k) => ({ kind: view.kindOf(node), identity: view.identityOf(node), depth: depths[k], fraudster: isFraudster(view, node) }));
  return { nodes, edges, truncated };
}
