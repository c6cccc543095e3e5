// Memory of the graph per million customers of the mixed workload (run by mixed-load.bench.mjs
// in a process of its own: `node --expose-gc test/bench/mixed-graph-memory.mjs <customers> <seed>`).
//
// The population of mixed-workload.mjs at <customers>, every customer sent once as a customer
// update, once as a PSP transaction and once as a connect, one in five redeeming a voucher, every
// supplier paid out once: the bodies of the load benchmark, turned into graph changes by the
// same functions the graph service applies (`@ringfence/graph-engine`'s *PayloadGraphChanges)
// and applied to one TenantGraph. Prints one JSON line: customers, nodes, edges and the growth of
// RSS and heap (after a full GC) over the population alone.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './bench-processes.mjs';
import { builders, population } from './mixed-workload.mjs';

const require = createRequire(import.meta.url);
const engine = require(join(ROOT, 'dist/libs/graph-engine/src/index.js'));

const customers = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? 11);
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

const pop = population({ customers, seed });
const build = builders(pop);
const memory = () => {
  globalThis.gc();
  // `external` (C++ objects bound to JS, typed arrays' buffers included) is what lives off the V8 heap.
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, heapUsed, offHeap: external };
};
const before = memory();
const started = performance.now();
const graph = new engine.TenantGraph();
const t = Date.now();
for (const c of pop.customers) {
  graph.applyAll(engine.customerPayloadGraphChanges(build.customer(c, t)));
  graph.applyAll(engine.pspTransactionPayloadGraphChanges(build.pspBeforeAuth(c, t, build.newTransaction(c))));
  graph.applyAll(engine.connectPayloadGraphChanges(build.connect(c, t)));
  if (c.index % 5 === 0) graph.applyAll(engine.voucherRedemptionPayloadGraphChanges(build.voucherRedemption(c, t)));
}
for (const s of pop.suppliers) graph.applyAll(engine.payoutPayloadGraphChanges(build.payout(s, t)));
const seconds = (performance.now() - started) / 1000;
const after = memory();
console.log(
  JSON.stringify({
    customers: pop.customers.length,
    suppliers: pop.suppliers.length,
    nodes: graph.index.nodeCount,
    edges: graph.index.edgeCount,
    seconds: Number(seconds.toFixed(1)),
    rssBytes: after.rss - before.rss,
    heapUsedBytes: after.heapUsed - before.heapUsed,
    offHeapBytes: after.offHeap - before.offHeap,
    // Keeps the population reachable until the measurement is taken.
    populationRings: pop.rings.length,
  }),
);
