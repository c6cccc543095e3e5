import { closeSync, copyFileSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { buildPartitionIndex, parsePartitionIndex, serialisePartitionIndex } from './partition-index';
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

/** A sorted, de-duplicated set of records to merge in, read one partition at a time. */
export interface RunSource {
  /** The records of one partition, sorted (four words a record). */
  partition(partition: number): Uint32Array;
}

/** A run held in memory (a small admin batch, the one-time conversion). */
export function memoryRun(records: Uint32Array, count: number, bounds: number[]): RunSource {
  return { partition: (p) => records.subarray(bounds[p] * 4, bounds[p + 1] * 4) };
}

/** A run file written by an import (sorted records; `bounds` from `partitionBounds`). */
export function fileRun(file: string, bounds: number[]): RunSource {
  return {
    partition: (p) => {
      const count = bounds[p + 1] - bounds[p];
      if (count === 0) return new Uint32Array(0);
      const bytes = Buffer.allocUnsafe(count * RECORD_BYTES);
      const fd = openSync(file, 'r');
      try {
        const read = readSync(fd, bytes, 0, bytes.length, bounds[p] * RECORD_BYTES);
        if (read !== bytes.length) throw new Error(`${file}: short read`);
      } finally {
        closeSync(fd);
      }
      return bytesToRecords(bytes, count);
    },
  };
}

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

export interface MergeHooks {
  /** Called after each partition is written; a test throws here to simulate a crash. */
  afterPartition?: (partition: number) => void;
}

/**
 * Writes generation `plan.target`: each partition is the base generation's partition merged with
 * the runs' records of that partition, sorted and de-duplicated (so importing a pair twice
 * changes nothing). A partition no run touches is hard-linked from the base, not copied; an empty
 * one has no files. The `merged` file notes how far the merge got, so a merge stopped half-way
 * (kill -9) resumes there. Nothing is visible to checks until `swapGeneration`.
 */
export async function mergeGeneration(storeDir: string, key: Buffer, plan: MergePlan, runs: RunSource[], hooks: MergeHooks = {}): Promise<MergeResult> {
  const targetDir = join(storeDir, plan.target);
  const baseDir = plan.base ? join(storeDir, plan.base) : undefined;
  mkdirSync(targetDir, { recursive: true });
  // Partitions below `done` are finished (written, linked, or empty: an empty partition has no
  // files at all, so a first small import does not create 2,048 of them).
  const progressFile = join(targetDir, 'merged');
  let done = existsSync(progressFile) ? Number(readFileSync(progressFile, 'utf8')) || 0 : 0;
  let pairs = 0;
  let usernames = 0;
  for (let p = 0; p < PARTITIONS; p += 1) {
    const recordFile = join(targetDir, partitionFileName(p, 'rec'));
    const indexFile = join(targetDir, partitionFileName(p, 'idx'));
    if (p >= done) {
      const pieces = runs.map((run) => run.partition(p)).filter((piece) => piece.length > 0);
      const baseRecordFile = baseDir ? join(baseDir, partitionFileName(p, 'rec')) : undefined;
      const baseExists = baseRecordFile !== undefined && existsSync(baseRecordFile);
      let wrote = false;
      if (pieces.length === 0) {
        if (baseExists) {
          linkOrCopy(baseRecordFile, recordFile);
          linkOrCopy(join(baseDir as string, partitionFileName(p, 'idx')), indexFile);
        }
      } else {
        const old = baseExists ? bytesToRecords(readFileSync(baseRecordFile)) : new Uint32Array(0);
        const total = pieces.reduce((sum, piece) => sum + piece.length, old.length);
        const records = new Uint32Array(total);
        records.set(old, 0);
        let at = old.length;
        for (const piece of pieces) {
          records.set(piece, at);
          at += piece.length;
        }
        const count = dedupeSorted(sortRecords(records, total / 4), total / 4);
        // fsync comes once for all files, in parallel, before meta.json (see below).
        writeFileAtomic(recordFile, recordsToBytes(records, 0, count), false);
        writeFileAtomic(indexFile, serialisePartitionIndex(buildPartitionIndex(records, count)), false);
        wrote = true;
      }
      hooks.afterPartition?.(p);
      // Progress is noted after each written partition and every 64 others (redoing a few
      // links or empty partitions after a crash costs nothing).
      if (wrote || p % 64 === 63) {
        done = p + 1;
        writeFileAtomic(progressFile, String(done), false);
      }
    }
    if (existsSync(indexFile)) {
      const index = parsePartitionIndex(readFileSync(indexFile), indexFile);
      pairs += index.records;
      usernames += index.usernames;
    }
  }
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
