import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The store's directory (DATA_DIR/credentials):
 *
 *   CURRENT               the name of the generation checks read ("gen-000003")
 *   gen-000003/p-XXX.rec  the sorted 16-byte records of partition XXX (hex, 000–3ff)
 *   gen-000003/p-XXX.idx  its fence and xor filter (partition-index.ts)
 *   gen-000003/meta.json  counts and the key check
 *   import/               an import in progress: manifest.json and run files (records grouped by partition)
 *   lock                  the pid of the process importing
 *
 * A generation is never changed once CURRENT names it: an import writes the next one beside it
 * and renames CURRENT over, so checks read the old generation until that rename.
 */
export const STORE_DIR_NAME = 'credentials';
export const KEY_FILE_NAME = 'credentials-key';
export const MIN_KEY_LENGTH = 32;

export interface GenerationMeta {
  format: 1;
  partitionBits: number;
  /** Tells a store written with another CREDENTIALS_KEY apart (a wrong key would find nothing). */
  keyCheck: string;
  pairs: number;
  usernames: number;
  createdAt: string;
}

export function storeDirOf(dataDir: string): string {
  return join(dataDir, STORE_DIR_NAME);
}

export function generationName(n: number): string {
  return `gen-${String(n).padStart(6, '0')}`;
}

export function generationNumber(name: string): number {
  const match = /^gen-(\d{6})$/.exec(name);
  if (!match) throw new Error(`not a generation name: ${name}`);
  return Number(match[1]);
}

export function partitionFileName(partition: number, extension: 'rec' | 'idx'): string {
  return `p-${partition.toString(16).padStart(3, '0')}.${extension}`;
}

export function keyCheckOf(key: Buffer): string {
  return createHmac('sha256', key).update('ringfence breached-credentials key check').digest('hex').slice(0, 16);
}

/** The generation CURRENT names, or undefined for a store with nothing imported yet. */
export function readCurrent(storeDir: string): string | undefined {
  try {
    const name = readFileSync(join(storeDir, 'CURRENT'), 'utf8').trim();
    return name === '' ? undefined : name;
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes a file atomically (a temporary file, then rename) and, unless `sync` is false, durably
 * (fsync before the rename). Surviving kill -9 needs only the rename; fsync is for power loss.
 */
export function writeFileAtomic(file: string, content: string | Buffer, sync = true): void {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, content);
  if (!sync) {
    renameSync(temporary, file);
    return;
  }
  const fd = openSync(temporary, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The HMAC key for usernames (ADR-0003 `CREDENTIALS_KEY`): the variable when set (at least
 * 32 characters); otherwise DATA_DIR/credentials-key, generated on first start with mode 0600
 * like the bootstrap key. Losing it makes the store unreadable (a check would find nothing), so
 * the store remembers a check value of its key and refuses another one.
 */
export function loadCredentialsKey(dataDir: string, fromEnvironment: string | undefined): Buffer {
  if (fromEnvironment !== undefined && fromEnvironment !== '') {
    if (fromEnvironment.length < MIN_KEY_LENGTH) throw new Error(`CREDENTIALS_KEY must be at least ${MIN_KEY_LENGTH} characters`);
    return Buffer.from(fromEnvironment, 'utf8');
  }
  const file = join(dataDir, KEY_FILE_NAME);
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const generated = randomBytes(32).toString('hex');
  try {
    // wx: two processes starting at once must not each write their own key.
    writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
}
