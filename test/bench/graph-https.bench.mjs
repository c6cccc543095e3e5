// The graph at scale over HTTPS in the embedded mode (issue 4): `npm run bench:graph-https`.
//
// 1. A first start of the standalone server creates DATA_DIR (database, certificate, account).
// 2. The synthetic graph of synthetic-graph.mjs (1,000,000 nodes, 3,000,000 edges) is written to
//    the store of record (the graph_* tables of the embedded PGlite) through TypeOrmGraphStore.
// 3. Rebuild: the index is rebuilt from the store in this process, as the graph service does at
//    start (time and memory), then the server is started again and timed to /health/ready (which
//    waits for the graph service's own rebuild).
// 4. Over 20 connections (autocannon, as fast as they go), BENCH_ROUNDS rounds of BENCH_SECONDS,
//    alternating with a bare Fastify HTTPS server answering a constant JSON (same certificate):
//    - POST /v2/connect?features=true&depth=20 from random customers: the graph query plus the
//      durable ingest of the connect event (and its consumers) that every connect costs;
//    - POST /v2/voucher/check (depth 10) from random customers: a graph query alone, nothing
//      stored, so the graph's own share of the cost over HTTPS.
//    Medians of the rounds.
// Env: BENCH_NODES, BENCH_EDGES, BENCH_SEED, BENCH_CONNECTIONS (20), BENCH_SECONDS (15),
// BENCH_ROUNDS (3), BENCH_DATA_DIR (reuse a data directory written by an earlier run: skips 1–2).
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import autocannon from 'autocannon';
import { ROOT, freePort, standaloneArgs, startProcess } from './bench-processes.mjs';
import { NOW, syntheticGraph } from './synthetic-graph.mjs';

const require = createRequire(import.meta.url);
const { openDataSource } = require(join(ROOT, 'dist/libs/persistence/src/index.js'));
const { TypeOrmGraphStore } = require(join(ROOT, 'dist/libs/graph-store/src/index.js'));
const { TenantGraph } = require(join(ROOT, 'dist/libs/graph-engine/src/index.js'));

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc');

const NODES = Number(process.env.BENCH_NODES ?? 1_000_000);
const EDGES = Number(process.env.BENCH_EDGES ?? 3_000_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const KEY = 'sk_test_benchmarkbenchmarkbench01';
const ADMIN = 'bench-admin-token-0123456789abcdef';
const WRITE_BATCH = 5_000;
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const seconds3 = (ms) => `${(ms / 1000).toFixed(1)} s`;

const serverEnv = (dataDir, port) => ({
  PORT: String(port),
  DATA_DIR: dataDir,
  BOOTSTRAP_API_KEY: KEY,
  ADMIN_API_KEY: ADMIN,
  ACCOUNT_RATE_LIMIT_PER_MINUTE: '100000000',
  CUSTOMER_RATE_LIMIT_PER_MINUTE: '100000000',
  LOG_LEVEL: 'warn',
});

function getJson(port, path, token) {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, rejectUnauthorized: false, headers: { authorization: `token ${token}` } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve(JSON.parse(body)));
    })
      .on('error', reject)
      .end();
  });
}

const stopped = (child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve), child.kill('SIGTERM')));

const synthetic = syntheticGraph({ nodes: NODES, edges: EDGES, seed: Number(process.env.BENCH_SEED ?? 42) });
const { kinds, names, opA, opB, opTime, ops, customerNodes, states, pick } = synthetic;

let dataDir = process.env.BENCH_DATA_DIR;
let accountId;
if (!dataDir) {
  dataDir = mkdtempSync(join(tmpdir(), 'ringfence-graph-bench-'));
  const port = await freePort();
  const first = await startProcess(standaloneArgs(), serverEnv(dataDir, port), port);
  accountId = (await getJson(port, '/admin/accounts', ADMIN)).accounts.find((account) => account.name === 'default').accountId;
  await stopped(first);

  const dataSource = await openDataSource({ dataDir });
  const store = new TypeOrmGraphStore(dataSource);
  const scope = { accountId, environment: 'test' };
  const started = performance.now();
  let batch = [];
  const flush = async () => {
    await store.write(scope, batch);
    batch = [];
  };
  // The generator names custom nodes by their slot kind; a payload names them by nodeType.
  const ref = (node) => (kinds[node] === 'customNode1' ? { kind: 'custom', nodeType: 'loyaltyCard', identity: names[node] } : { kind: kinds[node], identity: names[node] });
  for (let i = 0; i < ops; i += 1) {
    batch.push({ type: 'link', a: ref(opA[i]), b: ref(opB[i]), firstSeenMs: opTime[i] });
    if (batch.length === WRITE_BATCH) await flush();
  }
  batch.push(...states);
  await flush();
  const elapsed = performance.now() - started;
  console.log(`store of record: ${(ops + states.length).toLocaleString('en')} changes written in ${seconds3(elapsed)} = ${Math.round((ops + states.length) / (elapsed / 1000)).toLocaleString('en')}/s (batches of ${WRITE_BATCH}, PGlite)`);
  await dataSource.destroy();
  console.log(`data directory (BENCH_DATA_DIR to reuse): ${dataDir}`);
}

// Rebuild in this process, as TenantGraphs does at start: time and memory of the index alone.
{
  const dataSource = await openDataSource({ dataDir });
  const store = new TypeOrmGraphStore(dataSource);
  const [scope] = await store.scopes();
  accountId ??= scope.accountId;
  gc();
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const graph = new TenantGraph({ customNodeTypes: await store.customNodeTypes(scope) });
  for await (const changes of store.load(scope)) graph.applyAll(changes);
  const elapsed = performance.now() - started;
  gc();
  const grown = process.memoryUsage().rss - before;
  console.log(`rebuild from the store: ${graph.index.nodeCount.toLocaleString('en')} nodes, ${graph.index.edgeCount.toLocaleString('en')} edges in ${seconds3(elapsed)}; index +${mib(grown)} RSS`);
  await dataSource.destroy();
}
gc();

const port = await freePort();
const startedAt = performance.now();
const server = await startProcess(standaloneArgs(), serverEnv(dataDir, port), port, '/health/ready', 600_000);
console.log(`server start to /health/ready (rebuild included): ${seconds3(performance.now() - startedAt)}; server RSS ${mib(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) * 1024)}`);

const randomCustomer = () => names[customerNodes[pick(customerNodes.length)]];
const QUERIES = {
  'connect features': { path: '/v2/connect?features=true&depth=20', body: () => ({ timestamp: NOW, customerId: randomCustomer() }) },
  'voucher check': { path: '/v2/voucher/check', body: () => ({ timestamp: NOW, customerId: randomCustomer(), voucherCode: 'WELCOME10', depth: 10 }) },
};

async function load(targetPort, query) {
  const result = await autocannon({
    url: `https://127.0.0.1:${targetPort}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: query.path,
        headers: { 'content-type': 'application/json', authorization: `token ${KEY}` },
        setupRequest: (req) => ({ ...req, body: JSON.stringify(query.body()) }),
      },
    ],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, non2xx: result.non2xx, errors: result.errors };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summary = (runs) => ({
  rps: Math.round(median(runs.map((run) => run.rps))),
  p50: median(runs.map((run) => run.p50)),
  p90: median(runs.map((run) => run.p90)),
  p99: median(runs.map((run) => run.p99)),
  non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
  errors: runs.reduce((sum, run) => sum + run.errors, 0),
});

const barePort = await freePort();
const bare = await startProcess(['test/bench/bare-fastify-server.mjs', join(dataDir, 'tls', 'cert.pem'), join(dataDir, 'tls', 'key.pem'), String(barePort)], {}, barePort);
try {
  for (const [name, query] of Object.entries(QUERIES)) {
    await load(port, query); // warm-up: JIT, connections
    const service = [];
    const baseline = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternate the two so machine noise falls on both alike.
      service.push(await load(port, query));
      baseline.push(await load(barePort, query));
    }
    console.log(`${name}: POST ${query.path}, random customers, ${connections} connections, ${seconds} s x ${rounds} rounds (medians)`);
    console.table({ ringfence: summary(service), 'bare fastify': summary(baseline) });
  }
} finally {
  await stopped(server);
  await stopped(bare);
}
