// npm run profile: the embedded app under V8's sampling profiler (`node --cpu-prof`) while 50
// connections send customer checkpoints (a different customer each, devices shared in small
// rings); then the share of CPU time per package and per function, for the main thread and for
// the PGlite worker thread, and a flame graph (PNG) of each thread over the load's window
// (flame-graph.mjs, when Debian's chromium is installed). The .cpuprofile files it leaves open
// as interactive flame graphs in Chrome DevTools (Performance panel, "Load profile") too.
//
// PROFILE_WORKLOAD=mixed profiles `npm run bench:mixed`'s traffic instead; PROFILE_RULES (0) saves
// that many realistic rules per checkpoint first (bench-rules.mjs, as BENCH_RULES does there);
// PROFILE_RATE offers a fixed rate (requests/s, Poisson arrivals: paced-load.mjs) instead of as many
// as are answered.
//
// PROFILE_HEAP=1 profiles allocations instead of CPU time: V8's sampling heap profiler over the
// load's window (heap-sampling.preload.mjs, every PROFILE_HEAP_INTERVAL bytes, 16384), then the
// bytes allocated on the main thread's heap per answered request, by package, by function (top 30)
// and by part of the service (allocation-report.mjs), as issue 35's allocation target counts them.
//
// Not 0x or clinic: both profile through `--prof`, whose code-event log of PGlite's
// WebAssembly kept the app from starting within ten minutes here.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { summariseAllocations } from './allocation-report.mjs';
import { ROOT, answers, freePort, standaloneArgs } from './bench-processes.mjs';
import { callTree, canDrawFlameGraphs, drawFlameGraph, frameLocation, selfTimes } from './flame-graph.mjs';
import { createRules } from './bench-rules.mjs';
import { population, requestSequence } from './mixed-workload.mjs';
import { pacedLoad } from './paced-load.mjs';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 20);
// `customer` (the default): customer checkpoints only; `mixed`: `npm run bench:mixed`'s traffic.
const WORKLOAD = process.env.PROFILE_WORKLOAD ?? 'customer';
const RULES = Number(process.env.PROFILE_RULES ?? 0);
// Requests per second offered over all connections; 0 (the default): as fast as they are answered.
// Below capacity the profile shows the long tasks that make the latency tail (idle time between them).
const RATE = Number(process.env.PROFILE_RATE ?? 0);
const KEY = 'sk_test_profilingkey0123456789abcd';
const HEAP = process.env.PROFILE_HEAP === '1';
const HEAP_INTERVAL = Number(process.env.PROFILE_HEAP_INTERVAL ?? 16384);

/**
 * The main thread's parts, for the table "by part of the service": a sample counts for the part
 * of the outermost frame on its stack that names one (scoring's call into the velocity counters
 * counts for scoring), else "other". Matched against `function url`.
 */
const PARTS = [
  ['HTTP body validation (class-transformer, compiled class-validator rules)', /^validateInput .*validate-input/],
  ['bus payload validation (requests between services)', /^toValidPayload /],
  ['scoring (facts, features, rules, model, decision)', /checkpoint-scorer|checkpoint-responders|checkpoint-facts/],
  ['ingestion (entity merges)', /store-entity-updates|merge-document|entity-ingest/],
  ['graph updates', /graph-updates\.consumer|graph-engine/],
  ['velocity counters', /velocity-state/],
  ['lookup', /libs\/(services\/)?lookup/],
  ['labelling', /libs\/(services\/)?label/],
  ['event-log appends (main thread side)', /flushAppends|typeorm-event-log/],
  ['decision records', /decision-records/],
  ['database client (pg, PGlite adapter, messages to the worker)', /node_modules\/(pg|typeorm)\/|node-postgres|pglite-worker-database|pglite-statement-batcher/],
  ['HTTP in and out (Fastify, Nest router, TLS, JSON)', /fastify|@nestjs\/core\/router|_http_|node:net|node:internal\/streams|^writev |node:_tls|secure-json-parse|find-my-way|middie/],
  ['garbage collector', /^\(garbage collector\)/],
];

/** Self time per package (or file), per function and per part of the service within the load's window, as shares of the thread's busy samples. */
function summarise(file, window, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = selfTimes(profile, window);
  const total = [...selfTime.values()].reduce((sum, time) => sum + time, 0);
  if (total === 0) return 'no samples during the load (a thread that ran before it)';
  const byPackage = new Map();
  const byFunction = new Map();
  const byPart = new Map();
  const parentOf = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node.id])));
  const partMemo = new Map();
  const partOf = (id) => {
    if (!partMemo.has(id)) {
      const parent = parentOf.get(id);
      const { functionName, url } = nodes.get(id).callFrame;
      const outer = parent === undefined ? undefined : partOf(parent);
      partMemo.set(id, outer ?? PARTS.find(([, pattern]) => pattern.test(`${functionName} ${url}`))?.[0]);
    }
    return partMemo.get(id);
  };
  for (const [id, time] of selfTime) {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    if (functionName !== '(idle)') {
      const part = partOf(id) ?? 'other';
      byPart.set(part, (byPart.get(part) ?? 0) + time);
    }
    const where = frameLocation(url);
    const pkg = url.includes('node_modules/') ? where.split('/').slice(0, where.startsWith('@') ? 2 : 1).join('/') : url.includes('/dist/') ? where.split('/').slice(0, 4).join('/') : where || functionName;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + time);
    const name = `${functionName || '(anonymous)'} ${where}:${lineNumber}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + time);
  }
  const table = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, time]) => `  ${((100 * time) / total).toFixed(1).padStart(5)} %  ${name}`)
      .join('\n');
  const busy = [...byPart.values()].reduce((sum, time) => sum + time, 0);
  const parts = [...byPart]
    .sort((a, b) => b[1] - a[1])
    .map(([name, time]) => `  ${((100 * time) / busy).toFixed(1).padStart(5)} %  ${name}`)
    .join('\n');
  // The worker thread runs none of the parts: its table would say "other" alone.
  const partsTable = [...byPart.keys()].some((part) => part !== 'other' && part !== 'garbage collector') ? `\n by part of the service (shares of the busy time):\n${parts}` : '';
  return `${(total / 1e6).toFixed(1)} s sampled, ${((100 * busy) / total).toFixed(0)} % busy\n by package:\n${table(byPackage)}\n by function:\n${table(byFunction)}${partsTable}`;
}

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'ringfence-profile-data-'));
const profileDir = process.env.PROFILE_OUTPUT ?? mkdtempSync(join(tmpdir(), 'ringfence-profile-'));
const heapProfile = join(profileDir, 'main-thread.heapprofile');
const profilerArgs = HEAP ? ['--import', join(ROOT, 'test/bench/heap-sampling.preload.mjs')] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
const profilerEnv = HEAP ? { HEAP_PROFILE_FILE: heapProfile, HEAP_PROFILE_INTERVAL: String(HEAP_INTERVAL) } : {};
const app = spawn(process.execPath, [...profilerArgs, ...standaloneArgs()], {
  cwd: ROOT,
  // The account limiter off, as in `npm run bench:mixed`: profile the service, not the limiter.
  env: { ...process.env, ...profilerEnv, PORT: String(port), DATA_DIR: dataDir, BOOTSTRAP_API_KEY: KEY, ACCOUNT_RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const exited = new Promise((resolve) => app.once('exit', resolve));
const loadWindow = { fromUs: -Infinity, untilUs: Infinity };
let answered = 0;

try {
  for (const deadline = Date.now() + 60_000; !(await answers(port, '/health/ready')); ) {
    if (Date.now() > deadline) throw new Error('the profiled app did not become ready within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (RULES > 0) {
    const created = await createRules(port, KEY, RULES);
    console.log(`rules: ${created.active + created.passive} created (${created.active} active, ${created.passive} passive)`);
  }
  // The load's window on V8's monotonic clock (the profiles' clock): the flame graphs leave
  // start-up and shutdown out.
  loadWindow.fromUs = Number(process.hrtime.bigint() / 1000n);
  if (HEAP) app.kill('SIGUSR2');
  const result = await offerLoad(WORKLOAD === 'mixed' ? mixedRequests() : customerRequests());
  loadWindow.untilUs = Number(process.hrtime.bigint() / 1000n);
  answered = result.total;
  if (HEAP) await heapProfileWritten();
  console.log(`profiled load: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.non2xx}`);
} finally {
  // SIGINT lets the app stop cleanly, which is when V8 writes the profiles.
  app.kill('SIGINT');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
/** Asks the server to stop sampling (the preload's second SIGUSR2) and waits for its profile. */
async function heapProfileWritten() {
  app.kill('SIGUSR2');
  // Polled because asynchronous by design: a signal has no answer, and the server writes the
  // profile (aside, then renamed into place) in its own process when it handles it.
  for (const deadline = Date.now() + 60_000; !existsSync(heapProfile); ) {
    if (Date.now() > deadline) throw new Error('the profiled app wrote no heap profile within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Customer checkpoints, a different customer each, devices shared in rings of four. */
function customerRequests() {
  let sent = 0;
  const headers = { 'content-type': 'application/json', authorization: `token ${KEY}` };
  return () => {
    sent += 1;
    const id = `cus-${sent % 20_000}`;
    const body = JSON.stringify({
      timestamp: Date.now(),
      customer: { customerId: id, email: `${id}@example.com`, name: 'Ada Lovelace', telephone: `+44770090${String(sent % 10_000).padStart(4, '0')}`, registrationTime: Date.now() - 1e9 },
      deviceId: `dev-${sent % 5_000}`,
    });
    return { method: 'POST', path: '/v2/customer', headers, body };
  };
}

/** The mixed workload of `npm run bench:mixed` (same population and sequence, seed 11). */
function mixedRequests() {
  const pool = requestSequence(population({ customers: 20_000, seed: 11 }), { count: 60_000, startMs: Date.now(), key: KEY });
  let sent = 0;
  return () => pool[sent++ % pool.length];
}

/**
 * The load: as many requests as are answered over 50 connections (autocannon), or with
 * PROFILE_RATE Poisson arrivals at that rate (paced-load.mjs, as `npm run bench:mixed`'s
 * fixed-rate phase). Answers requests/s, p50 and p99 (ms), non-2xx, and the requests answered.
 */
async function offerLoad(next) {
  if (RATE > 0) {
    const latencies = [];
    let non2xx = 0;
    const outcome = await pacedLoad({ port, rate: RATE, seconds: SECONDS, connections: 50, next, onAnswer: (request, status, body, ms) => {
      latencies.push(ms);
      if (status < 200 || status > 299) non2xx += 1;
    } });
    latencies.sort((a, b) => a - b);
    const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
    return { rps: (outcome.answered * 1000) / outcome.elapsedMs, p50: at(0.5), p99: at(0.99), non2xx, total: outcome.answered };
  }
  const result = await autocannon({
    url: `https://127.0.0.1:${port}`,
    connections: 50,
    duration: SECONDS,
    tlsOptions: { rejectUnauthorized: false },
    requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, total: result.requests.total };
}

if (HEAP) {
  console.log(`\nmain thread's allocations (${heapProfile}, sampled every ${HEAP_INTERVAL} bytes): ${summariseAllocations(heapProfile, answered, PARTS)}`);
} else {
  if (!canDrawFlameGraphs()) console.log('\nno flame graphs: no browser to draw them with (apt-get install chromium, or set CHROMIUM_PATH)');
  // The main thread's profile is written first (its name carries the lower thread number).
  for (const [index, file] of readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile')).sort().entries()) {
    const thread = index === 0 ? 'main thread' : 'PGlite worker thread';
    console.log(`\n${thread} (${join(profileDir, file)}): ${summarise(join(profileDir, file), loadWindow)}`);
    if (!canDrawFlameGraphs()) continue;
    const tree = callTree(JSON.parse(readFileSync(join(profileDir, file), 'utf8')), loadWindow);
    // A thread that ran before the load (the worker that creates a new data directory) has none.
    if (tree.children.length === 0) continue;
    const image = join(profileDir, file.replace(/\.cpuprofile$/, '.flame-graph.png'));
    await drawFlameGraph(tree, image, `${thread}, ${WORKLOAD} workload, ${SECONDS} s of load (busy time only; width = share of it)`);
    console.log(` flame graph: ${image}`);
  }
}
