// The breached-credentials store at scale (docs/credentials.md): generates a synthetic corpus
// of BENCH_PAIRS `username:password` lines (default 10 million; the figure is 100
// million: BENCH_PAIRS=100000000, about 4 GB of corpus and 1.6 GB of store), imports it with
// the CLI's import (worker threads), and measures import pairs/s, disk bytes per pair, memory
// after open, and check latency (p50/p99, sequential and 64 at once) for names in and not in
// the store. BENCH_FORMAT=hex writes `username:sha256hex` lines instead of plaintext passwords.
// Output: one JSON object. `npm run bench:credentials`.
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const dist = process.env.CREDENTIALS_BENCH_DIST ?? join(root, 'dist');
const { CredentialsStore, CredentialsCheck, CommonPasswords, importCorpusFiles } = require(join(dist, 'libs/credentials/src/index.js'));

const pairs = Number(process.env.BENCH_PAIRS ?? 10_000_000);
const threads = Number(process.env.BENCH_THREADS ?? availableParallelism());
const lookups = Number(process.env.BENCH_LOOKUPS ?? 200_000);
const format = process.env.BENCH_FORMAT === 'hex' ? 'hex' : 'plaintext';
const work = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'ringfence-credentials-bench-'));
const key = Buffer.from('bench key: at least thirty-two characters long');
// About 1.6 passwords a username, as in real corpora where most names appear once.
const usernameOf = (i) => `user${Math.floor(i / 1.6)}@example.com`;
const passwordOf = (i) => `password-${i}`;

async function generate(file) {
  const out = createWriteStream(file, { highWaterMark: 4 * 1024 * 1024 });
  let buffer = '';
  for (let i = 0; i < pairs; i += 1) {
    buffer += `${usernameOf(i)}:${format === 'hex' ? sha256(passwordOf(i)) : passwordOf(i)}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await new Promise((resolve) => out.once('drain', resolve));
      buffer = '';
    }
  }
  out.end(buffer);
  await new Promise((resolve) => out.once('finish', resolve));
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

try {
  const corpus = join(work, 'corpus.txt');
  const generatedAt = Date.now();
  await generate(corpus);
  const corpusBytes = statSync(corpus).size;
  const generateSeconds = (Date.now() - generatedAt) / 1000;

  const storeDir = join(work, 'store');
  const importStart = Date.now();
  const summary = await importCorpusFiles(storeDir, key, [corpus], { threads });
  const importSeconds = (Date.now() - importStart) / 1000;
  rmSync(corpus);

  const genDir = join(storeDir, summary.generation);
  let recordBytes = 0;
  let indexBytes = 0;
  for (const file of readdirSync(genDir)) {
    const size = statSync(join(genDir, file)).size;
    if (file.endsWith('.rec')) recordBytes += size;
    if (file.endsWith('.idx')) indexBytes += size;
  }

  const before = process.memoryUsage();
  const store = await CredentialsStore.open(storeDir, key);
  const after = process.memoryUsage();
  const check = new CredentialsCheck({ passwordPrefixesOf: (u) => store.passwordPrefixesOf(u) }, CommonPasswords.fromZxcvbnList());

  // Half the lookups for stored usernames (with their password), half for unknown ones.
  const queries = Array.from({ length: lookups }, (_, n) => {
    const i = Math.floor(Math.random() * pairs);
    return n % 2 === 0 ? [usernameOf(i), sha256(passwordOf(i))] : [`nobody${i}@example.org`, sha256(`x${i}`)];
  });
  // Warm-up: the page cache and the JIT.
  for (const [u, h] of queries.slice(0, 20_000)) await check.check(u, h);
  const latencies = new Float64Array(lookups);
  let found = 0;
  const sequentialStart = process.hrtime.bigint();
  for (let n = 0; n < lookups; n += 1) {
    const t = process.hrtime.bigint();
    const status = await check.check(queries[n][0], queries[n][1]);
    latencies[n] = Number(process.hrtime.bigint() - t) / 1e6;
    if (n % 2 === 0 && status.passwordBreached) found += 1;
  }
  const sequentialSeconds = Number(process.hrtime.bigint() - sequentialStart) / 1e9;
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const hits = Array.from(latencies.filter((_, n) => n % 2 === 0)).sort((a, b) => a - b);

  const concurrentStart = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < lookups) {
        const [u, h] = queries[next++];
        await check.check(u, h);
      }
    }),
  );
  const concurrentSeconds = Number(process.hrtime.bigint() - concurrentStart) / 1e9;
  await store.close();

  const result = {
    pairs,
    format,
    threads,
    corpusBytes,
    generateSeconds,
    import: {
      seconds: importSeconds,
      pairsPerSecond: Math.round(pairs / importSeconds),
      mbPerSecond: Math.round(corpusBytes / 1e6 / importSeconds),
      storedPairs: summary.storedPairs,
    },
    disk: {
      recordBytes,
      indexBytes,
      bytesPerPair: +(recordBytes / summary.storedPairs).toFixed(2),
      bytesPerPairWithIndex: +((recordBytes + indexBytes) / summary.storedPairs).toFixed(2),
    },
    memoryAfterOpen: {
      arrayBuffersMB: Math.round((after.arrayBuffers - before.arrayBuffers) / 1e6),
      heapUsedMB: Math.round((after.heapUsed - before.heapUsed) / 1e6),
      rssMB: Math.round(after.rss / 1e6),
    },
    check: {
      lookups,
      storedPasswordsFound: `${found}/${lookups / 2}`,
      p50ms: +percentile(sorted, 50).toFixed(4),
      p99ms: +percentile(sorted, 99).toFixed(4),
      p999ms: +percentile(sorted, 99.9).toFixed(4),
      storedUsernameP99ms: +percentile(hits, 99).toFixed(4),
      sequentialPerSecond: Math.round(lookups / sequentialSeconds),
      concurrent64PerSecond: Math.round(lookups / concurrentSeconds),
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
