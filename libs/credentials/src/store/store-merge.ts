import { closeSync, copyFileSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { buildPartitionIndex, readPartitionCounts, serialisePartitionIndex } from './partition-index';
import { PARTITION_BITS, PARTITIONS, RECORD_BYTES, bytesToRecords, dedupeSorted, recordsToBytes, sortRecords } from './record-format';
import {
  type GenerationMeta,
  fsyncDirectory,
  generationName,
  generationNumber,
  keyCheckOf,
  partitionFileName,
  readCurrent,
  writeFileAtomic,
} from './store-layout';

/**
 * Where one partition's records of a run are: a range of a run file (an import's, read by
 * whichever thread merges the partition) or an array in memory (a small admin batch).
 */
export type RunPiece = { file: string; from: number; count: number } | Uint32Array;

/** Records to merge in, grouped by partition (in any order within one). */
export interface RunSource {
  piece(partition: number): RunPiece;
}

/** A run held in memory (a small admin batch, the one-time conversion; `bounds` from `groupByPartition`). */
export function memoryRun(records: Uint32Array, bounds: number[]): RunSource {
  return { piece: (p) => records.subarray(bounds[p] * 4, bounds[p + 1] * 4) };
}

/** A run file written by an import (records grouped by partition; `bounds` from `groupByPartition`). */
export function fileRun(file: string, bounds: number[]): RunSource {
  return { piece: (p) => ({ file, from: bounds[p], count: bounds[p + 1] - bounds[p] }) };
}

function pieceLength(piece: RunPiece): number {
  return piece instanceof Uint32Array ? piece.length / 4 : piece.count;
}

/** One partition of the next generation to write: the base's records and the runs' pieces of it. */
export interface PartitionMergeTask {
  recordFile: string;
  indexFile: string;
  baseRecordFile?: string;
  pieces: RunPiece[];
}

export interface PartitionCounts {
  records: number;
  usernames: number;
}

/** A function that merges partitions: `mergePartitions` here, or the same in a worker thread. */
export type PartitionMerger = (tasks: PartitionMergeTask[]) => Promise<PartitionCounts[]>;

/**
 * Writes partitions of a generation: each is the base partition's records and the pieces,
 * sorted and de-duplicated (so importing a pair twice changes nothing), then its index. Runs in
 * the import's worker threads (partitions are independent) or in the caller's. Given several
 * partitions, a run file is opened once for all of them (at 100 million pairs an import has 25
 * runs, and opening a file costs about 0.25 ms on this machine's disk).
 */
export function mergePartitions(tasks: PartitionMergeTask[]): PartitionCounts[] {
  const open = new Map<string, number>();
  const fdOf = (file: string) => {
    let fd = open.get(file);
    if (fd === undefined) {
      fd = openSync(file, 'r');
      open.set(file, fd);
    }
    return fd;
  };
  try {
    return tasks.map((task) => mergePartition(task, fdOf));
  } finally {
    for (const fd of open.values()) closeSync(fd);
  }
}

function mergePartition(task: PartitionMergeTask, fdOf: (file: string) => number): PartitionCounts {
  const old = task.baseRecordFile && existsSync(task.baseRecordFile) ? readFileSync(task.baseRecordFile) : undefined;
  const total = (old ? old.length / RECORD_BYTES : 0) + task.pieces.reduce((sum, piece) => sum + pieceLength(piece), 0);
  // Every piece is read (or copied) into one buffer as disk bytes, then swapped to words once.
  const bytes = Buffer.allocUnsafe(total * RECORD_BYTES);
  let at = 0;
  if (old) at += old.copy(bytes, 0);
  for (const piece of task.pieces) {
    if (piece instanceof Uint32Array) {
      at += recordsToBytes(piece, 0, piece.length / 4).copy(bytes, at);
      continue;
    }
    const length = piece.count * RECORD_BYTES;
    if (readSync(fdOf(piece.file), bytes, at, length, piece.from * RECORD_BYTES) !== length) throw new Error(`${piece.file}: short read`);
    at += length;
  }
  const records = bytesToRecords(bytes, total);
  const count = dedupeSorted(sortRecords(records, total), total);
  const index = buildPartitionIndex(records, count);
  // fsync comes once for all files, in parallel, before meta.json (mergeGeneration).
  writeFileAtomic(task.recordFile, recordsToBytes(records, 0, count), false);
  writeFileAtomic(task.indexFile, serialisePartitionIndex(index), false);
  return { records: index.records, usernames: index.usernames };
}

/** Partitions sent to a worker at once: enough to open each run file once for many, few enough to keep both workers busy to the end. */
const MERGE_BATCH = 16;

export interface MergePlan {
  /** The generation merged into (CURRENT when the plan was made), or null for an empty store. */
  base: string | null;
  target: string;
}

/** The next generation's name: above every generation directory present, finished or not. */
export function planMerge(storeDir: string): MergePlan {
  const base = readCurrent(storeDir) ?? null;
  let highest = base ? generationNumber(base) : 0;
  for (const entry of existsSync(storeDir) ? readdirSync(storeDir) : []) {
    if (/^gen-\d{6}$/.test(entry)) highest = Math.max(highest, generationNumber(entry));
  }
  return { base, target: generationName(highest + 1) };
}

export interface MergeResult {
  generation: string;
  pairs: number;
  usernames: number;
  /** Pairs the store did not hold before. */
  newPairs: number;
}

export interface MergeOptions {
  /** Called after each partition is written; a test throws here to simulate a crash. */
  afterPartition?: (partition: number) => void;
  /** Who merges partitions (the import's worker threads); by default `mergePartitions` in this thread. */
  merger?: PartitionMerger;
  /** Batches given to `merger` at once. */
  concurrency?: number;
}

/**
 * Writes generation `plan.target`: each partition is the base generation's partition merged with
 * the runs' records of that partition (`mergePartitions`, in batches, up to `concurrency`
 * batches at once through `merger`: the import's worker threads). A partition no run touches is
 * hard-linked from the base, not copied; an empty one has no files. The `merged` file notes how
 * far the merge got (every partition below it is written), so a merge stopped half-way (kill -9)
 * resumes there. Nothing is visible to checks until `swapGeneration`.
 */
export async function mergeGeneration(
  storeDir: string,
  key: Buffer,
  plan: MergePlan,
  runs: RunSource[],
  { afterPartition, merger = async (tasks) => mergePartitions(tasks), concurrency = 1 }: MergeOptions = {},
): Promise<MergeResult> {
  const targetDir = join(storeDir, plan.target);
  const baseDir = plan.base ? join(storeDir, plan.base) : undefined;
  mkdirSync(targetDir, { recursive: true });
  const progressFile = join(targetDir, 'merged');
  const resumeFrom = existsSync(progressFile) ? Number(readFileSync(progressFile, 'utf8')) || 0 : 0;
  const counts: (PartitionCounts | undefined)[] = new Array(PARTITIONS);
  // Partitions below `done` are finished; progress is noted every 32 of them (redoing a few
  // after a crash costs little; noting each cost as much as merging a small one).
  let done = resumeFrom;
  let noted = resumeFrom;
  const finish = (p: number, partitionCounts: PartitionCounts) => {
    counts[p] = partitionCounts;
    afterPartition?.(p);
    while (done < PARTITIONS && counts[done] !== undefined) done += 1;
    if (done - noted >= 32) {
      writeFileAtomic(progressFile, String(done), false);
      noted = done;
    }
  };
  const inFlight = new Set<Promise<void>>();
  let batch: { partition: number; task: PartitionMergeTask }[] = [];
  const dispatch = async () => {
    const sent = batch;
    batch = [];
    const merging: Promise<void> = merger(sent.map((item) => item.task)).then((batchCounts) => {
      inFlight.delete(merging);
      sent.forEach((item, i) => finish(item.partition, batchCounts[i]));
    });
    inFlight.add(merging);
    if (inFlight.size >= concurrency) await Promise.race(inFlight);
  };
  for (let p = 0; p < PARTITIONS; p += 1) {
    const recordFile = join(targetDir, partitionFileName(p, 'rec'));
    const indexFile = join(targetDir, partitionFileName(p, 'idx'));
    if (p < resumeFrom) {
      counts[p] = countsFrom(indexFile);
      continue;
    }
    const pieces = runs.map((run) => run.piece(p)).filter((piece) => pieceLength(piece) > 0);
    const baseRecordFile = baseDir ? join(baseDir, partitionFileName(p, 'rec')) : undefined;
    if (pieces.length === 0) {
      if (baseRecordFile !== undefined && existsSync(baseRecordFile)) linkBasePartition(baseDir as string, p, targetDir);
      finish(p, countsFrom(indexFile));
      continue;
    }
    batch.push({ partition: p, task: { recordFile, indexFile, baseRecordFile, pieces } });
    if (batch.length >= MERGE_BATCH) await dispatch();
  }
  if (batch.length > 0) await dispatch();
  await Promise.all(inFlight);
  writeFileAtomic(progressFile, String(done), false);
  return sealGeneration(key, plan, targetDir, baseDir, counts);
}


/** A partition no run touches: the base generation's files, hard-linked. */
function linkBasePartition(baseDir: string, partition: number, targetDir: string): void {
  for (const kind of ['rec', 'idx'] as const) linkOrCopy(join(baseDir, partitionFileName(partition, kind)), join(targetDir, partitionFileName(partition, kind)));
}

const countsFrom = (indexFile: string): PartitionCounts => (existsSync(indexFile) ? readPartitionCounts(indexFile) : { records: 0, usernames: 0 });

/** Writes the merged generation's meta (its counts) once every partition is, durably. */
async function sealGeneration(key: Buffer, plan: MergePlan, targetDir: string, baseDir: string | undefined, counts: readonly (PartitionCounts | undefined)[]): Promise<MergeResult> {
  const pairs = counts.reduce((sum, partition) => sum + (partition?.records ?? 0), 0);
  const usernames = counts.reduce((sum, partition) => sum + (partition?.usernames ?? 0), 0);
  // Durability against power loss (kill -9 needs none: the page cache survives the process): one
  // fsync per file, issued in parallel so the file system commits them together, instead of one
  // at a time as they are written (2,048 serial fsyncs cost seconds whatever the data size).
  await fsyncAll(readdirSync(targetDir).filter((file) => file.endsWith('.rec') || file.endsWith('.idx')).map((file) => join(targetDir, file)));
  const basePairs = baseDir ? (JSON.parse(readFileSync(join(baseDir, 'meta.json'), 'utf8')) as GenerationMeta).pairs : 0;
  const meta: GenerationMeta = { format: 1, partitionBits: PARTITION_BITS, keyCheck: keyCheckOf(key), pairs, usernames, createdAt: new Date().toISOString() };
  writeFileAtomic(join(targetDir, 'meta.json'), JSON.stringify(meta, null, 2));
  fsyncDirectory(targetDir);
  return { generation: plan.target, pairs, usernames, newPairs: pairs - basePairs };
}

/**
 * Makes `generation` the one checks read (an atomic rename of CURRENT), then removes the older
 * generations: a reader still holding one keeps its open files until it lets go.
 */
export function swapGeneration(storeDir: string, generation: string): void {
  writeFileAtomic(join(storeDir, 'CURRENT'), `${generation}\n`);
  fsyncDirectory(storeDir);
  for (const entry of readdirSync(storeDir)) {
    if (/^gen-\d{6}$/.test(entry) && entry !== generation) rmSync(join(storeDir, entry), { recursive: true, force: true });
  }
}

async function fsyncAll(files: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const handle = await open(files[next++], 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    copyFileSync(from, to);
  }
}
