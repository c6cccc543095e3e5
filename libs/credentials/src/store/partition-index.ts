import { closeSync, openSync, readSync } from 'node:fs';
import { XorFilter } from './xor-filter';

/** A fence entry (the username key of one record) every 256 records: one 4 KiB page. */
export const FENCE_EVERY = 256;
const MAGIC = 0x52464349; // "RFCI"
const VERSION = 1;
const HEADER_BYTES = 32;

/**
 * What is kept in memory for one partition file: its record count, the fence (the username key
 * of every 256th record, to find the page a key is on with one binary search) and the xor filter
 * over its distinct username keys. Written beside the records as `p-XXX.idx`, so a start reads
 * it instead of scanning the records.
 */
export interface PartitionIndex {
  records: number;
  usernames: number;
  /** Two words per fence entry. */
  fence: Uint32Array;
  filter: XorFilter | undefined;
}

/** Builds the index of a sorted, de-duplicated partition. */
export function buildPartitionIndex(records: Uint32Array, count: number): PartitionIndex {
  const fenceCount = Math.ceil(count / FENCE_EVERY);
  const fence = new Uint32Array(fenceCount * 2);
  for (let k = 0; k < fenceCount; k += 1) {
    fence[k * 2] = records[k * FENCE_EVERY * 4];
    fence[k * 2 + 1] = records[k * FENCE_EVERY * 4 + 1];
  }
  const hi = new Uint32Array(count);
  const lo = new Uint32Array(count);
  let usernames = 0;
  for (let i = 0; i < count; i += 1) {
    const w0 = records[i * 4];
    const w1 = records[i * 4 + 1];
    if (usernames > 0 && hi[usernames - 1] === w0 && lo[usernames - 1] === w1) continue;
    hi[usernames] = w0;
    lo[usernames] = w1;
    usernames += 1;
  }
  const filter = usernames > 0 ? XorFilter.build(hi, lo, usernames) : undefined;
  return { records: count, usernames, fence, filter };
}

export function serialisePartitionIndex(index: PartitionIndex): Buffer {
  const fenceBytes = index.fence.length * 4;
  const filterBytes = index.filter?.byteLength ?? 0;
  const out = Buffer.alloc(HEADER_BYTES + fenceBytes + filterBytes);
  out.writeUInt32BE(MAGIC, 0);
  out.writeUInt32BE(VERSION, 4);
  out.writeUInt32BE(index.records, 8);
  out.writeUInt32BE(index.usernames, 12);
  out.writeUInt32BE(index.fence.length / 2, 16);
  out.writeUInt32BE(index.filter?.seed ?? 0, 20);
  out.writeUInt32BE(index.filter?.blockLength ?? 0, 24);
  for (let i = 0; i < index.fence.length; i += 1) out.writeUInt32BE(index.fence[i], HEADER_BYTES + i * 4);
  if (index.filter) out.set(index.filter.fingerprints, HEADER_BYTES + fenceBytes);
  return out;
}

/** An index file's record and username counts, from its header alone. */
export function readPartitionCounts(file: string): { records: number; usernames: number } {
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  checkHeader(header, file);
  return { records: header.readUInt32BE(8), usernames: header.readUInt32BE(12) };
}

function checkHeader(bytes: Buffer, file: string): void {
  if (bytes.length < HEADER_BYTES || bytes.readUInt32BE(0) !== MAGIC || bytes.readUInt32BE(4) !== VERSION) {
    throw new Error(`${file} is not a breached-credentials index (version ${VERSION})`);
  }
}

export function parsePartitionIndex(bytes: Buffer, file: string): PartitionIndex {
  checkHeader(bytes, file);
  const records = bytes.readUInt32BE(8);
  const usernames = bytes.readUInt32BE(12);
  const fenceCount = bytes.readUInt32BE(16);
  const seed = bytes.readUInt32BE(20);
  const blockLength = bytes.readUInt32BE(24);
  const fence = new Uint32Array(fenceCount * 2);
  for (let i = 0; i < fence.length; i += 1) fence[i] = bytes.readUInt32BE(HEADER_BYTES + i * 4);
  const filterAt = HEADER_BYTES + fence.length * 4;
  if (bytes.length !== filterAt + blockLength * 3) throw new Error(`${file} is truncated`);
  // A copy, so the file's buffer can be released.
  const filter = blockLength > 0 ? XorFilter.fromParts(seed, blockLength, Uint8Array.prototype.slice.call(bytes, filterAt)) : undefined;
  return { records, usernames, fence, filter };
}
