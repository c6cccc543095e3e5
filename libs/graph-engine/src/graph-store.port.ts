import type { GraphChange } from './graph-change';

/** One account and environment. */
export interface GraphScope {
  accountId: string;
  environment: string;
}

/**
 * The graph's store of record (ADR-0004; architecture: tables in the embedded mode, Neo4j
 * in the distributed mode). The in-memory index is only a cache of it: on start every tenant's
 * index is rebuilt by streaming `load`.
 *
 * Both adapters keep the same facts with the same merge rules as `TenantGraph.apply`: the
 * earliest first-seen time of an edge, a transaction owner and a dispute; the newest (by
 * `atMs`, equal replaces) label, chargeback state, tag value and redemption state; custom-node slots in order of first appearance, five
 * at most (a link to a sixth type is not stored). Writing the same changes twice, or in
 * another order, leaves the same store.
 */
export interface GraphStore {
  /** Writes one tenant's changes durably (one transaction, batched statements). */
  write(scope: GraphScope, changes: readonly GraphChange[]): Promise<void>;
  /** Every tenant with graph data. */
  scopes(): Promise<GraphScope[]>;
  /** The tenant's custom node types, slot 1 first. */
  customNodeTypes(scope: GraphScope): Promise<string[]>;
  /**
   * The tenant's graph as batches of changes that rebuild it: nodes, then links (earliest
   * first), then labels, chargeback states, tags, redemptions, transaction owners and
   * disputes (`apply` links a dispute's chargeback to the transaction's customers whichever of
   * the two it meets first, so the order is free). Streams: memory stays
   * bounded by the batch size whatever the graph's size.
   */
  load(scope: GraphScope, batchSize?: number): AsyncIterable<GraphChange[]>;
}

/** Nest injection token of the `GraphStore`. */
export const GRAPH_STORE = Symbol('GRAPH_STORE');
