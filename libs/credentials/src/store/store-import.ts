import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { resolve as resolvePath, join } from 'node:path';
import { ImportWorkerPool } from './import-worker-pool';
import { readFileIntoRuns } from './store-import-reading';
import { PARTITIONS, groupByPartition, passwordPrefixWords, usernameKey } from './record-format';
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

export interface RunEntry {
  name: string;
  count: number;
  bounds: number[];
}

export interface Manifest {
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
    const manifestFile = join(workDir, 'manifest.json');
    const inputs = files.map((file) => {
      const path = resolvePath(file);
      const stat = statSync(path);
      return { path, size: stat.size, mtimeMs: stat.mtimeMs };
    });
    const { manifest, resumed } = await resumeOrStart(inputs, { storeDir, key, manifestFile, workDir, pool, options });
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

/** Where an import works: the store, its key, the manifest and the work directory, the parsing threads. */
interface ImportWork {
  storeDir: string;
  key: Buffer;
  manifestFile: string;
  workDir: string;
  pool: ImportWorkerPool;
  options: ImportOptions;
}

/**
 * The manifest of the import of these inputs: the one stopped before (resumed), or a new one;
 * an unfinished import of other files is finished (merging) or dropped (reading) first.
 */
async function resumeOrStart(inputs: Manifest['inputs'], work: ImportWork): Promise<{ manifest: Manifest; resumed: boolean }> {
  const { storeDir, key, manifestFile, workDir, pool, options } = work;
  const id = createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 32);
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
  return { manifest, resumed };
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
