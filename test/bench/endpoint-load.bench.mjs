// Load benchmark of one endpoint in the embedded mode against a bare Fastify server on the same
// machine, in the same run: `npm run bench:customer` (the customer checkpoint: ingest + scoring)
// and `npm run bench:ingest` (POST /v2/supplier: ingest only).
// Env: BENCH_ENDPOINT (customer | supplier), BENCH_CONNECTIONS (50), BENCH_SECONDS (15),
// BENCH_ROUNDS (3; the median round is reported).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, standaloneArgs, startProcess } from './bench-processes.mjs';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const KEY = 'sk_test_benchmarkbenchmarkbench01';

let sequence = 0;
function customerBody() {
  return JSON.stringify({
    timestamp: Date.now(),
    customer: {
      customerId: `bench-${sequence % 20000}`,
      email: `customer${sequence % 20000}@example.com`,
      emailVerifiedTime: 1700000000000,
      registrationTime: 1690000000000,
      name: 'Bench Customer',
      telephone: '+447700900123',
    },
  });
}

function supplierBody() {
  return JSON.stringify({
    timestamp: Date.now(),
    supplier: {
      supplierId: `bench-${sequence % 20000}`,
      email: `driver${sequence % 20000}@example.com`,
      emailVerifiedTime: 1700000000000,
      registrationTime: 1690000000000,
      name: 'Bench Driver',
      type: 'driver',
      telephone: '+447700900123',
    },
    device: { deviceId: `dev-${sequence % 5000}`, os: 'android' },
  });
}

const ENDPOINTS = {
  customer: { path: '/v2/customer', body: customerBody },
  supplier: { path: '/v2/supplier', body: supplierBody },
};
const endpoint = ENDPOINTS[process.env.BENCH_ENDPOINT ?? 'customer'];
if (!endpoint) throw new Error(`BENCH_ENDPOINT must be one of ${Object.keys(ENDPOINTS).join(', ')}`);

async function load(port) {
  const result = await autocannon({
    url: `https://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: endpoint.path,
        headers: { 'content-type': 'application/json', authorization: `token ${KEY}` },
        setupRequest: (request) => {
          sequence += 1;
          return { ...request, body: endpoint.body() };
        },
      },
    ],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dataDir = mkdtempSync(join(tmpdir(), 'ringfence-bench-'));
const servicePort = await freePort();
const service = await startProcess(standaloneArgs(), {
  PORT: String(servicePort),
  DATA_DIR: dataDir,
  BOOTSTRAP_API_KEY: KEY,
  // Measure the service, not the account limiter (60,000 a minute by default).
  ACCOUNT_RATE_LIMIT_PER_MINUTE: '100000000',
  LOG_LEVEL: 'warn',
  // BENCH_DATABASE_URL measures the same process on PostgreSQL instead of the embedded PGlite.
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
}, servicePort);
const barePort = await freePort();
const bare = await startProcess(
  ['test/bench/bare-fastify-server.mjs', join(dataDir, 'tls', 'cert.pem'), join(dataDir, 'tls', 'key.pem'), String(barePort)],
  {},
  barePort,
);

try {
  await load(servicePort); // warm-up: JIT, connection pools, first customers
  const serviceRuns = [];
  const bareRuns = [];
  for (let round = 0; round < rounds; round += 1) {
    // Alternate the two so machine noise falls on both alike.
    serviceRuns.push(await load(servicePort));
    bareRuns.push(await load(barePort));
  }
  const summary = (runs) => ({
    rps: median(runs.map((run) => run.rps)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  });
  const ringfence = summary(serviceRuns);
  const baseline = summary(bareRuns);
  console.log(`POST ${endpoint.path}, ${connections} connections, ${seconds} s x ${rounds} rounds (medians)`);
  console.table({ ringfence, 'bare fastify': baseline });
  console.log(`throughput ratio ringfence / bare: ${(ringfence.rps / baseline.rps).toFixed(3)}`);
  console.log(`p99 ratio ringfence / bare: ${(ringfence.p99 / Math.max(baseline.p99, 1)).toFixed(1)}`);
} finally {
  const exited = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)));
  service.kill('SIGTERM');
  bare.kill('SIGTERM');
  await Promise.all([exited(service), exited(bare)]);
  rmSync(dataDir, { recursive: true, force: true });
}
