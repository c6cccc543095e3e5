import { createHmac } from 'node:crypto';
import { endianness } from 'node:os';

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
 * Sorts `count` records in place: an LSD radix sort (each pass a counting pass and a scatter,
 * linear in the count: a comparison sort in JavaScript is several times slower at the millions
 * of records a run holds) on the username key (words 0–1) alone, then one insertion pass that
 * orders each username's few passwords (words 2–3): half the passes of sorting all four words,
 * and the array is sorted but for those short groups. Digits are 16 bits for large arrays and 8
 * for small ones (a partition of a few thousand records would otherwise spend its time clearing
 * 65,536 counters a pass). Passes whose digit is the same for every record are skipped (within a
 * partition, the top bits of word 0 are).
 */
export function sortRecords(records: Uint32Array, count: number): Uint32Array {
  const digitBits = count >= SIXTEEN_BIT_DIGITS_FROM ? 16 : 8;
  const digitsPerWord = 32 / digitBits;
  const mask = (1 << digitBits) - 1;
  let source: Uint32Array = records;
  let target: Uint32Array = new Uint32Array(count * 4);
  const histogram = new Uint32Array(mask + 2);
  for (let pass = 0; pass < 2 * digitsPerWord; pass += 1) {
    const word = 1 - Math.floor(pass / digitsPerWord);
    const shift = (pass % digitsPerWord) * digitBits;
    histogram.fill(0);
    for (let i = 0; i < count; i += 1) histogram[((source[i * 4 + word] >>> shift) & mask) + 1] += 1;
    if (histogram[((source[word] >>> shift) & mask) + 1] === count) continue;
    for (let d = 1; d <= mask + 1; d += 1) histogram[d] += histogram[d - 1];
    for (let i = 0; i < count; i += 1) {
      const base = i * 4;
      const at = histogram[(source[base + word] >>> shift) & mask]++ * 4;
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
  orderWithinUsernames(records, count);
  return records;
}

/** Below this many records 8-bit digits (256 counters a pass) beat 16-bit ones (65,536). */
const SIXTEEN_BIT_DIGITS_FROM = 200_000;

/** Insertion sort of records sorted by words 0–1: only records with the same username key move. */
function orderWithinUsernames(records: Uint32Array, count: number): void {
  for (let i = 1; i < count; i += 1) {
    const w0 = records[i * 4];
    const w1 = records[i * 4 + 1];
    const w2 = records[i * 4 + 2];
    const w3 = records[i * 4 + 3];
    let j = i - 1;
    while (j >= 0 && records[j * 4] === w0 && records[j * 4 + 1] === w1 && (records[j * 4 + 2] > w2 || (records[j * 4 + 2] === w2 && records[j * 4 + 3] > w3))) {
      records.copyWithin((j + 1) * 4, j * 4, j * 4 + 4);
      j -= 1;
    }
    if (j !== i - 1) records.set([w0, w1, w2, w3], (j + 1) * 4);
  }
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

/** Words are kept in the machine's order; on disk they are big-endian. */
const LITTLE_ENDIAN = endianness() === 'LE';

/** Records as bytes (big-endian), ready to write: one copy and, on little-endian machines, one native byte swap. */
export function recordsToBytes(records: Uint32Array, from: number, to: number): Buffer {
  const bytes = Buffer.from(records.buffer, records.byteOffset + from * RECORD_BYTES, (to - from) * RECORD_BYTES);
  const copy = Buffer.allocUnsafe(bytes.length);
  bytes.copy(copy);
  return LITTLE_ENDIAN ? copy.swap32() : copy;
}

/** Bytes read from a file (big-endian records) as words; the bytes are swapped in place. */
export function bytesToRecords(bytes: Buffer, count = Math.floor(bytes.length / RECORD_BYTES)): Uint32Array {
  const owned = bytes.byteOffset % 4 === 0 ? bytes.subarray(0, count * RECORD_BYTES) : Buffer.from(bytes.subarray(0, count * RECORD_BYTES));
  if (LITTLE_ENDIAN) owned.swap32();
  return new Uint32Array(owned.buffer, owned.byteOffset, count * 4);
}

/**
 * Groups records by partition (a counting sort on the top bits, two passes), leaving them in any
 * order within it: what an import's run needs, since the merge sorts each partition anyway.
 * Answers the grouped copy and, for each partition p, the index of its first record.
 */
export function groupByPartition(records: Uint32Array, count: number): { records: Uint32Array; bounds: number[] } {
  const starts = new Uint32Array(PARTITIONS + 1);
  for (let i = 0; i < count; i += 1) starts[partitionOf(records[i * 4]) + 1] += 1;
  for (let p = 1; p <= PARTITIONS; p += 1) starts[p] += starts[p - 1];
  const bounds = Array.from(starts);
  const grouped = new Uint32Array(count * 4);
  for (let i = 0; i < count; i += 1) {
    const base = i * 4;
    const at = starts[partitionOf(records[base])]++ * 4;
    grouped[at] = records[base];
    grouped[at + 1] = records[base + 1];
    grouped[at + 2] = records[base + 2];
    grouped[at + 3] = records[base + 3];
  }
  return { records: grouped, bounds };
}
