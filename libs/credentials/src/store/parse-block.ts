import { MAX_IMPORT_USERNAME_LENGTH } from '../breach-line';
import { normaliseUsername } from '../username';
import { SHA256_INITIAL_STATE, Sha256Hmac, Sha256Kernel } from './sha256-kernel';

/** How many malformed line numbers an import reports (per reason). */
export const MALFORMED_EXAMPLES = 5;

export interface ParsedBlock {
  /** Four words a record (record-format.ts), unsorted. */
  records: Uint32Array;
  count: number;
  lines: number;
  malformed: Record<'no-separator' | 'empty-username' | 'empty-password' | 'username-too-long', number>;
  /** 1-based line numbers within the block of the first few malformed lines. */
  malformedLines: number[];
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const COLON = 0x3a;
const HEX_LENGTH = 64;

/**
 * Turns blocks of whole corpus lines into records, with the exact rules of `parseBreachLine`
 * (split at the first `:`, username trimmed and lower-cased and at most 256 characters, a value
 * of 64 hex characters taken as the hash, anything else hashed as the plaintext password). The
 * plaintext never leaves this class: only the 8-byte prefixes do. Runs in the import's worker
 * threads and, for small imports, in the caller's thread; breach-line parity is a unit test.
 *
 * It reads the block's bytes, not strings: an ASCII username is trimmed and lower-cased byte by
 * byte into a scratch buffer and hashed from there (a line with other bytes goes through
 * `normaliseUsername`, whose Unicode rules bytes cannot follow), so a line costs three SHA-256
 * compressions and no allocation.
 */
export class BlockParser {
  private readonly kernel = new Sha256Kernel();
  private readonly hmac: Sha256Hmac;
  private scratch = Buffer.alloc(1024);

  constructor(key: Uint8Array) {
    this.hmac = new Sha256Hmac(key, this.kernel);
  }

  parse(block: Buffer): ParsedBlock {
    const records = new Uint32Array(countLines(block) * 4);
    const malformed = { 'no-separator': 0, 'empty-username': 0, 'empty-password': 0, 'username-too-long': 0 };
    const malformedLines: number[] = [];
    const skip = (reason: keyof typeof malformed, line: number) => {
      malformed[reason] += 1;
      if (malformedLines.length < MALFORMED_EXAMPLES) malformedLines.push(line);
    };
    let count = 0;
    let lines = 0;
    for (let lineStart = 0; lineStart < block.length; ) {
      // One pass over the line: its first colon, its end, and whether it is all ASCII.
      let separator = -1;
      let nonAscii = 0;
      let newline = lineStart;
      for (; newline < block.length; newline += 1) {
        const byte = block[newline];
        if (byte === NEWLINE) break;
        if (byte === COLON && separator < 0) separator = newline;
        nonAscii |= byte & 0x80;
      }
      const lineEnd = newline > lineStart && block[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
      const from = lineStart;
      lineStart = newline + 1;
      lines += 1;
      if (separator < 0 || separator >= lineEnd) {
        skip('no-separator', lines);
        continue;
      }
      const usernameLength = nonAscii === 0 ? this.asciiUsername(block, from, separator) : this.unicodeUsername(block, from, separator);
      if (usernameLength === 0) {
        skip('empty-username', lines);
        continue;
      }
      if (usernameLength < 0) {
        skip('username-too-long', lines);
        continue;
      }
      if (separator + 1 === lineEnd) {
        skip('empty-password', lines);
        continue;
      }
      const key = this.hmac.digest(this.scratch, 0, usernameLength);
      const record = count * 4;
      records[record] = key[0];
      records[record + 1] = key[1];
      if (!this.passwordHashPrefix(block, separator + 1, lineEnd, nonAscii !== 0, records, record + 2)) {
        const digest = this.plaintextDigest(block, separator + 1, lineEnd, nonAscii !== 0);
        records[record + 2] = digest[0];
        records[record + 3] = digest[1];
      }
      count += 1;
    }
    return { records, count, lines, malformed, malformedLines };
  }

  /** Writes the trimmed, lower-cased username into the scratch; answers its length, or -1 when too long. */
  private asciiUsername(block: Buffer, from: number, to: number): number {
    let first = from;
    let last = to;
    while (first < last && isAsciiSpace(block[first])) first += 1;
    while (last > first && isAsciiSpace(block[last - 1])) last -= 1;
    const length = last - first;
    if (length > MAX_IMPORT_USERNAME_LENGTH) return -1;
    for (let i = 0; i < length; i += 1) {
      const byte = block[first + i];
      this.scratch[i] = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
    }
    return length;
  }

  /** The same for a line with other bytes, by `normaliseUsername` (the length limit is in UTF-16 units, as there). */
  private unicodeUsername(block: Buffer, from: number, to: number): number {
    const username = normaliseUsername(block.toString('utf8', from, to));
    if (username.length > MAX_IMPORT_USERNAME_LENGTH) return -1;
    return this.writeScratch(username);
  }

  /** A 64-hex-character value is a hash already: its first 8 bytes go into `records[at, at + 2)`. */
  private passwordHashPrefix(block: Buffer, from: number, to: number, nonAscii: boolean, records: Uint32Array, at: number): boolean {
    if (nonAscii || to - from !== HEX_LENGTH) return false;
    let invalid = 0;
    for (let i = from; i < to; i += 1) invalid |= HEX_VALUES[block[i]];
    if (invalid < 0) return false;
    let high = 0;
    let low = 0;
    for (let i = 0; i < 8; i += 1) {
      high = (high << 4) | HEX_VALUES[block[from + i]];
      low = (low << 4) | HEX_VALUES[block[from + 8 + i]];
    }
    records[at] = high;
    records[at + 1] = low;
    return true;
  }

  /**
   * SHA-256 of a plaintext password. Bytes that are not all ASCII go through a string first, as
   * `parseBreachLine` does (invalid UTF-8 becomes U+FFFD there, so it must here too).
   */
  private plaintextDigest(block: Buffer, from: number, to: number, nonAscii: boolean): Int32Array {
    if (!nonAscii) return this.kernel.digest(SHA256_INITIAL_STATE, 0, block, from, to);
    const length = this.writeScratch(block.toString('utf8', from, to));
    return this.kernel.digest(SHA256_INITIAL_STATE, 0, this.scratch, 0, length);
  }

  private writeScratch(text: string): number {
    const needed = Buffer.byteLength(text, 'utf8');
    if (needed > this.scratch.length) this.scratch = Buffer.alloc(needed * 2);
    return this.scratch.write(text, 0, 'utf8');
  }
}

/** Lines in a block: its newlines, plus a last line without one. */
function countLines(block: Buffer): number {
  let lines = 0;
  for (let at = block.indexOf(NEWLINE); at >= 0; at = block.indexOf(NEWLINE, at + 1)) lines += 1;
  return block.length > 0 && block[block.length - 1] !== NEWLINE ? lines + 1 : lines;
}

/** The ASCII characters String.prototype.trim removes: tab, line feed, vertical tab, form feed, carriage return, space. */
function isAsciiSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

/** Each byte's value as a hex digit (either case), or -1. */
const HEX_VALUES = new Int8Array(256).fill(-1);
for (const [digits, first] of [['0123456789', 0], ['abcdef', 10], ['ABCDEF', 10]] as const) {
  for (let i = 0; i < digits.length; i += 1) HEX_VALUES[digits.charCodeAt(i)] = first + i;
}
