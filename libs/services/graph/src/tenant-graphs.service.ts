import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { GRAPH_STORE, type GraphChange, type GraphScope, type GraphStore, TenantGraph } from '@ringfence/graph-engine';
import type { Logger } from '@ringfence/platform';
import { READINESS_CHECKS, ROOT_LOGGER, type ReadinessCheck } from '@ringfence/service-runtime';
import { graphRebuildSeconds, measureGraphSize } from './graph-metrics';

/** What a rebuild read, for the start-up log line and the benchmark. */
export interface RebuildReport {
  tenants: number;
  nodes: number;
  edges: number;
  changes: number;
  elapsedMs: number;
}

/**
 * The in-memory graph of every tenant, rebuilt from the store of record when the service
 * starts (architecture: the index is a cache of the store). Until the rebuild is done, every
 * use waits for it (`ready`) and /health/ready says not ready: answering from half a graph
 * would give wrong statistics without saying so.
 */
@Injectable()
export class TenantGraphs implements OnModuleInit, OnApplicationBootstrap {
  private readonly graphs = new Map<string, TenantGraph>();
  private rebuilt: Promise<RebuildReport> | undefined;
  private rebuiltReport: RebuildReport | undefined;

  constructor(
    @Inject(GRAPH_STORE) private readonly store: GraphStore,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    @Inject(READINESS_CHECKS) private readonly readinessChecks: ReadinessCheck[],
  ) {}

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
        const retryInMs = Math.min(30_000, 500 * 2 ** (attempt - 1));
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

  /** Applies changes to the tenant's graph; they are commutative and idempotent (TenantGraph). */
  async apply(scope: GraphScope, changes: readonly GraphChange[]): Promise<TenantGraph> {
    const graph = await this.get(scope.accountId, scope.environment);
    graph.applyAll(changes);
    return graph;
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
    }
    const { nodes, edges } = this.totals();
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
