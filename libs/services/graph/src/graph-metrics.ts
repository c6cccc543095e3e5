import { metricsRegistry } from '@ringfence/service-runtime';
import { Counter, Gauge, Histogram } from 'prom-client';

/** What the graph holds, summed over tenants; read from `source` when /metrics is scraped. */
let source: () => { nodes: number; edges: number; tenants: number } = () => ({ nodes: 0, edges: 0, tenants: 0 });

/** Sets where the size gauges read from (the process's `TenantGraphs`). */
export function measureGraphSize(of: typeof source): void {
  source = of;
}

const size = (name: string, help: string, read: (totals: ReturnType<typeof source>) => number) =>
  new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    collect() {
      this.set(read(source()));
    },
  });

size('ringfence_graph_nodes', 'Nodes of the in-memory graph, all tenants', (totals) => totals.nodes);
size('ringfence_graph_edges', 'Undirected edges of the in-memory graph, all tenants', (totals) => totals.edges);
size('ringfence_graph_tenants', 'Tenants (account and data set) with a graph in memory', (totals) => totals.tenants);

export const graphRebuildSeconds = new Gauge({
  name: 'ringfence_graph_rebuild_seconds',
  help: 'How long the last rebuild of the index from the store of record took',
  registers: [metricsRegistry],
});

/** ADR-0016: changes left out because they would have added a node past an account's share or the index's bound. */
export const graphNodesRefused = new Counter({
  name: 'ringfence_graph_changes_refused_total',
  help: "Graph changes left out because they would have added a node past the account's share (ACCOUNT_SHARE_PERCENT of GRAPH_MAX_NODES) or GRAPH_MAX_NODES",
  registers: [metricsRegistry],
});

/** Time inside the graph for one query (the traversal and its statistics), without the bus. */
export const graphQueryDuration = new Histogram({
  name: 'ringfence_graph_query_duration_seconds',
  help: 'Graph query time in the graph service by query',
  labelNames: ['query'],
  buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05],
  registers: [metricsRegistry],
});
