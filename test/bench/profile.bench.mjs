// npm run profile: the embedded app under V8's sampling profiler (`node --cpu-prof`) while 50
// connections send customer checkpoints (a different customer each, devices shared in small
// rings); then the share of CPU time per package and per function, for the main thread and for
// the PGlite worker thread. The .cpuprofile files it leaves open as flame graphs in Chrome
// DevTools (Performance panel, "Load profile") or any cpuprofile viewer.
//
// PROFILE_WORKLOAD=mixed profiles `npm run bench:mixed`'s traffic instead; PROFILE_RULES (0) saves
// that many realistic rules per checkpoint first (bench-rules.mjs, as BENCH_RULES does there).
//
// Not 0x or clinic: both profile through `--prof`, whose code-event log of PGlite's
// WebAssembly kept the app from starting within ten minutes here.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ROOT, answers, freePort } from './bench-processes.mjs';
import { createRules } from './bench-rules.mjs';
import { population, requestSequence } from './mixed-workload.mjs';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 20);
// `customer` (the default): customer checkpoints only; `mixed`: `npm run bench:mixed`'s traffic.
const WORKLOAD = process.env.PROFILE_WORKLOAD ?? 'customer';
const RULES = Number(process.env.PROFILE_RULES ?? 0);
const KEY = 'sk_test_profilingkey0123456789abcd';

/** Self time per package (or file) and per function, as shares of the thread's samples. */
function summarise(file, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = new Map();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    total += delta;
    selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
  });
  const byPackage = new Map();
  const byFunction = new Map();
  for (const [id, time] of selfTime) {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const where = url.includes('node_modules/') ? url.replace(/^.*node_modules\//, '') : url.replace(/^.*\/dist\//, 'dist/');
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
  return `${(total / 1e6).toFixed(1)} s sampled\n by package:\n${table(byPackage)}\n by function:\n${table(byFunction)}`;
}

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'ringfence-profile-data-'));
const profileDir = process.env.PROFILE_OUTPUT ?? mkdtempSync(join(tmpdir(), 'ringfence-profile-'));
const app = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, 'dist/apps/standalone/src/main.js'], {
  cwd: ROOT,
  // The account limiter off, as in `npm run bench:mixed`: profile the service, not the limiter.
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, BOOTSTRAP_API_KEY: KEY, ACCOUNT_RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const exited = new Promise((resolve) => app.once('exit', resolve));

try {
  for (const deadline = Date.now() + 60_000; !(await answers(port, '/health/ready')); ) {
    if (Date.now() > deadline) throw new Error('the profiled app did not become ready within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (RULES > 0) {
    const created = await createRules(port, KEY, RULES);
    console.log(`rules: ${created.active + created.passive} created (${created.active} active, ${created.passive} passive)`);
  }
  const result = await autocannon({
    url: `https://127.0.0.1:${port}`,
    connections: 50,
    duration: SECONDS,
    tlsOptions: { rejectUnauthorized: false },
    requests: [WORKLOAD === 'mixed' ? mixedRequests() : customerRequests()],
  });
  console.log(`profiled load: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`);
} finally {
  // SIGINT lets the app stop cleanly, which is when V8 writes the profiles.
  app.kill('SIGINT');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
/** Customer checkpoints, a different customer each, devices shared in rings of four. */
function customerRequests() {
  let sent = 0;
  const body = () => {
    sent += 1;
    const id = `cus-${sent % 20_000}`;
    return JSON.stringify({
      timestamp: Date.now(),
      customer: { customerId: id, email: `${id}@example.com`, name: 'Ada Lovelace', telephone: `+44770090${String(sent % 10_000).padStart(4, '0')}`, registrationTime: Date.now() - 1e9 },
      deviceId: `dev-${sent % 5_000}`,
    });
  };
  return { method: 'POST', path: '/v2/customer', headers: { 'content-type': 'application/json', authorization: `token ${KEY}` }, setupRequest: (request) => ({ ...request, body: body() }) };
}

/** The mixed workload of `npm run bench:mixed` (same population and sequence, seed 11). */
function mixedRequests() {
  const pool = requestSequence(population({ customers: 20_000, seed: 11 }), { count: 60_000, startMs: Date.now(), key: KEY });
  let sent = 0;
  return {
    setupRequest: (request) => {
      const r = pool[sent++ % pool.length];
      return { ...request, method: r.method, path: r.path, headers: r.headers, body: r.body };
    },
  };
}

// The main thread's profile is written first (its name carries the lower thread number).
for (const [index, file] of readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile')).sort().entries()) {
  console.log(`\n${index === 0 ? 'main thread' : 'PGlite worker thread'} (${join(profileDir, file)}): ${summarise(join(profileDir, file))}`);
}
