import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { ImportWorkerPool } from './import-worker-pool';
import { MALFORMED_EXAMPLES, type ParsedBlock } from './parse-block';
import { groupByPartition, recordsToBytes } from './record-format';
import type { ImportOptions, MalformedReason, Manifest } from './store-import';
import { writeFileAtomic } from './store-layout';

/*
 * The reading phase of a corpus import (store-import.ts): a file streamed in blocks, parsed in
 * the worker threads, and written out as runs grouped by partition, the manifest recording each
 * run and the position reached.
 */

const DEFAULT_RUN_RECORDS = 4_000_000;
const DEFAULT_BLOCK_BYTES = 4 * 1024 * 1024;
const GZIP_MAGIC = 0x1f8b;

export async function readFileIntoRuns(
  path: string,
  fileIndex: number,
  state: Manifest,
  workDir: string,
  pool: ImportWorkerPool,
  options: ImportOptions,
  saveManifest: (manifest: Manifest) => void,
  bytesTotal: number,
): Promise<void> {
  const compressed = isGzip(path);
  const reading = new FileIntoRuns({ path, fileIndex, compressed, bytesTotal }, state, { workDir, pool, options, saveManifest });
  const blocks = blocksOf(openInput(path, compressed, state.position.offset), state.position.offset, compressed, options.blockBytes ?? DEFAULT_BLOCK_BYTES);
  for await (const { block, end } of blocks) await reading.dispatch(block, end);
  await reading.finish();
}

/** The file being read into runs, and what its reading shares with the whole import. */
interface FileToRead {
  path: string;
  fileIndex: number;
  compressed: boolean;
  bytesTotal: number;
}

interface RunsContext {
  workDir: string;
  pool: ImportWorkerPool;
  options: ImportOptions;
  saveManifest: (manifest: Manifest) => void;
}

/**
 * One file's blocks, parsed in the worker threads (a few in flight), taken back in order into
 * the manifest's counts, and every `runRecords` records written out as a run with the position
 * reached.
 */
class FileIntoRuns {
  private readonly runRecords: number;
  private readonly maxInFlight: number;
  // Progress counts bytes of the file on disk; for gzip that is only known at the end.
  private readonly bytesBefore: number;
  private lineBase: number;
  private pending: ParsedBlock[] = [];
  private pendingRecords = 0;
  private pendingEnd: { offset: number; line: number };
  private readonly inFlight: { parsed: Promise<ParsedBlock>; end: number }[] = [];

  constructor(
    private readonly file: FileToRead,
    private readonly state: Manifest,
    private readonly context: RunsContext,
  ) {
    this.runRecords = context.options.runRecords ?? DEFAULT_RUN_RECORDS;
    this.maxInFlight = Math.max(2, context.pool.threads * 2);
    this.bytesBefore = state.bytesDone;
    this.lineBase = state.position.line;
    this.pendingEnd = { offset: state.position.offset, line: state.position.line };
  }

  async dispatch(block: Buffer, end: number): Promise<void> {
    this.inFlight.push({ parsed: this.context.pool.parse(block), end });
    while (this.inFlight.length >= this.maxInFlight) await this.take();
  }

  async finish(): Promise<void> {
    while (this.inFlight.length > 0) await this.take();
    this.flushRun();
    this.state.bytesDone = this.bytesBefore + statSync(this.file.path).size;
  }

  private async take(): Promise<void> {
    const { state, file } = this;
    const next = this.inFlight.shift();
    if (!next) return;
    const parsed = await next.parsed;
    state.lines += parsed.lines;
    state.pairs += parsed.count;
    for (const reason of Object.keys(parsed.malformed) as MalformedReason[]) state.malformed[reason] += parsed.malformed[reason];
    for (const relative of parsed.malformedLines) {
      if (state.malformedLines.length < MALFORMED_EXAMPLES) state.malformedLines.push({ file: file.path, line: this.lineBase + relative });
    }
    this.lineBase += parsed.lines;
    this.pending.push(parsed);
    this.pendingRecords += parsed.count;
    this.pendingEnd = { offset: next.end, line: this.lineBase };
    this.context.options.onProgress?.({ phase: 'reading', bytesRead: this.bytesBefore + (file.compressed ? 0 : next.end), bytesTotal: file.bytesTotal, lines: state.lines, partitionsMerged: 0 });
    if (this.pendingRecords >= this.runRecords) this.flushRun();
  }

  private flushRun(): void {
    const { state, file, pendingRecords } = this;
    if (this.pending.length === 0) return;
    const records = new Uint32Array(pendingRecords * 4);
    let at = 0;
    for (const block of this.pending) {
      records.set(block.records.subarray(0, block.count * 4), at);
      at += block.count * 4;
    }
    // Grouped by partition only: the merge sorts each partition with the generation's records anyway.
    const run = groupByPartition(records, pendingRecords);
    const name = `run-${String(state.runs.length).padStart(6, '0')}.bin`;
    writeFileAtomic(join(this.context.workDir, name), recordsToBytes(run.records, 0, pendingRecords));
    state.runs.push({ name, count: pendingRecords, bounds: run.bounds });
    state.position = { file: file.fileIndex, offset: this.pendingEnd.offset, line: this.pendingEnd.line };
    state.bytesDone = this.bytesBefore + (file.compressed ? 0 : this.pendingEnd.offset);
    this.context.saveManifest(state);
    this.context.options.afterRun?.(state.runs.length - 1);
    this.pending = [];
    this.pendingRecords = 0;
  }
}

/**
 * The input from `startOffset` (a gzip stream is decompressed from its start and skipped up to
 * it) in blocks of about `blockBytes`, each cut after a newline (a longer line makes a longer
 * block), the last one whole lines too; with each block, its end in the uncompressed stream.
 */
async function* blocksOf(stream: Readable, startOffset: number, compressed: boolean, blockBytes: number): AsyncIterable<{ block: Buffer; end: number }> {
  let carry: Buffer[] = [];
  let carryBytes = 0;
  // Position (in the uncompressed stream) of the first byte of `carry`.
  let offset = startOffset;
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
      let cut = joined.lastIndexOf(0x0a, start + blockBytes - 1) + 1;
      if (cut <= start) cut = joined.indexOf(0x0a, start + blockBytes) + 1;
      if (cut <= start) break;
      yield { block: ownedCopy(joined, start, cut), end: offset + cut };
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
    yield { block: ownedCopy(tail, 0, tail.length), end: offset + carryBytes };
  }
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
