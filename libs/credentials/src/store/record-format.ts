import { createHmac } from 'node:crypto';

/**
 * One breached pair on disk: 16 bytes, big-endian, so byte order is numeric order.
 *
 *   bytes 0–7   the first 8 bytes of HMAC-SHA256(CREDENTIALS_KEY, normalised username)
 *   bytes 8–15  the first 8 bytes of SHA-256(password)
 *
 * In memory a batch of records is a Uint32Array, four words a record (w0 w1 = username key,
 * w2 w3 = password prefix), each word the big-endian value of its 4 bytes; sorting the words
 * lexicographically sorts the records. Why 64-bit prefixes are exact enough: docs/credentials.md.
 */
export const RECORD_BYTES = 16;
export const RECORD_WORDS = 4;
/** Hex characters of the stored password-hash prefix (8 bytes). */
export const PASSWORD_PREFIX_HEX_LENGTH = 16;
/** Records are split into 2^10 partition files by the top 10 bits of the username key. */
export const PARTITION_BITS = 10;
export const PARTITIONS = 1 << PARTITION_BITS;

/** The username's 8-byte key as two 32-bit words. The username must be normalised already. */
export function usernameKey(key: Buffer, normalisedUsername: string): [number, number] {
  const digest = createHmac('sha256', key).update(normalisedUsername, 'utf8').digest();
  return [digest.readUInt32BE(0), digest.readUInt32BE(4)];
}

/** The first 8 bytes of a lower- or upper-case hex SHA-256, as two words. */
export function passwordPrefixWords(passwordHashHex: string): [number, number] {
  return [Number.parseInt(passwordHashHex.slice(0, 8), 16) >>> 0, Number.parseInt(passwordHashHex.slice(8, 16), 16) >>> 0];
}

export function prefixHex(w2: number, w3: number): string {
  return (w2 >>> 0).toString(16).padStart(8, '0') + (w3 >>> 0).toString(16).padStart(8, '0');
}

export function partitionOf(w0: number): number {
  return w0 >>> (32 - PARTITION_BITS);
}

/** Compares record i of a with record j of b (word arrays). */
export function compareRecords(a: Uint32Array, i: number, b: Uint32Array, j: number): number {
  const ai = i * 4;
  const bj = j * 4;
  for (let w = 0; w < 4; w += 1) {
    const x = a[ai + w];
    const y = b[bj + w];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Sorts `count` records in place by LSD radix sort on 16-bit digits (eight passes, each a
 * counting pass and a scatter), linear in the count: a comparison sort in JavaScript is several
 * times slower at the millions of records a chunk holds. Passes whose digit is the same for
 * every record are skipped.
 */
export function sortRecords(records: Uint32Array, count: number): Uint32Array {
  let source: Uint32Array = records;
  let target: Uint32Array = new Uint32Array(count * 4);
  const histogram = new Uint32Array(65_537);
  for (let pass = 0; pass < 8; pass += 1) {
    const word = 3 - (pass >> 1);
    const shift = (pass & 1) === 0 ? 0 : 16;
    histogram.fill(0);
    for (let i = 0; i < count; i += 1) histogram[((source[i * 4 + word] >>> shift) & 0xffff) + 1] += 1;
    if (histogram[((source[word] >>> shift) & 0xffff) + 1] === count) continue;
    for (let d = 1; d < 65_537; d += 1) histogram[d] += histogram[d - 1];
    for (let i = 0; i < count; i += 1) {
      const base = i * 4;
      const at = histogram[(source[base + word] >>> shift) & 0xffff]++ * 4;
      target[at] = source[base];
      target[at + 1] = source[base + 1];
      target[at + 2] = source[base + 2];
      target[at + 3] = source[base + 3];
    }
    const swap = source;
    source = target;
    target = swap;
  }
  if (source !== records) records.set(source.subarray(0, count * 4));
  return records;
}

/** Removes adjacent duplicates of a sorted array in place; answers the new count. */
export function dedupeSorted(records: Uint32Array, count: number): number {
  if (count === 0) return 0;
  let kept = 1;
  for (let i = 1; i < count; i += 1) {
    if (compareRecords(records, i, records, kept - 1) !== 0) {
      if (kept !== i) records.copyWithin(kept * 4, i * 4, i * 4 + 4);
      kept += 1;
    }
  }
  return kept;
}

/** Records as bytes (big-endian), ready to write. */
export function recordsToBytes(records: Uint32Array, from: number, to: number): Buffer {
  const bytes = Buffer.allocUnsafe((to - from) * RECORD_BYTES);
  for (let i = from, at = 0; i < to; i += 1, at += 16) {
    bytes.writeUInt32BE(records[i * 4], at);
    bytes.writeUInt32BE(records[i * 4 + 1], at + 4);
    bytes.writeUInt32BE(records[i * 4 + 2], at + 8);
    bytes.writeUInt32BE(records[i * 4 + 3], at + 12);
  }
  return bytes;
}

/** Bytes read from a file (big-endian records) as words. */
export function bytesToRecords(bytes: Buffer, count = Math.floor(bytes.length / RECORD_BYTES)): Uint32Array {
  const records = new Uint32Array(count * 4);
  for (let i = 0; i < count * 4; i += 1) records[i] = bytes.readUInt32BE(i * 4);
  return records;
}

/** For each partition p, the first index of a sorted array whose record is in p or later (length PARTITIONS + 1). */
export function partitionBounds(records: Uint32Array, count: number): number[] {
  const bounds = new Array<number>(PARTITIONS + 1).fill(count);
  let p = 0;
  for (let i = 0; i < count; i += 1) {
    const q = partitionOf(records[i * 4]);
    while (p <= q) bounds[p++] = i;
  }
  return bounds;
}
