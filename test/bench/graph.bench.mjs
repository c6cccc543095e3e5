// The graph engine at scale (issue 4): a synthetic graph of 1,000,000 nodes and 3,000,000 edges
// built through GraphIndex's public API, then connect (features, depth 20) from random customers.
// Reports updates/s, index memory and connect p50/p99 per call at the engine level.
// Run: `npm run build && node --max-old-space-size=4096 test/bench/graph.bench.mjs`.
// Env: BENCH_NODES (1e6), BENCH_EDGES (3e6), BENCH_CALLS (10000), BENCH_SEED (42); BENCH_PROFILE=1
// also times the capped starts again: traversal only, connect, connect without edge statistics.
//
// Shape: customers in small networks (2–12 customers sharing a pool of about 2.3 attributes
// per customer: e-mails, phones, devices, cards and a few vehicles, documents, custom nodes),
// 1 % of the networks chained into rings of 20, two shared devices of 1,500 customers each
// (visited: they join thousands of networks, so traversals from there hit the 5,000-node cap),
// five hub devices of 6,000–18,000 customers (over 5,000 edges: skipped, maxDegreeHit), labels,
// chargebacks and tags on a few customers.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const { GraphIndex } = require(join(root, 'dist/libs/graph-engine/src/index.js'));

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc');

const TARGET_NODES = Number(process.env.BENCH_NODES ?? 1_000_000);
const TARGET_EDGES = Number(process.env.BENCH_EDGES ?? 3_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 10_000);
const NOW = Date.UTC(2025, 0, 31);
const DAY = 86_400_000;

// xorshift32: the same graph on every run.
let seed = Number(process.env.BENCH_SEED ?? 42) | 0 || 1;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
};
const pick = (n) => Math.floor(random() * n);

const memory = () => {
  gc();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external: external + arrayBuffers };
};
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const before = memory();

// ---- Generate the operations (node numbers and times) before timing them. ----
const CUSTOMER = 'customer';
const ATTRIBUTE_KINDS = ['email', 'email', 'email', 'email', 'email', 'phone', 'phone', 'phone', 'phone', 'device', 'device', 'device', 'device', 'device', 'card', 'card', 'card', 'card', 'card', 'vehicle', 'identification', 'customNode1'];
const kinds = [];
const names = [];
const newNode = (kind) => {
  kinds.push(kind);
  names.push(`${kind[0]}${names.length}`);
  return names.length - 1;
};
let opA = new Int32Array(TARGET_EDGES + 1024);
let opB = new Int32Array(TARGET_EDGES + 1024);
let opTime = new Float64Array(TARGET_EDGES + 1024);
let ops = 0;
const planned = new Set();
const plan = (a, b) => {
  const key = a < b ? a * 2 ** 21 + b : b * 2 ** 21 + a;
  if (planned.has(key) || ops >= TARGET_EDGES) return false;
  planned.add(key);
  opA[ops] = a;
  opB[ops] = b;
  // Most edges are old; a few in the last day, for the growth rates.
  opTime[ops] = NOW - (random() < 0.05 ? pick(DAY) : pick(400 * DAY));
  ops += 1;
  return true;
};

const groups = [];
const HUBS = 5;
const SHARED = 2;
const reserve = HUBS + SHARED + 20_000;
while (names.length < TARGET_NODES - reserve) {
  const size = 2 + pick(11);
  const customers = Array.from({ length: size }, () => newNode(CUSTOMER));
  const pool = Array.from({ length: Math.round(size * 2.3) }, () => newNode(ATTRIBUTE_KINDS[pick(ATTRIBUTE_KINDS.length)]));
  // Every attribute of the network belongs to at least one of its customers.
  for (const attribute of pool) plan(customers[pick(customers.length)], attribute);
  for (const customer of customers) {
    for (let k = 0; k < 4; k += 1) plan(customer, pool[pick(pool.length)]);
    if (random() < 0.003) plan(customer, newNode('chargeback'));
  }
  groups.push({ customers, pool });
}
// Rings: 1 % of the networks, chained in rings of 20.
const ringGroups = groups.filter(() => random() < 0.01);
for (let i = 0; i < ringGroups.length; i += 1) {
  const next = ringGroups[i % 20 === 19 || i + 1 === ringGroups.length ? i - (i % 20) : i + 1];
  const group = ringGroups[i];
  plan(group.customers[pick(group.customers.length)], next.pool[pick(next.pool.length)]);
}
const randomCustomer = () => {
  const group = groups[pick(groups.length)];
  return group.customers[pick(group.customers.length)];
};
for (let s = 0; s < SHARED; s += 1) {
  const device = newNode('device');
  for (let k = 0; k < 1500; k += 1) plan(randomCustomer(), device);
}
for (let h = 0; h < HUBS; h += 1) {
  const hub = newNode('device');
  for (let k = 0; k < 6000 + h * 3000; k += 1) plan(randomCustomer(), hub);
}
// Top up to the node target with one-customer networks (customer + e-mail), then the edge target
// with more links inside the networks.
while (names.length < TARGET_NODES - 1) {
  const customer = newNode(CUSTOMER);
  plan(customer, newNode('email'));
  groups.push({ customers: [customer], pool: [names.length - 1] });
}
if (names.length < TARGET_NODES) plan(randomCustomer(), newNode('phone'));
while (ops < TARGET_EDGES) {
  const group = groups[pick(groups.length)];
  plan(group.customers[pick(group.customers.length)], group.pool[pick(group.pool.length)]);
}
planned.clear();
const customerNodes = [];
for (let n = 0; n < names.length; n += 1) if (kinds[n] === CUSTOMER) customerNodes.push(n);

// ---- Apply them through the public API. ----
const graph = new GraphIndex();
const applyStart = process.hrtime.bigint();
for (let i = 0; i < ops; i += 1) graph.link(kinds[opA[i]], names[opA[i]], kinds[opB[i]], names[opB[i]], opTime[i]);
const applySeconds = Number(process.hrtime.bigint() - applyStart) / 1e9;
const stateStart = process.hrtime.bigint();
let stateUpdates = 0;
for (const customer of customerNodes) {
  const roll = random();
  const id = names[customer];
  if (roll < 0.002) graph.setLabel(id, 'FRAUDSTER');
  else if (roll < 0.012) graph.setLabel(id, 'GENUINE');
  else if (roll < 0.03) graph.setTags(id, { vip: random() < 0.5, [`cohort-${pick(12)}`]: true }, NOW - pick(DAY * 30));
  else continue;
  stateUpdates += 1;
}
for (let n = 0; n < names.length; n += 1) {
  if (kinds[n] !== 'chargeback') continue;
  graph.setChargeback(names[n], { forgiven: random() < 0.3 });
  stateUpdates += 1;
}
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

console.log(`graph: ${nodesBuilt.toLocaleString('en')} nodes, ${edgesBuilt.toLocaleString('en')} edges (${groups.length.toLocaleString('en')} networks, ${ringGroups.length} in rings, ${SHARED} shared devices of 1,500, ${HUBS} hub devices of 6,000–18,000 customers)`);
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
