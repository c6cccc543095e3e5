// The graph engine at scale (issue 4): a synthetic graph of 1,000,000 nodes and 3,000,000 edges
// built through GraphIndex's public API, then connect (features, depth 20) from random customers.
// Reports updates/s, index memory and connect p50/p99 per call at the engine level.
// Run: `npm run build && node --max-old-space-size=4096 test/bench/graph.bench.mjs`.
// Env: BENCH_NODES (1e6), BENCH_EDGES (3e6), BENCH_CALLS (10000), BENCH_SEED (42); BENCH_PROFILE=1
// also times the capped starts again: traversal only, connect, connect without edge statistics.
// The graph's shape is described in synthetic-graph.mjs.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { NOW, syntheticGraph } from './synthetic-graph.mjs';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const { GraphIndex } = require(join(root, 'dist/libs/graph-engine/src/index.js'));

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc');

const TARGET_NODES = Number(process.env.BENCH_NODES ?? 1_000_000);
const TARGET_EDGES = Number(process.env.BENCH_EDGES ?? 3_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 10_000);

const memory = () => {
  gc();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external: external + arrayBuffers };
};
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const before = memory();

// ---- Generate the operations (node numbers and times) before timing them. ----
const synthetic = syntheticGraph({ nodes: TARGET_NODES, edges: TARGET_EDGES, seed: Number(process.env.BENCH_SEED ?? 42) });
let { opA, opB, opTime } = synthetic;
const { kinds, names, ops, customerNodes, states, pick } = synthetic;

// ---- Apply them through the public API. ----
const graph = new GraphIndex();
const applyStart = process.hrtime.bigint();
for (let i = 0; i < ops; i += 1) graph.link(kinds[opA[i]], names[opA[i]], kinds[opB[i]], names[opB[i]], opTime[i]);
const applySeconds = Number(process.hrtime.bigint() - applyStart) / 1e9;
const stateStart = process.hrtime.bigint();
for (const state of states) {
  if (state.type === 'label') graph.setLabel(state.customerId, state.label);
  else if (state.type === 'tags') graph.setTags(state.customerId, state.tags, state.atMs);
  else graph.setChargeback(state.chargebackId, { forgiven: state.forgiven });
}
const stateUpdates = states.length;
const stateSeconds = Number(process.hrtime.bigint() - stateStart) / 1e9;
const nodesBuilt = graph.nodeCount;
const edgesBuilt = graph.edgeCount;
opA = opB = opTime = null;
const after = memory();

// ---- connect(features, depth 20) from random customers. ----
const starts = Array.from({ length: CALLS }, () => names[customerNodes[pick(customerNodes.length)]]);
for (let i = 0; i < 2000; i += 1) graph.connect(names[customerNodes[pick(customerNodes.length)]], { depth: 20, nowMs: NOW });
const times = new Float64Array(CALLS);
let capped = 0;
let degreeHit = 0;
let fraud = 0;
let visited = 0;
const cappedTimes = [];
for (let i = 0; i < CALLS; i += 1) {
  const started = process.hrtime.bigint();
  const features = graph.connect(starts[i], { depth: 20, nowMs: NOW });
  times[i] = Number(process.hrtime.bigint() - started) / 1e6;
  if (features.maxNodesHit) {
    capped += 1;
    cappedTimes.push(times[i]);
  }
  else visited += features.count;
  if (features.maxDegreeHit) degreeHit += 1;
  if (features.hopsToFraud >= 0) fraud += 1;
}
times.sort();
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
cappedTimes.sort((a, b) => a - b);
const cappedAt = (q) => cappedTimes[Math.min(cappedTimes.length - 1, Math.floor(q * cappedTimes.length))] ?? 0;

console.log(`graph: ${nodesBuilt.toLocaleString('en')} nodes, ${edgesBuilt.toLocaleString('en')} edges (${synthetic.networks.toLocaleString('en')} networks, ${synthetic.ringNetworks} in rings, ${synthetic.SHARED} shared devices of 1,500, ${synthetic.HUBS} hub devices of 6,000–18,000 customers)`);
console.log(`updates: ${ops.toLocaleString('en')} links in ${applySeconds.toFixed(2)} s = ${Math.round(ops / applySeconds).toLocaleString('en')} links/s; ${stateUpdates.toLocaleString('en')} label/tag/chargeback updates in ${(stateSeconds * 1000).toFixed(0)} ms`);
console.log(`memory: RSS ${mib(before.rss)} -> ${mib(after.rss)} (+${mib(after.rss - before.rss)}); heap ${mib(before.heapUsed)} -> ${mib(after.heapUsed)} (+${mib(after.heapUsed - before.heapUsed)}); typed arrays ${mib(before.external)} -> ${mib(after.external)} (+${mib(after.external - before.external)})`);
console.log(`connect(features, depth 20) x ${CALLS.toLocaleString('en')} random customers: p50 ${at(0.5).toFixed(3)} ms, p90 ${at(0.9).toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms, p99.9 ${at(0.999).toFixed(3)} ms, max ${times[times.length - 1].toFixed(3)} ms`);
console.log(`  ${capped} hit the 5,000-node cap, ${degreeHit} met a hub (maxDegreeHit), ${fraud} found a fraudster; mean nodes visited when not capped: ${(visited / Math.max(1, CALLS - capped)).toFixed(1)}`);
if (process.env.BENCH_PROFILE) {
  const cappedStarts = starts.filter((start) => graph.connect(start, { depth: 20, nowMs: NOW }).maxNodesHit);
  for (const [name, fn] of [['traverse only', (start) => graph.customersWithin(start, 20)], ['connect', (start) => graph.connect(start, { depth: 20, nowMs: NOW })], ['connect, no edge stats', (start) => graph.connect(start, { depth: 20, nowMs: NOW, caps: { generalEdgeDepth: 0, localEdgeDepth: 0 } })]]) {
    const started = process.hrtime.bigint();
    for (const start of cappedStarts) fn(start);
    console.log(`  ${name}: ${(Number(process.hrtime.bigint() - started) / 1e6 / cappedStarts.length).toFixed(3)} ms per capped start`);
  }
  console.log('arena slots', graph.arena.slotCount, 'packs', graph.arena.packCount);
}
console.log(`  the capped calls alone: p50 ${cappedAt(0.5).toFixed(3)} ms, p99 ${cappedAt(0.99).toFixed(3)} ms`);
