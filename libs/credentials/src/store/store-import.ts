import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, openSync, readSync, closeSync } from 'node:fs';
import { resolve as resolvePath, join } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ImportWorkerPool } from './import-worker-pool';
import { MALFORMED_EXAMPLES, type ParsedBlock } from './parse-block';
import { PARTITIONS, groupByPartition, passwordPrefixWords, recordsToBytes, usernameKey } from './record-format';
import { acquireStoreLock } from './store-lock';
import { type MergeOptions, type MergePlan, type MergeResult, fileRun, memoryRun, mergeGeneration, planMerge, swapGeneration } from './store-merge';
import { readCurrent, writeFileAtomic } from './store-layout';

export type MalformedReason = 'no-separator' | 'empty-username' | 'empty-password' | 'username-too-long';

export interface ImportProgress {
  phase: 'reading' | 'merging';
  bytesRead: number;
  bytesTotal: number;
  lines: number;
  partitionsMerged: number;
}

export interface ImportSummary {
  files: number;
  lines: number;
  /** Well-formed lines (pairs read, duplicates included). */
  pairs: number;
  /** Pairs the store did not hold before this import. */
  newPairs: number;
  /** Pairs in the store after it. */
  storedPairs: number;
  malformed: Record<MalformedReason, number>;
  /** The first few malformed lines: file and 1-based line number. */
  malformedLines: { file: string; line: number }[];
  /** True when this run continued an import stopped before. */
  resumed: boolean;
  generation: string;
}

export interface ImportOptions {
  /** Worker threads (they parse the blocks and merge the partitions); 0 works in the calling thread. Defaults to the core count. */
  threads?: number;
  /** Records per run file (16 bytes each in memory, twice while grouping). */
  runRecords?: number;
  /** Bytes per parse block. */
  blockBytes?: number;
  onProgress?: (progress: ImportProgress) => void;
  /** Test hooks: throw to simulate a crash after a step. */
  afterRun?: (run: number) => void;
  afterPartition?: MergeOptions['afterPartition'];
  beforeSwap?: () => void;
}

interface RunEntry {
  name: string;
  count: number;
  bounds: number[];
}

interface Manifest {
  id: string;
  inputs: { path: string; size: number; mtimeMs: number }[];
  phase: 'reading' | 'merging';
  position: { file: number; offset: number; line: number };
  bytesDone: number;
  lines: number;
  pairs: number;
  malformed: Record<MalformedReason, number>;
  malformedLines: { file: string; line: number }[];
  runs: RunEntry[];
  plan?: MergePlan;
}

const DEFAULT_RUN_RECORDS = 4_000_000;
const DEFAULT_BLOCK_BYTES = 4 * 1024 * 1024;
const GZIP_MAGIC = 0x1f8b;

/**
 * `ringfence credentials import FILE…` into the store directory (store-layout.ts), in three
 * resumable steps, each recorded in `import/manifest.json` (written atomically) before the next:
 *
 * 1. reading: the files are streamed (plain or gzip, told by their first bytes) in blocks,
 *    parsed in parallel by worker threads, and every few million records grouped by partition
 *    into a run file; the manifest then records the run and the position reached (file, byte,
 *    line);
 * 2. merging: each partition of the current generation is merged with the runs' records of it
 *    into the next generation (store-merge.ts), partitions in parallel in the worker threads;
 * 3. swap: CURRENT is renamed to the new generation; the runs and the old generation go.
 *
 * Killed at any point (kill -9), the same command continues from the manifest: a run file
 * written but not yet in the manifest is written again, a merged partition is kept. Checks read
 * the current generation throughout and see the new one only after the swap; the same pairs
 * imported twice change nothing.
 */
export async function importCorpusFiles(storeDir: string, key: Buffer, files: string[], options: ImportOptions = {}): Promise<ImportSummary> {
  const release = acquireStoreLock(storeDir);
  const pool = new ImportWorkerPool(key, options.threads);
  try {
    const workDir = join(storeDir, 'import');
    const inputs = files.map((file) => {
      const path = resolvePath(file);
      const stat = statSync(path);
      return { path, size: stat.size, mtimeMs: stat.mtimeMs };
    });
    const id = createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 32);
    const manifestFile = join(workDir, 'manifest.json');
    let manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest) : undefined;
    const resumed = manifest?.id === id;
    if (manifest && !resumed) {
      // An unfinished import of other files: finish its merge if its runs are complete (they
      // are the operator's data), else drop it; its command can be run again.
      if (manifest.phase === 'merging') await mergeAndSwap(storeDir, key, manifest, manifestFile, workDir, pool, options);
      rmSync(workDir, { recursive: true, force: true });
      manifest = undefined;
    }
    mkdirSync(workDir, { recursive: true });
    manifest ??= {
      id,
      inputs,
      phase: 'reading',
      position: { file: 0, offset: 0, line: 0 },
      bytesDone: 0,
      lines: 0,
      pairs: 0,
      malformed: { 'no-separator': 0, 'empty-username': 0, 'empty-password': 0, 'username-too-long': 0 },
      malformedLines: [],
      runs: [],
    };
    const saveManifest = (next: Manifest) => writeFileAtomic(manifestFile, JSON.stringify(next));
    saveManifest(manifest);
    const bytesTotal = inputs.reduce((sum, input) => sum + input.size, 0);

    if (manifest.phase === 'reading') {
      const state = manifest;
      for (let fileIndex = state.position.file; fileIndex < inputs.length; fileIndex += 1) {
        await readFileIntoRuns(inputs[fileIndex].path, fileIndex, state, workDir, pool, options, saveManifest, bytesTotal);
        state.position = { file: fileIndex + 1, offset: 0, line: 0 };
        saveManifest(state);
      }
      state.phase = 'merging';
      saveManifest(state);
    }
    const result = await mergeAndSwap(storeDir, key, manifest, manifestFile, workDir, pool, { ...options, bytesTotal });
    rmSync(workDir, { recursive: true, force: true });
    return {
      files: inputs.length,
      lines: manifest.lines,
      pairs: manifest.pairs,
      newPairs: result.newPairs,
      storedPairs: result.pairs,
      malformed: manifest.malformed,
      malformedLines: manifest.malformedLines,
      resumed,
      generation: result.generation,
    };
  } finally {
    await pool.close();
    release();
  }
}

async function mergeAndSwap(
  storeDir: string,
  key: Buffer,
  manifest: Manifest,
  manifestFile: string,
  workDir: string,
  pool: ImportWorkerPool,
  options: ImportOptions & { bytesTotal?: number },
): Promise<MergeResult> {
  // A plan made against another generation (something was imported in between) is made again.
  if (!manifest.plan || (readCurrent(storeDir) ?? null) !== manifest.plan.base) {
    if (manifest.plan) rmSync(join(storeDir, manifest.plan.target), { recursive: true, force: true });
    manifest.plan = planMerge(storeDir);
    writeFileAtomic(manifestFile, JSON.stringify(manifest));
  }
  const runs = manifest.runs.map((run) => fileRun(join(workDir, run.name), run.bounds));
  let merged = 0;
  const result = await mergeGeneration(storeDir, key, manifest.plan, runs, {
    merger: (tasks) => pool.mergePartitions(tasks),
    concurrency: Math.max(1, pool.threads),
    afterPartition: (partition) => {
      merged += 1;
      if (merged % 64 === 0 || merged === PARTITIONS) {
        options.onProgress?.({ phase: 'merging', bytesRead: options.bytesTotal ?? 0, bytesTotal: options.bytesTotal ?? 0, lines: manifest.lines, partitionsMerged: merged });
      }
      options.afterPartition?.(partition);
    },
  });
  options.beforeSwap?.();
  swapGeneration(storeDir, result.generation);
  return result;
}

async function readFileIntoRuns(
  path: string,
  fileIndex: number,
  state: Manifest,
  workDir: string,
  pool: ImportWorkerPool,
  options: ImportOptions,
  saveManifest: (manifest: Manifest) => void,
  bytesTotal: number,
): Promise<void> {
  const runRecords = options.runRecords ?? DEFAULT_RUN_RECORDS;
  const blockBytes = options.blockBytes ?? DEFAULT_BLOCK_BYTES;
  const compressed = isGzip(path);
  const startOffset = state.position.offset;
  // Progress counts bytes of the file on disk; for gzip that is only known at the end.
  const bytesBefore = state.bytesDone;
  let offset = 0;
  let line = state.position.line;
  let lineBase = state.position.line;
  let pending: ParsedBlock[] = [];
  let pendingRecords = 0;
  let pendingEnd = { offset: startOffset, line };
  const inFlight: { parsed: Promise<ParsedBlock>; end: number }[] = [];
  const maxInFlight = Math.max(2, pool.threads * 2);

  const flushRun = () => {
    if (pending.length === 0) return;
    const records = new Uint32Array(pendingRecords * 4);
    let at = 0;
    for (const block of pending) {
      records.set(block.records.subarray(0, block.count * 4), at);
      at += block.count * 4;
    }
    // Grouped by partition only: the merge sorts each partition with the generation's records anyway.
    const run = groupByPartition(records, pendingRecords);
    const name = `run-${String(state.runs.length).padStart(6, '0')}.bin`;
    writeFileAtomic(join(workDir, name), recordsToBytes(run.records, 0, pendingRecords));
    state.runs.push({ name, count: pendingRecords, bounds: run.bounds });
    state.position = { file: fileIndex, offset: pendingEnd.offset, line: pendingEnd.line };
    state.bytesDone = bytesBefore + (compressed ? 0 : pendingEnd.offset);
    saveManifest(state);
    options.afterRun?.(state.runs.length - 1);
    pending = [];
    pendingRecords = 0;
  };

  const take = async () => {
    const next = inFlight.shift();
    if (!next) return;
    const parsed = await next.parsed;
    state.lines += parsed.lines;
    state.pairs += parsed.count;
    for (const reason of Object.keys(parsed.malformed) as MalformedReason[]) state.malformed[reason] += parsed.malformed[reason];
    for (const relative of parsed.malformedLines) {
      if (state.malformedLines.length < MALFORMED_EXAMPLES) state.malformedLines.push({ file: path, line: lineBase + relative });
    }
    lineBase += parsed.lines;
    line = lineBase;
    pending.push(parsed);
    pendingRecords += parsed.count;
    pendingEnd = { offset: next.end, line };
    options.onProgress?.({ phase: 'reading', bytesRead: bytesBefore + (compressed ? 0 : next.end), bytesTotal, lines: state.lines, partitionsMerged: 0 });
    if (pendingRecords >= runRecords) flushRun();
  };

  const dispatch = async (block: Buffer, end: number) => {
    inFlight.push({ parsed: pool.parse(block), end });
    while (inFlight.length >= maxInFlight) await take();
  };

  const stream = openInput(path, compressed, startOffset);
  let carry: Buffer[] = [];
  let carryBytes = 0;
  // Position (in the uncompressed stream) of the first byte of `carry`.
  offset = startOffset;
  let skip = compressed ? startOffset : 0;
  for await (const piece of stream as AsyncIterable<Buffer>) {
    let chunk = piece;
    if (skip > 0) {
      if (chunk.length <= skip) {
        skip -= chunk.length;
        continue;
      }
      chunk = chunk.subarray(skip);
      skip = 0;
    }
    carry.push(chunk);
    carryBytes += chunk.length;
    if (carryBytes < blockBytes) continue;
    const joined = Buffer.concat(carry, carryBytes);
    let start = 0;
    while (joined.length - start >= blockBytes) {
      // Blocks of about blockBytes, cut after a newline (a longer line makes a longer block).
      let cut = joined.lastIndexOf(0x0a, start + blockBytes - 1) + 1;
      if (cut <= start) cut = joined.indexOf(0x0a, start + blockBytes) + 1;
      if (cut <= start) break;
      await dispatch(ownedCopy(joined, start, cut), offset + cut);
      start = cut;
    }
    offset += start;
    carry = start < joined.length ? [joined.subarray(start)] : [];
    carryBytes = joined.length - start;
  }
  if (carryBytes > 0) {
    const joined = Buffer.concat(carry, carryBytes);
    // The last line may lack its newline; a block is whole lines.
    const tail = joined[joined.length - 1] === 0x0a ? joined : Buffer.concat([joined, Buffer.from('\n')]);
    await dispatch(ownedCopy(tail, 0, tail.length), offset + carryBytes);
  }
  while (inFlight.length > 0) await take();
  flushRun();
  state.bytesDone = bytesBefore + statSync(path).size;
}

/** Blocks are moved to a worker thread: each needs an ArrayBuffer of its own. */
function ownedCopy(source: Buffer, from: number, to: number): Buffer {
  const owned = Buffer.from(new ArrayBuffer(to - from));
  source.copy(owned, 0, from, to);
  return owned;
}

function isGzip(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head.readUInt16BE(0) === GZIP_MAGIC;
  } finally {
    closeSync(fd);
  }
}

/** A plain file resumes at its byte offset; a gzip file is decompressed again and skipped up to it. */
function openInput(path: string, compressed: boolean, offset: number): Readable {
  if (!compressed) return createReadStream(path, { start: offset, highWaterMark: 1024 * 1024 });
  return createReadStream(path, { highWaterMark: 1024 * 1024 }).pipe(createGunzip());
}

export interface BatchPair {
  /** Normalised. */
  username: string;
  /** 64 hex characters. */
  passwordHash: string;
}

/**
 * Merges a small set of pairs (the admin route, the start-up conversion) into a new generation
 * and swaps it in: the same merge as a file import, with the run in memory. Answers the number
 * of pairs the store did not hold before.
 */
export async function importPairs(storeDir: string, key: Buffer, pairs: readonly BatchPair[]): Promise<MergeResult> {
  const release = acquireStoreLock(storeDir);
  try {
    const records = new Uint32Array(pairs.length * 4);
    pairs.forEach((pair, i) => {
      const [w0, w1] = usernameKey(key, pair.username);
      const [w2, w3] = passwordPrefixWords(pair.passwordHash);
      records.set([w0, w1, w2, w3], i * 4);
    });
    // Grouped only: the merge sorts and de-duplicates each partition.
    const run = groupByPartition(records, pairs.length);
    const plan = planMerge(storeDir);
    const result = await mergeGeneration(storeDir, key, plan, [memoryRun(run.records, run.bounds)]);
    swapGeneration(storeDir, result.generation);
    return result;
  } finally {
    release();
  }
}
