import { hash } from 'node:crypto';
import { MAX_IMPORT_USERNAME_LENGTH } from '../breach-line';

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

/**
 * Turns a block of whole corpus lines into records, with the exact rules of `parseBreachLine`
 * (split at the first `:`, username trimmed and lower-cased and at most 256 characters, a value
 * of 64 hex characters taken as the hash, anything else hashed as the plaintext password). The
 * plaintext never leaves this function: only the 8-byte prefixes do. Runs in the import's worker
 * threads and, for small imports, in the caller's thread; breach-line parity is a unit test.
 */
export function parseBlock(block: Buffer, key: Buffer): ParsedBlock {
  const hmac = new UsernameHmac(key);
  const text = block.toString('utf8');
  const lines = text.split('\n');
  // A block ends with a newline, so split leaves one empty string after it.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const records = new Uint32Array(lines.length * 4);
  const malformed = { 'no-separator': 0, 'empty-username': 0, 'empty-password': 0, 'username-too-long': 0 };
  const malformedLines: number[] = [];
  let count = 0;
  const skip = (reason: keyof typeof malformed, index: number) => {
    malformed[reason] += 1;
    if (malformedLines.length < MALFORMED_EXAMPLES) malformedLines.push(index + 1);
  };
  for (let index = 0; index < lines.length; index += 1) {
    let line = lines[index];
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const separator = line.indexOf(':');
    if (separator < 0) {
      skip('no-separator', index);
      continue;
    }
    const username = line.slice(0, separator).trim().toLowerCase();
    const password = line.slice(separator + 1);
    if (username === '') {
      skip('empty-username', index);
      continue;
    }
    if (username.length > MAX_IMPORT_USERNAME_LENGTH) {
      skip('username-too-long', index);
      continue;
    }
    if (password === '') {
      skip('empty-password', index);
      continue;
    }
    const userKey = hmac.digest(username);
    const at = count * 4;
    records[at] = userKey.readUInt32BE(0);
    records[at + 1] = userKey.readUInt32BE(4);
    if (password.length === 64 && HEX64.test(password)) {
      records[at + 2] = Number.parseInt(password.slice(0, 8), 16) >>> 0;
      records[at + 3] = Number.parseInt(password.slice(8, 16), 16) >>> 0;
    } else {
      const digest = hash('sha256', password, 'buffer');
      records[at + 2] = digest.readUInt32BE(0);
      records[at + 3] = digest.readUInt32BE(4);
    }
    count += 1;
  }
  return { records, count, lines: lines.length, malformed, malformedLines };
}

const HEX64 = /^[0-9a-fA-F]{64}$/;
const BLOCK = 64;

/**
 * HMAC-SHA256 (RFC 2104) as two one-shot `crypto.hash` calls over reused buffers: the same
 * digest as `createHmac`, without creating two hash objects a line (a quarter of the import's
 * time). Equality with createHmac is a unit test.
 */
export class UsernameHmac {
  private inner = Buffer.alloc(BLOCK + 1024);
  private readonly outer = Buffer.alloc(BLOCK + 32);

  constructor(key: Buffer) {
    const block = Buffer.alloc(BLOCK);
    (key.length > BLOCK ? hash('sha256', key, 'buffer') : key).copy(block);
    for (let i = 0; i < BLOCK; i += 1) {
      this.inner[i] = block[i] ^ 0x36;
      this.outer[i] = block[i] ^ 0x5c;
    }
  }

  digest(text: string): Buffer {
    const needed = BLOCK + Buffer.byteLength(text, 'utf8');
    if (needed > this.inner.length) {
      const grown = Buffer.alloc(needed * 2);
      this.inner.copy(grown, 0, 0, BLOCK);
      this.inner = grown;
    }
    const length = this.inner.write(text, BLOCK, 'utf8');
    hash('sha256', this.inner.subarray(0, BLOCK + length), 'buffer').copy(this.outer, BLOCK);
    return hash('sha256', this.outer, 'buffer');
  }
}
