// The embedded event log's stores compared, as the in-process bus uses them: `npm run bench:event-log`.
// Each store gets the bus's own group commit (EventLogAppender: appends queue while one batch is
// written, the next batch takes them all) and the mixed workload's largest common event (the
// golden full customer payload in its envelope), in a fresh temporary directory:
//   - `pglite`: the relational `event_log` table on the embedded database (PGlite in its worker
//     thread), the store before issue 35;
//   - `lmdb`: LmdbEventLogStore (the `lmdb` package), the store now;
//   - `segment file`: the simplest alternative, an append-only file written and `fdatasync`ed per
//     batch (appends only: no index, no reads, no idempotency; its floor, not a store).
// Two loads per store: BENCH_RATE appends/s offered (default 600: two appends per checkpoint at
// 300 checkpoints/s) for BENCH_SECONDS, reporting each append's latency p50/p99 and the CPU per
// append of the main thread and of the whole process; then BENCH_CONCURRENCY appenders each appending as soon as the last
// was answered, reporting appends/s. Medians of BENCH_ROUNDS rounds (3), stores alternating.
import { closeSync, fdatasync, mkdtempSync, openSync, readFileSync, rmSync, write } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const { openDataSource, TypeOrmEventLogStore } = require(join(root, 'dist/libs/persistence/src/index.js'));
const { LmdbEventLogStore } = require(join(root, 'dist/libs/persistence/src/event-log/lmdb-event-log.store.js'));
const { EventLogAppender } = require(join(root, 'dist/libs/bus/src/in-process/event-log-appender.js'));
const { envelopeText } = require(join(root, 'dist/libs/contracts/src/index.js'));

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const rate = env('BENCH_RATE', 600);
const seconds = env('BENCH_SECONDS', 5);
const concurrency = env('BENCH_CONCURRENCY', 50);
const rounds = env('BENCH_ROUNDS', 3);

const payload = JSON.parse(readFileSync(join(root, 'test/contracts/fixtures/customer/valid/full.json'), 'utf8')).body;
let counter = 0;
const envelope = () => {
  counter += 1;
  return { eventId: `evt_bench_${counter}`, accountId: 'acc_bench', environment: 'test', subjectId: `cus_${counter % 5000}`, acceptedAt: Date.now(), traceId: `trace-${counter}`, payload };
};

/** The rejected alternative's floor: one write and one fdatasync per batch, sequences counted in memory. */
class SegmentFile {
  constructor(path) {
    this.fd = openSync(path, 'a');
    this.sequence = 0;
  }
  async appendBatch(events) {
    const text = events.map((event) => `${JSON.stringify([event.topic, event.key])}\t${envelopeText(event.envelope)}\n`).join('');
    await promisify(write)(this.fd, text);
    await promisify(fdatasync)(this.fd);
    return events.map(() => (this.sequence += 1));
  }
  close() {
    closeSync(this.fd);
  }
}

const stores = {
  pglite: async (dir) => {
    const dataSource = await openDataSource({ dataDir: dir, soleWriter: true });
    return { log: new TypeOrmEventLogStore(dataSource), close: () => dataSource.destroy() };
  },
  lmdb: async (dir) => {
    const log = new LmdbEventLogStore(join(dir, 'event-log'), { committedOffset: async () => 0, commitOffsets: async () => undefined });
    return { log, close: () => log.close() };
  },
  'segment file': async (dir) => {
    const log = new SegmentFile(join(dir, 'segment'));
    return { log, close: async () => log.close() };
  },
};

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;
const median = (values) => quantile(values, 0.5);
// The main thread's CPU time (Linux: its task's utime + stime, in clock ticks of 10 ms), apart
// from the stores' own threads (PGlite's worker, LMDB's write thread), which run beside it.
const TICK_MS = 10;
const mainThreadCpuMs = () => {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};
const processCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function atRate(appender) {
  const latencies = [];
  const pending = [];
  const total = rate * seconds;
  const started = performance.now();
  const cpuBefore = mainThreadCpuMs();
  const processCpuBefore = processCpuMs();
  for (let index = 0; index < total; index += 1) {
    const due = started + (index * 1000) / rate;
    const wait = due - performance.now();
    // Pacing, not polling: the next append is sent at its offered time.
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    pending.push(appender.append('ringfence.ingest.customer.updated.v1', 'acc_bench:test:cus', envelope()).then(() => latencies.push(performance.now() - sent)));
  }
  await Promise.all(pending);
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), cpuPerAppendMs: (mainThreadCpuMs() - cpuBefore) / total, processCpuPerAppendMs: (processCpuMs() - processCpuBefore) / total };
}

async function saturated(appender) {
  let appended = 0;
  const until = performance.now() + seconds * 1000;
  const appendLoop = async () => {
    while (performance.now() < until) {
      await appender.append('ringfence.ingest.customer.updated.v1', 'acc_bench:test:cus', envelope());
      appended += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, appendLoop));
  return { appendsPerSecond: appended / seconds };
}

const results = Object.fromEntries(Object.keys(stores).map((name) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const [name, openStore] of Object.entries(stores)) {
    const dir = mkdtempSync(join(tmpdir(), 'ringfence-bench-event-log-'));
    const { log, close } = await openStore(dir);
    const appender = new EventLogAppender(log);
    for (let warm = 0; warm < 200; warm += 1) await appender.append('ringfence.ingest.customer.updated.v1', 'acc_bench:test:cus', envelope());
    results[name].push({ ...(await atRate(appender)), ...(await saturated(appender)) });
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const summary = (runs, field, digits = 2) => `${median(runs.map((run) => run[field])).toFixed(digits)} (${Math.min(...runs.map((run) => run[field])).toFixed(digits)}–${Math.max(...runs.map((run) => run[field])).toFixed(digits)})`;
console.log(`Event log appends through the bus's group commit: ${rate}/s offered for ${seconds} s, then ${concurrency} appenders for ${seconds} s; medians (min–max) of ${rounds} rounds`);
console.log('| store | p50 at the rate | p99 at the rate | CPU per append, main thread | CPU per append, all threads | appends/s, saturated |');
console.log('|---|---|---|---|---|---|');
for (const [name, runs] of Object.entries(results)) {
  console.log(`| ${name} | ${summary(runs, 'p50')} ms | ${summary(runs, 'p99')} ms | ${summary(runs, 'cpuPerAppendMs', 3)} ms | ${summary(runs, 'processCpuPerAppendMs', 3)} ms | ${summary(runs, 'appendsPerSecond', 0)} |`);
}
