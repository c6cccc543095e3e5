// Velocity counters at scale (ADR-0012, libs/scoring-engine/src/velocity): the cost of
// recording an event and of a checkpoint's feature vector with a million keys in memory, the
// heap per key, and the cost of the write-behind snapshot and of the load at start.
// Run: `npm run build && node --max-old-space-size=4096 test/bench/velocity.bench.mjs`.
// Env: BENCH_CUSTOMERS (200000; each with its own card, device, e-mail and IP: five keys, plus
// 50 merchants), BENCH_EVENTS_PER_CUSTOMER (3 transactions, each sent before and after
// authorisation), BENCH_QUERIES (100000), BENCH_SEED (42).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const { VelocityFeatures, velocityEventOf } = require(join(root, 'dist/libs/scoring-engine/src/index.js'));

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc');

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 200_000);
const TRANSACTIONS_PER_CUSTOMER = Number(process.env.BENCH_EVENTS_PER_CUSTOMER ?? 3);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 100_000);
const MERCHANTS = 50;
const DAY = 86_400_000;
const END = Date.UTC(2025, 10, 22, 12);
const START = END - 30 * DAY;
const TOPIC = 'ringfence.ingest.transaction.updated.v1';
const SCOPE = { accountId: 'acc_bench', environment: 'live' };

let seed = Number(process.env.BENCH_SEED ?? 42) >>> 0;
const random = () => {
  seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
  return seed / 2 ** 32;
};
const memory = () => {
  gc();
  return process.memoryUsage().heapUsed;
};
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ipOf = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const keysOf = (i) => ({ customer: `cus-${i}`, cards: [`inst-${i}`], device: `dev-${i}`, email: `user.${i}@example.com`, ipAddress: ipOf(i), merchant: `mid-${i % MERCHANTS}` });

// ---- The traffic: every customer's transactions at random times over 30 days, in time order,
// each sent before authorisation and again 2 s later with its outcome (one in ten declined). ----
const times = [];
for (let customer = 0; customer < CUSTOMERS; customer += 1) {
  for (let n = 0; n < TRANSACTIONS_PER_CUSTOMER; n += 1) times.push([START + Math.floor(random() * 30 * DAY), customer, n]);
}
times.sort((a, b) => a[0] - b[0]);
/** The two updates of each transaction of `times[from, to)`, as the gateway publishes them. */
function payloadsOf(from, to) {
  const payloads = [];
  for (const [at, customer, n] of times.slice(from, to)) {
    const transaction = { transactionId: `tx-${customer}-${n}`, amount: 500 + Math.floor(random() * 20_000), currency: 'GBP', mid: `mid-${customer % MERCHANTS}` };
    const base = { customer: { customerId: `cus-${customer}`, email: `User.${customer}@Example.com` }, paymentMethod: { instrumentId: `inst-${customer}` }, device: { deviceId: `dev-${customer}`, ipAddress: ipOf(customer) } };
    payloads.push({ timestamp: at, transaction, ...base });
    payloads.push({ timestamp: at + 2_000, transaction: { ...transaction, success: random() > 0.1 }, ...base });
  }
  return payloads;
}

const features = new VelocityFeatures({ now: () => END });
const before = memory();
/** Events between two write-behind flushes (`takeChanges`): about 200 ms of 5,000 events a second. */
const FLUSH_EVERY = 1_000;

// ---- Record every event in time order (most keys are seen for the first time here), taking the
// write-behind snapshot every FLUSH_EVERY events as the consumer's flush does. ----
let extractNs = 0;
let recordNs = 0;
let flushNs = 0;
let recorded = 0;
const CHUNK = 5_000;
for (let from = 0; from < times.length; from += CHUNK) {
  const payloads = payloadsOf(from, from + CHUNK);
  let started = process.hrtime.bigint();
  const events = payloads.map((payload, i) => velocityEventOf(TOPIC, payload, `evt-${from}-${i}`));
  extractNs += Number(process.hrtime.bigint() - started);
  for (let i = 0; i < events.length; i += FLUSH_EVERY) {
    started = process.hrtime.bigint();
    for (const event of events.slice(i, i + FLUSH_EVERY)) features.record(SCOPE, event);
    recordNs += Number(process.hrtime.bigint() - started);
    started = process.hrtime.bigint();
    features.takeChanges();
    flushNs += Number(process.hrtime.bigint() - started);
  }
  recorded += events.length;
}
extractNs /= recorded;
recordNs /= recorded;
flushNs /= recorded;
const held = memory() - before;
const stats = features.stats();

// ---- Live traffic on the keys held: 1,000 transactions a second of event time for random known
// customers over the last 200 s, with the write-behind snapshot every 200 ms of them (one
// commit interval), as in production; each transaction sent before and after authorisation. ----
const LIVE_EVENTS = 200_000;
const live = Array.from({ length: LIVE_EVENTS }, (_, i) => {
  const customer = Math.floor(random() * CUSTOMERS);
  const transactionId = `live-${i >> 1}`;
  const payload = {
    timestamp: END - 200_000 + Math.floor(i / 2) * 2,
    transaction: { transactionId, amount: 1_000, currency: 'GBP', mid: `mid-${customer % MERCHANTS}`, ...(i % 2 === 1 ? { success: random() > 0.1 } : {}) },
    customer: { customerId: `cus-${customer}`, email: `user.${customer}@example.com` },
    paymentMethod: { instrumentId: `inst-${customer}` },
    device: { deviceId: `dev-${customer}`, ipAddress: ipOf(customer) },
  };
  return velocityEventOf(TOPIC, payload, `live-${i}`);
});
let liveRecordNs = 0;
let liveFlushNs = 0;
for (let i = 0; i < live.length; i += 200) {
  let started = process.hrtime.bigint();
  for (const event of live.slice(i, i + 200)) features.record(SCOPE, event);
  liveRecordNs += Number(process.hrtime.bigint() - started);
  started = process.hrtime.bigint();
  features.takeChanges();
  liveFlushNs += Number(process.hrtime.bigint() - started);
}
liveRecordNs /= live.length;
liveFlushNs /= live.length;
live.length = 0;

// ---- A checkpoint's whole velocity vector: customer, card, device, e-mail, IP and merchant. ----
const vector = new Float64Array(1024);
let started;
const latencies = [];
for (let q = 0; q < QUERIES; q += 1) {
  const keys = keysOf(Math.floor(random() * CUSTOMERS));
  started = process.hrtime.bigint();
  features.featureVectorAt(SCOPE, keys, END, vector);
  latencies.push(Number(process.hrtime.bigint() - started));
}
latencies.sort((a, b) => a - b);
const merchantOnly = [];
for (let q = 0; q < 2_000; q += 1) {
  started = process.hrtime.bigint();
  features.featureVectorAt(SCOPE, { cards: [], merchant: `mid-${q % MERCHANTS}` }, END, vector);
  merchantOnly.push(Number(process.hrtime.bigint() - started));
}
merchantOnly.sort((a, b) => a - b);

// ---- The whole snapshot of every key, and the load at start from it. ----
for (let i = 0; i < CUSTOMERS; i += 1) features.record(SCOPE, { eventId: `touch-${i}`, timestampMillis: END, keys: keysOf(i) });
// Whole snapshots (older and fresh parts), as the first write of each key and a restart read them.
features.returnChanges(features.takeChanges());
let snapshotStart = process.hrtime.bigint();
const changes = features.takeChanges();
const snapshotMs = Number(process.hrtime.bigint() - snapshotStart) / 1e6;
let snapshotKeys = 0;
let snapshotBytes = 0;
for (const tenant of changes) {
  for (const change of tenant.keys) {
    snapshotKeys += 1;
    snapshotBytes += JSON.stringify(change.snapshot).length;
  }
}
const stored = JSON.parse(JSON.stringify(changes));
const restored = new VelocityFeatures({ now: () => END });
snapshotStart = process.hrtime.bigint();
for (const tenant of stored) for (const { dimension, key, snapshot } of tenant.keys) if (snapshot !== null) restored.restoreKey(tenant.scope, dimension, key, snapshot);
const restoreMs = Number(process.hrtime.bigint() - snapshotStart) / 1e6;

console.log(
  JSON.stringify(
    {
      customers: CUSTOMERS,
      events: CUSTOMERS * TRANSACTIONS_PER_CUSTOMER * 2,
      keys: stats.keys,
      occurrences: stats.occurrences,
      microsPerEvent: {
        extract: +(extractNs / 1000).toFixed(2),
        loadPhase: { note: '30 days of traffic in time order, snapshot every 1,000 events', record: +(recordNs / 1000).toFixed(2), snapshot: +(flushNs / 1000).toFixed(2) },
        livePhase: { note: '1,000 events/s of event time on existing keys, snapshot every 200 events', record: +(liveRecordNs / 1000).toFixed(2), snapshot: +(liveFlushNs / 1000).toFixed(2) },
      },
      heap: { total: mib(held), bytesPerKey: Math.round(held / stats.keys), note: 'keys, occurrence registry (7 days of transactions) and recorded event ids included' },
      checkpointVectorMicros: {
        features: features.featureVectorAt(SCOPE, keysOf(0), END).length,
        p50: +(percentile(latencies, 50) / 1000).toFixed(2),
        p99: +(percentile(latencies, 99) / 1000).toFixed(2),
        max: +(latencies[latencies.length - 1] / 1000).toFixed(2),
      },
      hotMerchantKeyMicros: { p50: +(percentile(merchantOnly, 50) / 1000).toFixed(2), p99: +(percentile(merchantOnly, 99) / 1000).toFixed(2) },
      wholeSnapshot: { keys: snapshotKeys, takeChangesMs: Math.round(snapshotMs), jsonBytesPerKey: Math.round(snapshotBytes / snapshotKeys), restoreMicrosPerKey: +((restoreMs * 1000) / snapshotKeys).toFixed(2) },
    },
    null,
    2,
  ),
);
