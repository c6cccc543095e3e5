// A mixed workload that resembles an integration's traffic, against the embedded mode and, in
// the same run, a bare Fastify HTTPS server answering a constant JSON: `npm run bench:mixed`.
//
// The traffic (mixed-workload.mjs): customer updates, PSP transactions before and after
// authorisation, connects (a third with the network features), voucher checks and redemptions,
// refunds, payouts, labels and known-fraud lookups (read and report), in the shares of its
// CLASSES, over BENCH_CUSTOMERS customers in small rings sharing devices, cards, e-mails and
// telephones. Bodies are the golden fixtures with their ids replaced; a seeded PRNG makes the
// population and the request sequence the same every run. The sequence is built before any load,
// so autocannon's request generator only hands out ready buffers (the load generator shares the
// machine's cores with the servers).
//
// 1. Bursts: BENCH_BURSTS times, a fresh standalone server (new DATA_DIR, started and ready), then
//    BENCH_BURST requests of the sequence sent at once over as many connections opened just before
//    (so the burst measures the server, not TLS handshakes); the same against a fresh bare server.
// 2. Load: a fresh standalone server and the bare server; a warm-up of each, then BENCH_ROUNDS
//    rounds of BENCH_SECONDS at BENCH_CONNECTIONS connections, alternating the two. Before each
//    round the previous server is left to settle (its CPU use under 10 %, at most 60 s), so a
//    backlog of one round does not fall on the next. The standalone server gets a continuing
//    sequence (new transactions, refunds, payouts…); the bare server replays it.
//    Unless BENCH_FLOOR=0, a third server takes part in every round, after the bare one: the
//    fixed stack's floor (nest-floor-server.mjs: NestJS on Fastify over HTTPS validating each
//    request as the gateway does, then answering a constant JSON), replaying the same sequence.
//    The floor's ratio to the bare server bounds what any service on this stack can reach here.
//    Each standalone round also gives its costs per answered request: CPU of every thread and of
//    the main thread alone (utime + stime of /proc/<pid>/stat and /proc/<pid>/task/<pid>/stat),
//    and bytes allocated on the V8 heaps, the main thread's and all (the server runs with
//    --trace-gc-nvp; the `allocated=` fields of its GC lines on stdout are summed over the round:
//    process-meters.mjs).
// 2b. Fixed rate: unless BENCH_FIXED_RATE=0, BENCH_ROUNDS rounds of BENCH_SECONDS at
//    BENCH_FIXED_RATE requests/s offered over BENCH_FIXED_CONNECTIONS connections (300 and 20: what
//    issue 35 measures), the same standalone server and the bare one alternating, for the latency
//    an integration feels below capacity, and the standalone server's costs per request there.
//    A rate is offered as paced-load.mjs paces it: Poisson arrivals at their instants, open loop,
//    the same instants for both servers; p50 and p99 from every request's own time, fractional
//    milliseconds. BENCH_PACING=autocannon offers it as autocannon does instead, per connection
//    and per second (each connection sends its share back to back, then waits for the next
//    second: bursts at saturation, which made a slower server's "300 requests/s" a latency at
//    capacity); its own histogram at a rate adds synthetic values for coordinated omission with a
//    1 ms interval, so the bench's send-to-answer times are used then too.
// 3. Memory: /metrics of the standalone server when fresh, after each round and after the load
//    (RSS, V8 heap, graph nodes and edges); the server gets the bench's environment, so
//    MEMORY_CACHE_ENTRIES and VELOCITY_MAX_KEYS set its bounds; then, in a process of its own,
//    the graph of BENCH_MEMORY_CUSTOMERS customers of the same population (mixed-graph-memory.mjs).
// With BENCH_RULES > 0, every standalone server (bursts and load) first gets that many realistic
// rules per checkpoint through POST /v2/rules (bench-rules.mjs: mostly active, some passive,
// conditions that mostly do not trigger, a few that fail at run time on missing values); a rule
// refused stops the run. Saving them warms a fresh server: compare bursts with rules only with
// bursts with rules.
// Prints a markdown summary, with issue 35's targets beside the measured values
// (mixed-load-targets.mjs), and writes every number to a JSON file in the OS temp directory.
//
// Env: BENCH_CONNECTIONS (50), BENCH_SECONDS (15), BENCH_ROUNDS (3), BENCH_WARMUP_SECONDS (10),
// BENCH_CUSTOMERS (20000), BENCH_SEED (11), BENCH_POOL (requests built ahead, 60000; the
// standalone server's sequence wraps around after that), BENCH_BURST (200), BENCH_BURSTS (3),
// BENCH_MEMORY_CUSTOMERS (1000000; 0 skips the graph memory step), BENCH_RULES (rules per
// checkpoint, 0), BENCH_RATE (requests per second offered over all connections in the warm-up
// and the rounds, to both servers; 0, the default: each connection sends its next request as
// soon as the last is answered; paced as in 2b). Below either server's capacity the rate is the same for both,
// so the ratio says nothing; what to compare is the latency at that load, and the CPU per
// request, which is steadier there than at saturation (where the group commits' sizes and the
// queues change with every round). BENCH_FIXED_RATE (300; 0 skips the fixed-rate phase),
// BENCH_FIXED_CONNECTIONS (20), BENCH_PACING (poisson, or autocannon), BENCH_FLOOR (1; 0 leaves the floor server out),
// BENCH_SERVER_OPTIONS (the standalone server's Node options; unset, those of `npm start`: bench-processes.mjs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ROOT, freePort, standaloneArgs, startProcess } from './bench-processes.mjs';
import { RULE_CHECKPOINTS, createRules } from './bench-rules.mjs';
import { targetLines } from './mixed-load-targets.mjs';
import { GC_TRACE_OPTION, costPerRequest, heapAllocationMeter, meterReading, processCpuSeconds } from './process-meters.mjs';
import { CLASSES, population, requestSequence } from './mixed-workload.mjs';
import { pacedLoad } from './paced-load.mjs';

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const connections = env('BENCH_CONNECTIONS', 50);
const seconds = env('BENCH_SECONDS', 15);
const rounds = env('BENCH_ROUNDS', 3);
const warmupSeconds = env('BENCH_WARMUP_SECONDS', 10);
const customers = env('BENCH_CUSTOMERS', 20_000);
const seed = env('BENCH_SEED', 11);
const poolSize = env('BENCH_POOL', 60_000);
const burstSize = env('BENCH_BURST', 200);
const bursts = env('BENCH_BURSTS', 3);
const memoryCustomers = env('BENCH_MEMORY_CUSTOMERS', 1_000_000);
const rulesPerCheckpoint = env('BENCH_RULES', 0);
const rate = env('BENCH_RATE', 0);
const withFloor = env('BENCH_FLOOR', 1) !== 0;
const fixedRate = env('BENCH_FIXED_RATE', 300);
const fixedConnections = env('BENCH_FIXED_CONNECTIONS', 20);
// How a rate is offered: `poisson` (paced-load.mjs) or `autocannon` (its per-second quotas, bursts).
const pacing = process.env.BENCH_PACING ?? 'poisson';
const PACING_TEXT = {
  poisson: 'Poisson arrivals, each timed from its send, or from its arrival when every connection was busy',
  autocannon: "autocannon's per-second quotas, send-to-answer times measured by the bench",
};
if (!(pacing in PACING_TEXT)) throw new Error(`BENCH_PACING must be poisson or autocannon, not ${pacing}`);
const KEY = 'sk_test_benchmarkbenchmarkbench01';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const quantile = (sorted, q) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
const spread = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });
const mib = (bytes) => Math.round(bytes / 1024 / 1024);
const int = (n) => Math.round(n).toLocaleString('en');
const tenths = (n) => Math.round(n * 10) / 10;

// ---- the traffic, built before any server starts
const builtAt = performance.now();
const pop = population({ customers, seed });
const pool = requestSequence(pop, { count: poolSize, startMs: Date.now(), key: KEY });
console.log(
  `workload: ${int(pop.customers.length)} customers in ${int(pop.rings.length)} rings (${pop.fraudRings.length} fraud rings), ${int(pop.suppliers.length)} suppliers, ` +
    `${int(pool.length)} requests built in ${((performance.now() - builtAt) / 1000).toFixed(1)} s (seed ${seed})`,
);
console.log(`the standalone server runs as: node ${standaloneArgs().join(' ')}`);

// ---- processes
const serviceEnv = (dataDir, port) => ({
  PORT: String(port),
  DATA_DIR: dataDir,
  BOOTSTRAP_API_KEY: KEY,
  // Measure the service, not the account limiter (60,000 a minute by default). The per-customer
  // limit keeps its default: the traffic spreads over the customers as an integration's does.
  ACCOUNT_RATE_LIMIT_PER_MINUTE: '100000000',
  LOG_LEVEL: 'warn',
});
/** A fresh standalone server; `meterAllocations`: with the GC trace whose lines its `allocations` sums. */
async function startService({ meterAllocations = false } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ringfence-mixed-bench-'));
  const port = await freePort();
  let allocations;
  const options = meterAllocations ? { readStdout: (stdout) => (allocations = heapAllocationMeter(stdout)) } : {};
  const args = [...(meterAllocations ? [GC_TRACE_OPTION] : []), ...standaloneArgs()];
  const child = await startProcess(args, serviceEnv(dataDir, port), port, '/health/ready', 60_000, options);
  const service = { child, port, dataDir, allocations, cert: join(dataDir, 'tls', 'cert.pem'), key: join(dataDir, 'tls', 'key.pem') };
  if (rulesPerCheckpoint > 0) {
    const created = await createRules(port, KEY, rulesPerCheckpoint).catch(async (error) => {
      await stop(service);
      throw error;
    });
    console.log(`rules: ${created.active + created.passive} created (${rulesPerCheckpoint} per checkpoint × ${RULE_CHECKPOINTS.length}; ${created.active} active, ${created.passive} passive)`);
  }
  return service;
}
async function startBare(service) {
  const port = await freePort();
  const child = await startProcess(['test/bench/bare-fastify-server.mjs', service.cert, service.key, String(port)], {}, port);
  return { child, port };
}
async function startFloor(service) {
  const port = await freePort();
  const child = await startProcess(['test/bench/nest-floor-server.mjs', service.cert, service.key, String(port)], {}, port);
  return { child, port };
}
const exited = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)));
async function stop(server) {
  if (!server) return;
  server.child.kill('SIGTERM');
  await exited(server.child);
  if (server.dataDir) rmSync(server.dataDir, { recursive: true, force: true });
}

/** Waits until `pid` uses under 10 % of a core over half a second (at most 60 s); the seconds waited. */
async function settle(pid) {
  const started = performance.now();
  let last = processCpuSeconds(pid);
  while (performance.now() - started < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = processCpuSeconds(pid);
    if (now - last < 0.05) break;
    last = now;
  }
  return Number(((performance.now() - started) / 1000).toFixed(1));
}

function get(port, path, agent) {
  return new Promise((resolve, reject) => {
    httpsRequest({ host: '127.0.0.1', port, path, method: 'GET', rejectUnauthorized: false, agent }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** The memory and graph gauges of /metrics, and the peak RSS from /proc. */
async function memoryOf(service) {
  const { body } = await get(service.port, '/metrics');
  const gauge = (name) => {
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(body);
    return match ? Number(match[1]) : null;
  };
  const status = readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
  return {
    rssMiB: mib(gauge('process_resident_memory_bytes')),
    peakRssMiB: mib(Number(/VmHWM:\s+(\d+)/.exec(status)[1]) * 1024),
    heapUsedMiB: mib(gauge('nodejs_heap_size_used_bytes')),
    heapTotalMiB: mib(gauge('nodejs_heap_size_total_bytes')),
    externalMiB: mib(gauge('nodejs_external_memory_bytes')),
    graphNodes: gauge('ringfence_graph_nodes'),
    graphEdges: gauge('ringfence_graph_edges'),
    eventLoopLagMaxMs: Math.round((gauge('nodejs_eventloop_lag_max_seconds') ?? 0) * 1000),
  };
}

// ---- the load
let serviceCursor = 0;
const newRoundStats = () => Object.fromEntries(CLASSES.map(({ name }) => [name, { answered: 0, degraded: 0, rateLimited: 0, statuses: {}, latencies: [], samples: [] }]));
// A 2xx that is not the service's full answer: scoring (or the graph, lookup, labelling) missed
// its budget and the data was kept (docs/api.md, warning `degraded`), or the customer's rate limit.
const DEGRADED = '"class":"degraded"';
const RATE_LIMITED = '"source":"RATE_LIMIT"';

/** Counts an answer of `cls`'s request in the round's `byClass` statistics. */
function countAnswer(byClass, cls, status, body, ms) {
  const stats = byClass[cls];
  stats.answered += 1;
  stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
  stats.latencies.push(ms);
  if (body.includes(DEGRADED)) stats.degraded += 1;
  else if (body.includes(RATE_LIMITED)) stats.rateLimited += 1;
  if ((status < 200 || status > 299) && stats.samples.filter((sample) => sample.status === status).length < 3) stats.samples.push({ status, body: body.slice(0, 400) });
}

/** Every answer's time of the round, sorted, in fractional milliseconds. */
const latenciesOf = (byClass) =>
  Object.values(byClass)
    .flatMap((stats) => stats.latencies)
    .sort((a, b) => a - b);

/**
 * One run of `durationSeconds` at `connectionCount` connections, `next()` handing out the next
 * request of the sequence. With a rate offered, paced (paced-load.mjs: Poisson arrivals, open
 * loop) unless BENCH_PACING=autocannon; otherwise autocannon, each connection sending its next
 * request as soon as the last is answered.
 */
function load(port, durationSeconds, next, { connections: connectionCount = connections, rate: offered = rate } = {}) {
  return offered > 0 && pacing === 'poisson' ? pacedRun(port, durationSeconds, next, connectionCount, offered) : autocannonRun(port, durationSeconds, next, connectionCount, offered);
}

/** A paced run at `offered` requests/s; the same arrival instants for every server and round. */
async function pacedRun(port, durationSeconds, next, connectionCount, offered) {
  const byClass = newRoundStats();
  const outcome = await pacedLoad({ port, rate: offered, seconds: durationSeconds, connections: connectionCount, next, seed, onAnswer: (request, status, body, ms) => countAnswer(byClass, request.cls, status, body, ms) });
  const latencies = latenciesOf(byClass);
  const statuses = {};
  for (const stats of Object.values(byClass)) for (const [status, count] of Object.entries(stats.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  const non2xx = Object.entries(statuses).reduce((sum, [status, count]) => (status >= 200 && status <= 299 ? sum : sum + count), 0);
  return {
    rps: (outcome.answered * 1000) / outcome.elapsedMs,
    total: outcome.answered,
    p50: tenths(quantile(latencies, 0.5)),
    p99: tenths(quantile(latencies, 0.99)),
    max: tenths(latencies[latencies.length - 1]),
    measuredP50: quantile(latencies, 0.5),
    measuredP99: quantile(latencies, 0.99),
    non2xx,
    errors: outcome.errors,
    timeouts: 0,
    waitedForConnection: outcome.waitedForConnection,
    statuses,
    byClass,
  };
}

/**
 * One autocannon run. Each connection keeps its request's class and start time in its context, so
 * the answers are counted (and timed) per class. Non-2xx bodies are kept, three per class and
 * status.
 */
async function autocannonRun(port, durationSeconds, next, connectionCount, offered) {
  const byClass = newRoundStats();
  const result = await autocannon({
    url: `https://127.0.0.1:${port}`,
    connections: connectionCount,
    duration: durationSeconds,
    ...(offered > 0 ? { overallRate: offered } : {}),
    requests: [
      {
        // `request` is autocannon's fresh copy of the defaults (host, port…): filled in, not copied.
        setupRequest: (request, context) => {
          const r = next();
          context.cls = r.cls;
          context.started = performance.now();
          request.method = r.method;
          request.path = r.path;
          request.headers = r.headers;
          request.body = r.body;
          return request;
        },
        onResponse: (status, body, context) => countAnswer(byClass, context.cls, status, body, performance.now() - context.started),
      },
    ],
  });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count]));
  const latencies = latenciesOf(byClass);
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    // The bench's own send-to-answer times, every answer of the run, in fractional milliseconds.
    measuredP50: quantile(latencies, 0.5),
    measuredP99: quantile(latencies, 0.99),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
    byClass,
  };
}

const serviceNext = () => pool[serviceCursor++ % pool.length];
const replay = () => {
  let cursor = 0;
  return () => pool[cursor++ % pool.length];
};

// ---- the burst
/** `requests` sent at once over as many connections opened just before; latency from the send. */
async function burst(port, requests = pool.slice(0, burstSize)) {
  const agent = new Agent({ keepAlive: true, maxSockets: requests.length, rejectUnauthorized: false });
  try {
    await Promise.all(requests.map(() => get(port, '/health/live', agent)));
    const started = performance.now();
    const answers = await Promise.all(
      requests.map(
        (r) =>
          new Promise((resolve) => {
            const headers = r.body ? { ...r.headers, 'content-length': r.body.length } : r.headers;
            const req = httpsRequest({ host: '127.0.0.1', port, path: r.path, method: r.method, headers, agent, rejectUnauthorized: false }, (res) => {
              let body = '';
              res.on('data', (chunk) => (body += chunk));
              res.on('end', () => resolve({ cls: r.cls, status: res.statusCode, ms: performance.now() - started, body, reused: req.reusedSocket }));
            });
            req.on('error', (error) => resolve({ cls: r.cls, status: `error ${error.code ?? error.message}`, ms: performance.now() - started, body: '' }));
            req.end(r.body);
          }),
      ),
    );
    const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
    const statuses = {};
    for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
    const failures = answers.filter(({ status }) => !(status >= 200 && status <= 299));
    const non2xxByClass = {};
    for (const { cls } of failures) non2xxByClass[cls] = (non2xxByClass[cls] ?? 0) + 1;
    return {
      all2xx: failures.length === 0,
      ok: answers.length - failures.length,
      degraded: answers.filter(({ body }) => body.includes(DEGRADED)).length,
      // Requests that went out on a connection opened before the burst (all, unless one closed).
      reusedConnections: answers.filter((answer) => answer.reused).length,
      statuses,
      non2xxByClass,
      p50: Math.round(quantile(times, 0.5)),
      p99: Math.round(quantile(times, 0.99)),
      max: Math.round(times[times.length - 1]),
      failures: failures.slice(0, 5).map(({ cls, status, body }) => ({ cls, status, body: body.slice(0, 300) })),
    };
  } finally {
    agent.destroy();
  }
}

/** Per answered request: CPU (every thread, the main thread), bytes allocated (the main thread's heap, all heaps) and the main thread's GC pauses. */
function costText(run) {
  const kb = (bytes) => `${int(bytes / 1000)} KB`;
  return (
    `${run.cpuMsPerRequest.toFixed(2)} ms/request (main thread ${run.mainThreadCpuMsPerRequest.toFixed(2)} ms)` +
    (run.heapBytesPerRequest === undefined
      ? ''
      : `, allocated ${kb(run.heapBytesPerRequest)}/request (all heaps ${kb(run.allHeapsBytesPerRequest)}), GC pauses ${run.gcPauseMsPerRequest.toFixed(3)} ms/request`)
  );
}

/**
 * Below capacity: `rounds` rounds at `fixedRate` requests/s over `fixedConnections` connections,
 * the standalone server (its sequence continuing) and the bare one alternating, each after the
 * standalone server has settled.
 */
async function fixedRatePhase(service, bare, serviceRuns, bareRuns) {
  const atRate = { connections: fixedConnections, rate: fixedRate };
  for (let round = 0; round < rounds; round += 1) {
    await settle(service.child.pid);
    const before = meterReading(service);
    const s = await load(service.port, seconds, serviceNext, atRate);
    Object.assign(s, costPerRequest(before, meterReading(service), s.total));
    await settle(service.child.pid);
    const b = await load(bare.port, seconds, replay(), atRate);
    serviceRuns.push(s);
    bareRuns.push(b);
    const ms = (value) => `${value.toFixed(1)} ms`;
    console.log(
      `fixed rate ${fixedRate} req/s (${pacing}) over ${fixedConnections} connections, round ${round + 1}: ringfence ${int(s.rps)} req/s p50 ${ms(s.measuredP50)} p99 ${ms(s.measuredP99)} non-2xx ${s.non2xx}${s.waitedForConnection ? ` (${int(s.waitedForConnection)} waited for a connection)` : ''} CPU ${costText(s)} | ` +
        `bare p50 ${ms(b.measuredP50)} p99 ${ms(b.measuredP99)} non-2xx ${b.non2xx} | ratios p50 ${(s.measuredP50 / b.measuredP50).toFixed(1)}× p99 ${(s.measuredP99 / b.measuredP99).toFixed(1)}×`,
    );
  }
}

// ---- run
const results = { date: new Date().toISOString(), machine: { cpus: cpus().length, node: process.version }, settings: { connections, seconds, rounds, warmupSeconds, customers, seed, poolSize, burstSize, bursts, memoryCustomers, rulesPerCheckpoint, rate, fixedRate, fixedConnections, pacing, serverArgs: standaloneArgs() }, classes: CLASSES };

results.bursts = [];
for (let b = 0; b < bursts; b += 1) {
  const service = await startService();
  let bare;
  try {
    const freshMemory = await memoryOf(service);
    const ringfence = await burst(service.port);
    bare = await startBare(service);
    const baseline = await burst(bare.port);
    results.bursts.push({ ringfence, bare: baseline, freshMemory });
    console.log(
      `burst ${b + 1}: ringfence ${ringfence.ok}/${burstSize} 2xx, p50 ${ringfence.p50} ms, p99 ${ringfence.p99} ms, max ${ringfence.max} ms, ${ringfence.reusedConnections} on open connections; ` +
        `bare ${baseline.ok}/${burstSize}, p99 ${baseline.p99} ms`,
    );
  } finally {
    await stop(bare);
    await stop(service);
  }
}

const service = await startService({ meterAllocations: true });
const bare = await startBare(service);
const floor = withFloor ? await startFloor(service) : undefined;
const serviceRuns = [];
const bareRuns = [];
const floorRuns = [];
const fixedServiceRuns = [];
const fixedBareRuns = [];
try {
  results.freshMemory = await memoryOf(service);
  const warm = await load(service.port, warmupSeconds, serviceNext);
  results.warmup = { rps: warm.rps, p99: warm.p99, non2xx: warm.non2xx, statuses: warm.statuses };
  console.log(`warm-up (${warmupSeconds} s): ringfence ${int(warm.rps)} req/s, p99 ${warm.p99} ms, non-2xx ${warm.non2xx}`);
  await settle(service.child.pid);
  await load(bare.port, Math.max(3, Math.round(warmupSeconds / 2)), replay());
  if (floor) await load(floor.port, Math.max(3, Math.round(warmupSeconds / 2)), replay());
  for (let round = 0; round < rounds; round += 1) {
    // Alternate the two so machine noise falls on both alike.
    const serviceSettle = await settle(service.child.pid);
    const before = meterReading(service);
    const s = await load(service.port, seconds, serviceNext);
    // The server's costs per answered request (CPU: steadier than a rate on a shared machine).
    Object.assign(s, costPerRequest(before, meterReading(service), s.total));
    const bareSettle = await settle(service.child.pid);
    // The settled server's memory after each round: what it keeps grows with what it was sent,
    // up to the bounds of its caches (README, "Memory of a standalone server").
    s.memoryAfter = await memoryOf(service);
    const b = await load(bare.port, seconds, replay());
    serviceRuns.push({ ...s, settledSecondsBefore: serviceSettle });
    bareRuns.push({ ...b, serviceSettledSecondsBefore: bareSettle });
    const f = floor ? await load(floor.port, seconds, replay()) : undefined;
    if (f) floorRuns.push(f);
    console.log(
      `round ${round + 1}: ringfence ${int(s.rps)} req/s p50 ${s.p50} ms p99 ${s.p99} ms non-2xx ${s.non2xx} CPU ${costText(s)}, then heap ${s.memoryAfter.heapUsedMiB} MiB RSS ${s.memoryAfter.rssMiB} MiB | bare ${int(b.rps)} req/s p50 ${b.p50} ms p99 ${b.p99} ms non-2xx ${b.non2xx} | ratio ${(s.rps / b.rps).toFixed(3)}` +
        (f ? ` | floor ${int(f.rps)} req/s p50 ${f.p50} ms p99 ${f.p99} ms non-2xx ${f.non2xx}, ratio to bare ${(f.rps / b.rps).toFixed(3)}` : ''),
    );
  }
  if (fixedRate > 0) await fixedRatePhase(service, bare, fixedServiceRuns, fixedBareRuns);
  results.afterLoadSettleSeconds = await settle(service.child.pid);
  results.afterMemory = await memoryOf(service);
  // For comparison with the fresh server's: the same burst size on this warm server (the next
  // requests of its sequence).
  results.warmBurst = await burst(service.port, Array.from({ length: burstSize }, serviceNext));
  console.log(`burst on the warm server: ${results.warmBurst.ok}/${burstSize} 2xx (${results.warmBurst.degraded} degraded), p50 ${results.warmBurst.p50} ms, p99 ${results.warmBurst.p99} ms`);
} finally {
  await stop(floor);
  await stop(bare);
  await stop(service);
}

// Customers and suppliers the standalone server was sent (warm-up and rounds), for the per-customer figures.
const sent = pool.slice(0, Math.min(serviceCursor, pool.length));
const namedCustomers = new Set(sent.map((r) => r.customer).filter((index) => index !== undefined));
results.serviceRequestsSent = serviceCursor;
results.sequenceWrapped = serviceCursor > pool.length;
results.customersSent = namedCustomers.size;

if (memoryCustomers > 0) {
  const child = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', join(ROOT, 'test/bench/mixed-graph-memory.mjs'), String(memoryCustomers), String(seed)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.status !== 0) throw new Error(`mixed-graph-memory.mjs failed (${child.status})`);
  results.graphMemory = JSON.parse(child.stdout.trim().split('\n').pop());
}

// ---- summary
const pick = (runs, key) => runs.map((run) => run[key]);
const spreadOf = (runs, key) => (runs[0]?.[key] === undefined ? null : spread(pick(runs, key)));
const summary = (runs) => ({
  rps: spread(pick(runs, 'rps')),
  p50: spread(pick(runs, 'p50')),
  p99: spread(pick(runs, 'p99')),
  measuredP50: spreadOf(runs, 'measuredP50'),
  measuredP99: spreadOf(runs, 'measuredP99'),
  cpuMsPerRequest: spreadOf(runs, 'cpuMsPerRequest'),
  mainThreadCpuMsPerRequest: spreadOf(runs, 'mainThreadCpuMsPerRequest'),
  heapBytesPerRequest: spreadOf(runs, 'heapBytesPerRequest'),
  allHeapsBytesPerRequest: spreadOf(runs, 'allHeapsBytesPerRequest'),
  gcPauseMsPerRequest: spreadOf(runs, 'gcPauseMsPerRequest'),
  non2xx: pick(runs, 'non2xx').reduce((a, b) => a + b, 0),
  errors: pick(runs, 'errors').reduce((a, b) => a + b, 0),
  timeouts: pick(runs, 'timeouts').reduce((a, b) => a + b, 0),
  statuses: runs.reduce((all, run) => {
    for (const [status, count] of Object.entries(run.statuses)) all[status] = (all[status] ?? 0) + count;
    return all;
  }, {}),
});
const ratios = serviceRuns.map((run, i) => run.rps / bareRuns[i].rps);
const p99Ratios = serviceRuns.map((run, i) => run.p99 / Math.max(1, bareRuns[i].p99));
results.ringfence = summary(serviceRuns);
results.bare = summary(bareRuns);
results.ratio = spread(ratios);
results.p99Ratio = spread(p99Ratios);
if (fixedServiceRuns.length > 0) {
  results.fixedRate = {
    rate: fixedRate,
    connections: fixedConnections,
    ringfence: summary(fixedServiceRuns),
    bare: summary(fixedBareRuns),
    p50Ratio: spread(fixedServiceRuns.map((run, i) => run.measuredP50 / fixedBareRuns[i].measuredP50)),
    p99Ratio: spread(fixedServiceRuns.map((run, i) => run.measuredP99 / fixedBareRuns[i].measuredP99)),
  };
}
if (floorRuns.length > 0) {
  results.floor = summary(floorRuns);
  results.floorRatio = spread(floorRuns.map((run, i) => run.rps / bareRuns[i].rps));
  results.floorP99Ratio = spread(floorRuns.map((run, i) => run.p99 / Math.max(1, bareRuns[i].p99)));
}
results.perClass = Object.fromEntries(
  CLASSES.map(({ name, route }) => {
    const all = serviceRuns.map((run) => run.byClass[name]);
    const latencies = all.flatMap((stats) => stats.latencies).sort((a, b) => a - b);
    const statuses = {};
    for (const stats of all) for (const [status, count] of Object.entries(stats.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
    const answered = all.reduce((sum, stats) => sum + stats.answered, 0);
    const non2xx = Object.entries(statuses).filter(([status]) => !status.startsWith('2')).reduce((sum, [, count]) => sum + count, 0);
    const degraded = all.reduce((sum, stats) => sum + stats.degraded, 0);
    const rateLimited = all.reduce((sum, stats) => sum + stats.rateLimited, 0);
    return [name, { route, answered, non2xx, degraded, rateLimited, statuses, p50: Math.round(quantile(latencies, 0.5)), p99: Math.round(quantile(latencies, 0.99)), samples: all.flatMap((stats) => stats.samples).slice(0, 6) }];
  }),
);
const withoutClasses = (runs) => runs.map(({ byClass: _byClass, ...run }) => run);
results.rounds = {
  ringfence: withoutClasses(serviceRuns),
  bare: withoutClasses(bareRuns),
  floor: withoutClasses(floorRuns),
  fixedRateRingfence: withoutClasses(fixedServiceRuns),
  fixedRateBare: withoutClasses(fixedBareRuns),
};
const burstSummary = (side) => ({
  all2xx: results.bursts.filter((run) => run[side].all2xx).length,
  degraded: results.bursts.map((run) => run[side].degraded),
  p50: spread(results.bursts.map((run) => run[side].p50)),
  p99: spread(results.bursts.map((run) => run[side].p99)),
  statuses: results.bursts.map((run) => run[side].statuses),
});
results.burst = results.bursts.length > 0 ? { ringfence: burstSummary('ringfence'), bare: burstSummary('bare') } : null;

const range = ({ median: m, min, max }, digits = 0, format = (n) => n.toFixed(digits)) => `${format(m)} (${format(min)}–${format(max)})`;
const statusText = (statuses) => Object.entries(statuses).filter(([status]) => !status.startsWith('2')).map(([status, count]) => `${count} × ${status}`).join(', ') || '0';
const lines = [];
lines.push(`Mixed workload, ${connections} connections${rate > 0 ? ` at ${rate} requests/s offered (${pacing})` : ''}, ${rounds} × ${seconds} s alternating, ${rulesPerCheckpoint} rules per checkpoint (medians, min–max of the rounds):`);
lines.push('');
const degradedTotal = Object.values(results.perClass).reduce((sum, stats) => sum + stats.degraded, 0);
const answeredTotal = Object.values(results.perClass).reduce((sum, stats) => sum + stats.answered, 0);
lines.push('| server | requests/s | p50 | p99 | non-2xx | 2xx degraded |');
lines.push('|---|---|---|---|---|---|');
lines.push(
  `| Ringfence embedded | ${range(results.ringfence.rps, 0, int)} | ${range(results.ringfence.p50)} ms | ${range(results.ringfence.p99)} ms | ${statusText(results.ringfence.statuses)} | ` +
    `${int(degradedTotal)} of ${int(answeredTotal)} |`,
);
lines.push(`| bare Fastify, constant JSON | ${range(results.bare.rps, 0, int)} | ${range(results.bare.p50)} ms | ${range(results.bare.p99)} ms | ${statusText(results.bare.statuses)} | |`);
lines.push(`| **ratio** | **${range(results.ratio, 3)}** | | **${range(results.p99Ratio, 1)}×** | | |`);
if (results.floor) {
  lines.push(`| NestJS floor (the gateway's validation, constant JSON) | ${range(results.floor.rps, 0, int)} | ${range(results.floor.p50)} ms | ${range(results.floor.p99)} ms | ${statusText(results.floor.statuses)} | |`);
  lines.push(`| floor's ratio to bare | ${range(results.floorRatio, 3)} | | ${range(results.floorP99Ratio, 1)}× | | |`);
}
lines.push('');
const kb = (bytes) => `${int(bytes / 1000)} KB`;
lines.push(
  `Ringfence's costs per answered request (from /proc and its GC trace): CPU ${range(results.ringfence.cpuMsPerRequest, 2)} ms every thread, ` +
    `**${range(results.ringfence.mainThreadCpuMsPerRequest, 2)} ms the main thread**; allocated **${range(results.ringfence.heapBytesPerRequest, 0, kb)} on the main thread's heap**, ` +
    `${range(results.ringfence.allHeapsBytesPerRequest, 0, kb)} on all heaps; the collector paused the main thread ${range(results.ringfence.gcPauseMsPerRequest, 3)} ms.`,
);
if (results.fixedRate) {
  const { ringfence: fixedService, bare: fixedBare, p50Ratio, p99Ratio } = results.fixedRate;
  const ms = (spreadValues) => `${range(spreadValues, 1)} ms`;
  lines.push('');
  lines.push(`At ${fixedRate} requests/s offered over ${fixedConnections} connections, ${fixedServiceRuns.length} × ${seconds} s alternating (${PACING_TEXT[pacing]}):`);
  lines.push('');
  lines.push('| server | requests/s | p50 | p99 | non-2xx | CPU a request | main thread | allocated a request (main thread’s heap) | main thread’s GC pauses a request |');
  lines.push('|---|---|---|---|---|---|---|---|---|');
  lines.push(
    `| Ringfence embedded | ${range(fixedService.rps, 0, int)} | ${ms(fixedService.measuredP50)} | ${ms(fixedService.measuredP99)} | ${statusText(fixedService.statuses)} | ` +
      `${range(fixedService.cpuMsPerRequest, 2)} ms | ${range(fixedService.mainThreadCpuMsPerRequest, 2)} ms | ${range(fixedService.heapBytesPerRequest, 0, kb)} | ${range(fixedService.gcPauseMsPerRequest, 3)} ms |`,
  );
  lines.push(`| bare Fastify, constant JSON | ${range(fixedBare.rps, 0, int)} | ${ms(fixedBare.measuredP50)} | ${ms(fixedBare.measuredP99)} | ${statusText(fixedBare.statuses)} | | | | |`);
  lines.push(`| **ratio** | | **${range(p50Ratio, 1)}×** | **${range(p99Ratio, 1)}×** | | | | | |`);
}
lines.push('');
lines.push(`| class | share | answered (${rounds} rounds) | non-2xx | 2xx degraded | p50 | p99 |`);
lines.push('|---|---|---|---|---|---|---|');
for (const [name, stats] of Object.entries(results.perClass)) {
  lines.push(`| \`${stats.route}\` | ${CLASSES.find((cls) => cls.name === name).share} % (sent ${((100 * stats.answered) / Math.max(1, answeredTotal)).toFixed(1)} %) | ${int(stats.answered)} | ${statusText(stats.statuses)} | ${int(stats.degraded)}${stats.rateLimited ? ` (+${int(stats.rateLimited)} rate-limited)` : ''} | ${stats.p50} ms | ${stats.p99} ms |`);
}
if (results.burst) {
  const { ringfence, bare: baseline } = results.burst;
  lines.push('');
  lines.push(
    `Burst of ${burstSize} simultaneous requests on ${burstSize} open connections, fresh server, ${results.bursts.length} run(s): Ringfence all 2xx in ${ringfence.all2xx} of ${results.bursts.length} ` +
      `(non-2xx per run: ${results.bursts.map((run) => statusText(run.ringfence.statuses)).join('; ')}; 2xx degraded: ${ringfence.degraded.join('; ')}), p50 ${range(ringfence.p50)} ms, p99 ${range(ringfence.p99)} ms; ` +
      `bare Fastify all 2xx in ${baseline.all2xx} of ${results.bursts.length}, p99 ${range(baseline.p99)} ms.`,
  );
  const byClass = {};
  for (const run of results.bursts) for (const [cls, count] of Object.entries(run.ringfence.non2xxByClass)) byClass[cls] = (byClass[cls] ?? 0) + count;
  if (Object.keys(byClass).length > 0) lines.push(`Non-2xx of the bursts by class: ${Object.entries(byClass).map(([cls, count]) => `${cls} ${count}`).join(', ')}.`);
}
if (results.warmBurst) {
  const warm = results.warmBurst;
  lines.push(`The same burst on the warm server after the rounds: ${warm.ok} of ${burstSize} 2xx (${statusText(warm.statuses)} non-2xx, ${warm.degraded} degraded), p50 ${warm.p50} ms, p99 ${warm.p99} ms.`);
}
const { freshMemory, afterMemory, graphMemory } = results;
lines.push('');
lines.push(
  `Memory of the standalone server: fresh RSS ${freshMemory.rssMiB} MiB (heap used ${freshMemory.heapUsedMiB} MiB); after the load RSS ${afterMemory.rssMiB} MiB, peak ${afterMemory.peakRssMiB} MiB, ` +
    `heap used ${afterMemory.heapUsedMiB} of ${afterMemory.heapTotalMiB} MiB, external ${afterMemory.externalMiB} MiB; ${int(results.serviceRequestsSent)} requests naming ${int(results.customersSent)} customers; ` +
    `graph ${int(afterMemory.graphNodes ?? 0)} nodes, ${int(afterMemory.graphEdges ?? 0)} edges; event-loop lag max ${afterMemory.eventLoopLagMaxMs} ms.`,
);
if (graphMemory) {
  const perMillion = 1_000_000 / graphMemory.customers;
  lines.push(
    `Graph of ${int(graphMemory.customers)} customers (and ${int(graphMemory.suppliers)} suppliers) of this population, built in its own process by the graph service's payload functions: ` +
      `${int(graphMemory.nodes)} nodes, ${int(graphMemory.edges)} edges, RSS +${mib(graphMemory.rssBytes)} MiB (heap +${mib(graphMemory.heapUsedBytes)} MiB, off-heap +${mib(graphMemory.offHeapBytes)} MiB): ` +
      `**${mib(graphMemory.rssBytes * perMillion)} MiB per million customers**.`,
  );
}
lines.push('');
lines.push(...targetLines(results));
const markdown = lines.join('\n');
console.log(`\n${markdown}\n`);
for (const [name, stats] of Object.entries(results.perClass)) for (const sample of stats.samples) console.log(`non-2xx sample, ${name}: ${sample.status} ${sample.body}`);
for (const run of results.bursts) for (const failure of run.ringfence.failures) console.log(`burst failure, ${failure.cls}: ${failure.status} ${failure.body}`);
results.markdown = markdown;
const file = join(tmpdir(), `ringfence-bench-mixed-${results.date.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`results: ${file}`);
