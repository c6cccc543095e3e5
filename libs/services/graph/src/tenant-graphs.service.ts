import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import type { MessageEnvelope } from '@ringfence/contracts';
import { GRAPH_STORE, type GraphChange, type GraphScope, type GraphStore, TenantGraph } from '@ringfence/graph-engine';
import { type Logger, RateLimitedError, type RingfenceConfig, accountShareOf, exponentialBackoffMs } from '@ringfence/platform';
import { READINESS_CHECKS, RINGFENCE_CONFIG, ROOT_LOGGER, type ReadinessCheck } from '@ringfence/service-runtime';
import { LRUCache } from 'lru-cache';
import { graphNodesRefused, graphRebuildSeconds, measureGraphSize } from './graph-metrics';

/** What a rebuild read, for the start-up log line and the benchmark. */
export interface RebuildReport {
  tenants: number;
  nodes: number;
  edges: number;
  changes: number;
  elapsedMs: number;
}

/** The graph's bounds (ADR-0016): `GRAPH_MAX_NODES` over every account, `ACCOUNT_SHARE_PERCENT` of it per account. */
export type GraphBounds = Pick<RingfenceConfig, 'graphMaxNodes' | 'accountSharePercent'>;

/** What `apply` did with a batch of changes. */
export interface AppliedChanges {
  graph: TenantGraph;
  /** The changes applied, in order. */
  applied: GraphChange[];
  /**
   * Of those, what the store may lack: all but the links that changed nothing in the index
   * (`TenantGraph.apply`). The index has a link only from the store's rebuild or from a change
   * the consumer applied, which is then written or pending (or set aside, for an operator's
   * replay to write), so a returning customer's event does not upsert its edges again. The connect
   * RPC adds only a customer node, never a link; nodes are always passed on.
   */
  toStore: GraphChange[];
  /** Changes left out because they would have added a node past a bound. */
  refused: number;
}

/** Seconds an account told it holds its share is asked to wait: the graph lets nothing go on its own. */
const OVER_SHARE_RETRY_AFTER_SECONDS = 60;
/**
 * Requests whose own event had changes left out, kept for their query (which the bus sends
 * after the event was handled) to answer 429. Bounded like scoring's kept vectors; a request
 * whose query never comes (an ingest-only route) expires.
 */
const REFUSED_REQUESTS = { max: 4_096, ttl: 60_000 };
/** Waits between rebuild attempts: 0.5 s doubling to 30 s. */
const REBUILD_BACKOFF = { initialDelayMs: 500, maxDelayMs: 30_000, jitter: 0 };

/**
 * The in-memory graph of every tenant, rebuilt from the store of record when the service
 * starts (architecture: the index is a cache of the store). Until the rebuild is done, every
 * use waits for it (`ready`) and /health/ready says not ready: answering from half a graph
 * would give wrong statistics without saying so.
 *
 * Bounded (ADR-0016, "Tenants share fairly"): an account holds at most its share of
 * `GRAPH_MAX_NODES` nodes over its two data sets, and the index at most `GRAPH_MAX_NODES`. The
 * index is not a cache (a node let go of would make every statistic around it wrong until a
 * rebuild), so nothing is ever evicted: past a bound, a change that would add a node is left
 * out (and not stored), the others of the same event are applied, and the request whose event
 * it was is answered 429 by its query (`refuseWhenOverShare`).
 */
@Injectable()
export class TenantGraphs implements OnModuleInit, OnApplicationBootstrap {
  private readonly graphs = new Map<string, TenantGraph>();
  /** Nodes per account, both data sets together; and over every account. */
  private readonly accountNodes = new Map<string, number>();
  private totalNodes = 0;
  private readonly accountMaxNodes: number;
  private readonly refusedRequests = new LRUCache<string, true>(REFUSED_REQUESTS);
  private rebuilt: Promise<RebuildReport> | undefined;
  private rebuiltReport: RebuildReport | undefined;

  constructor(
    @Inject(GRAPH_STORE) private readonly store: GraphStore,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    @Inject(READINESS_CHECKS) private readonly readinessChecks: ReadinessCheck[],
    @Inject(RINGFENCE_CONFIG) private readonly bounds: GraphBounds,
  ) {
    this.accountMaxNodes = accountShareOf(bounds.graphMaxNodes, bounds.accountSharePercent);
  }

  onModuleInit(): void {
    this.readinessChecks.push({ name: 'graph', isReady: async () => this.isReady() });
    measureGraphSize(() => this.totals());
  }

  /** Nodes and edges over every tenant (for /metrics; O(tenants)). */
  totals(): { nodes: number; edges: number; tenants: number } {
    let nodes = 0;
    let edges = 0;
    for (const graph of this.graphs.values()) {
      nodes += graph.index.nodeCount;
      edges += graph.index.edgeCount;
    }
    return { nodes, edges, tenants: this.graphs.size };
  }

  onApplicationBootstrap(): void {
    void this.rebuild();
  }

  /**
   * Rebuilds every tenant from the store (once; later calls return the same promise). A store
   * that cannot be read (not up yet, say) is tried again, backing off up to 30 s, while the
   * service stays alive and not ready.
   */
  rebuild(): Promise<RebuildReport> {
    this.rebuilt ??= this.loadWithRetries();
    return this.rebuilt;
  }

  private async loadWithRetries(): Promise<RebuildReport> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const report = await this.loadAll();
        this.logger.info({ graph: report }, 'graph index rebuilt from the store of record');
        return report;
      } catch (error) {
        this.graphs.clear();
        this.accountNodes.clear();
        const retryInMs = exponentialBackoffMs(attempt, REBUILD_BACKOFF);
        this.logger.error({ err: error, attempt, retryInMs }, 'could not rebuild the graph index from the store of record; retrying');
        await new Promise((resolve) => setTimeout(resolve, retryInMs));
      }
    }
  }

  /** Resolves once the rebuild is done. */
  async ready(): Promise<void> {
    await this.rebuild();
  }

  isReady(): boolean {
    return this.rebuiltReport !== undefined;
  }

  /** The tenant's graph (after the rebuild), created empty when new. */
  async get(accountId: string, environment: string): Promise<TenantGraph> {
    await this.ready();
    return this.graphOf({ accountId, environment });
  }

  /**
   * Applies changes to the tenant's graph; they are commutative and idempotent (TenantGraph).
   * Past the account's share or the index's bound, a change that would add a node is left out.
   * `traceId`: the request whose event the changes are, remembered when some were left out.
   */
  async apply(scope: GraphScope, changes: readonly GraphChange[], traceId?: string): Promise<AppliedChanges> {
    const graph = await this.get(scope.accountId, scope.environment);
    const nodesBefore = graph.index.nodeCount;
    const held = this.accountNodes.get(scope.accountId) ?? 0;
    const applied: GraphChange[] = [];
    const toStore: GraphChange[] = [];
    let refused = 0;
    for (const change of changes) {
      const added = graph.index.nodeCount - nodesBefore;
      const full = held + added >= this.accountMaxNodes || this.totalNodes + added >= this.bounds.graphMaxNodes;
      if (full && graph.addsNodes(change)) {
        refused += 1;
        continue;
      }
      if (graph.apply(change)) toStore.push(change);
      applied.push(change);
    }
    const added = graph.index.nodeCount - nodesBefore;
    if (added > 0) {
      this.accountNodes.set(scope.accountId, held + added);
      this.totalNodes += added;
    }
    if (refused > 0) {
      graphNodesRefused.inc(refused);
      if (traceId !== undefined) this.refusedRequests.set(requestKey(scope, traceId), true);
    }
    return { graph, applied, toStore, refused };
  }

  /**
   * ADR-0016: throws the 429 of a request whose own event named a node the account could
   * not add (it holds its share of the graph's nodes, or the index its bound). Its data was
   * accepted, its other links applied; a statistic of its network would miss what was left out.
   */
  refuseWhenOverShare({ accountId, environment, traceId }: MessageEnvelope<unknown>): void {
    if (!this.refusedRequests.has(requestKey({ accountId, environment }, traceId))) return;
    const accountFull = (this.accountNodes.get(accountId) ?? 0) >= this.accountMaxNodes;
    const bound = accountFull ? `its share of the graph's nodes (${this.accountMaxNodes}: ACCOUNT_SHARE_PERCENT of GRAPH_MAX_NODES)` : `the graph's bound (GRAPH_MAX_NODES, ${this.bounds.graphMaxNodes} nodes over every account)`;
    throw new RateLimitedError(
      OVER_SHARE_RETRY_AFTER_SECONDS,
      `the account holds ${bound}; this request names a customer, device, card, e-mail or other node new to the account, which it cannot add. The data was accepted, nothing was answered from the graph; the account's known customers are still decided`,
    );
  }

  private async loadAll(): Promise<RebuildReport> {
    const started = performance.now();
    let changes = 0;
    const scopes = await this.store.scopes();
    for (const scope of scopes) {
      const graph = new TenantGraph({ customNodeTypes: await this.store.customNodeTypes(scope) });
      for await (const batch of this.store.load(scope)) {
        graph.applyAll(batch);
        changes += batch.length;
      }
      this.graphs.set(scopeKey(scope), graph);
      // Accepted data is kept: a rebuild loads every stored node, whatever the bounds.
      this.accountNodes.set(scope.accountId, (this.accountNodes.get(scope.accountId) ?? 0) + graph.index.nodeCount);
    }
    const { nodes, edges } = this.totals();
    this.totalNodes = nodes;
    const elapsedMs = performance.now() - started;
    graphRebuildSeconds.set(elapsedMs / 1000);
    this.rebuiltReport = { tenants: scopes.length, nodes, edges, changes, elapsedMs: Math.round(elapsedMs) };
    return this.rebuiltReport;
  }

  private graphOf(scope: GraphScope): TenantGraph {
    const key = scopeKey(scope);
    let graph = this.graphs.get(key);
    if (graph === undefined) {
      graph = new TenantGraph();
      this.graphs.set(key, graph);
    }
    return graph;
  }
}

// JSON of the pair: no separator character can make two tenants collide.
const scopeKey = (scope: GraphScope): string => JSON.stringify([scope.accountId, scope.environment]);
const requestKey = (scope: GraphScope, traceId: string): string => JSON.stringify([scope.accountId, scope.environment, traceId]);
