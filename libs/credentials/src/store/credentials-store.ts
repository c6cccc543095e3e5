import { existsSync, readFileSync, unwatchFile, watchFile } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { FENCE_EVERY, type PartitionIndex, parsePartitionIndex } from './partition-index';
import { PARTITION_BITS, PARTITIONS, RECORD_BYTES, partitionOf, prefixHex, usernameKey } from './record-format';
import { type GenerationMeta, keyCheckOf, partitionFileName, readCurrent } from './store-layout';

/** Records read at once: one fence page (4 KiB). */
const PAGE_RECORDS = FENCE_EVERY;
/** How long an old generation's files stay open after a swap, for reads already under way. */
const RETIRE_AFTER_MS = 30_000;

interface Generation {
  name: string;
  meta: GenerationMeta;
  indexes: PartitionIndex[];
  files: (FileHandle | undefined)[];
}

export interface StoreStats {
  generation: string | undefined;
  pairs: number;
  usernames: number;
}

/**
 * Reads the breached-credentials store (store-layout.ts): in memory only each partition's xor
 * filter and fence; the records stay on disk and are read with positional reads of one 4 KiB
 * page (the OS page cache keeps the hot ones). A lookup of a username not in the store usually
 * ends at the filter (255 in 256), without a read.
 *
 * The generation in use is swapped by `reload()` (after an import, or when CURRENT changes on
 * disk: the CLI imports from another process) without a pause: a lookup holds the generation it
 * started with, and the old files are closed later.
 */
export class CredentialsStore {
  private generation: Generation | undefined;
  private reloading: Promise<void> | undefined;
  private watching = false;

  private constructor(
    readonly storeDir: string,
    private readonly key: Buffer,
  ) {}

  static async open(storeDir: string, key: Buffer): Promise<CredentialsStore> {
    const store = new CredentialsStore(storeDir, key);
    await store.reload();
    return store;
  }

  get stats(): StoreStats {
    const generation = this.generation;
    return { generation: generation?.name, pairs: generation?.meta.pairs ?? 0, usernames: generation?.meta.usernames ?? 0 };
  }

  /** Follows CURRENT: a generation written by another process (the CLI) is picked up within `intervalMs`. */
  watch(intervalMs = 1_000): void {
    if (this.watching) return;
    this.watching = true;
    watchFile(join(this.storeDir, 'CURRENT'), { interval: intervalMs, persistent: false }, () => {
      void this.reload().catch(() => undefined);
    });
  }

  /** Opens the generation CURRENT names, if it is not the one in use. */
  reload(): Promise<void> {
    // One reload at a time; a second caller waits for it and then checks again.
    const next = (this.reloading ?? Promise.resolve()).then(() => this.reloadNow());
    this.reloading = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    if (this.watching) unwatchFile(join(this.storeDir, 'CURRENT'));
    this.watching = false;
    const generation = this.generation;
    this.generation = undefined;
    if (generation) await closeGeneration(generation);
  }

  /**
   * The distinct password-hash prefixes (16 hex characters) stored for a normalised username;
   * empty when the username is not in the store.
   */
  async passwordPrefixesOf(normalisedUsername: string): Promise<string[]> {
    const [w0, w1] = usernameKey(this.key, normalisedUsername);
    return this.prefixesOfKey(w0, w1);
  }

  async prefixesOfKey(w0: number, w1: number): Promise<string[]> {
    const generation = this.generation;
    if (!generation) return [];
    const partition = partitionOf(w0);
    const index = generation.indexes[partition];
    if (index.records === 0 || !index.filter?.mightContain(w0, w1)) return [];
    const file = generation.files[partition];
    if (!file) return [];
    // The last fence entry strictly below the key: the username's first record is on its page
    // or a later one (its records may begin at the end of the page before the one it fences).
    const fence = index.fence;
    let low = 0;
    let high = fence.length / 2 - 1;
    let page = 0;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const f0 = fence[mid * 2];
      const f1 = fence[mid * 2 + 1];
      if (f0 < w0 || (f0 === w0 && f1 < w1)) {
        page = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    const prefixes: string[] = [];
    const buffer = Buffer.allocUnsafe(PAGE_RECORDS * RECORD_BYTES);
    for (let first = page * PAGE_RECORDS; first < index.records; first += PAGE_RECORDS) {
      const count = Math.min(PAGE_RECORDS, index.records - first);
      const { bytesRead } = await file.read(buffer, 0, count * RECORD_BYTES, first * RECORD_BYTES);
      if (bytesRead !== count * RECORD_BYTES) throw new Error(`breached-credentials store: short read in ${generation.name}`);
      for (let i = 0; i < count; i += 1) {
        const r0 = buffer.readUInt32BE(i * 16);
        const r1 = buffer.readUInt32BE(i * 16 + 4);
        if (r0 < w0 || (r0 === w0 && r1 < w1)) continue;
        if (r0 !== w0 || r1 !== w1) return prefixes;
        prefixes.push(prefixHex(buffer.readUInt32BE(i * 16 + 8), buffer.readUInt32BE(i * 16 + 12)));
      }
    }
    return prefixes;
  }

  private async reloadNow(): Promise<void> {
    const name = readCurrent(this.storeDir);
    if (name === undefined || name === this.generation?.name) return;
    const next = await openGeneration(this.storeDir, name, this.key);
    const previous = this.generation;
    this.generation = next;
    if (previous) setTimeout(() => void closeGeneration(previous), RETIRE_AFTER_MS).unref();
  }
}

const EMPTY_PARTITION: PartitionIndex = { records: 0, usernames: 0, fence: new Uint32Array(0), filter: undefined };

async function openGeneration(storeDir: string, name: string, key: Buffer): Promise<Generation> {
  const dir = join(storeDir, name);
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as GenerationMeta;
  if (meta.format !== 1 || meta.partitionBits !== PARTITION_BITS) throw new Error(`${dir}: unsupported store format`);
  if (meta.keyCheck !== keyCheckOf(key)) {
    throw new Error(`${dir} was written with another CREDENTIALS_KEY: set the key it was imported with (or import the corpus again)`);
  }
  const indexes: PartitionIndex[] = [];
  const files: (FileHandle | undefined)[] = [];
  try {
    for (let partition = 0; partition < PARTITIONS; partition += 1) {
      const indexFile = join(dir, partitionFileName(partition, 'idx'));
      // An empty partition has no files.
      const index = existsSync(indexFile) ? parsePartitionIndex(readFileSync(indexFile), indexFile) : EMPTY_PARTITION;
      indexes.push(index);
      const recordFile = join(dir, partitionFileName(partition, 'rec'));
      files.push(index.records > 0 && existsSync(recordFile) ? await open(recordFile, 'r') : undefined);
    }
  } catch (error: unknown) {
    await Promise.all(files.map((file) => file?.close()));
    throw error;
  }
  return { name, meta, indexes, files };
}

async function closeGeneration(generation: Generation): Promise<void> {
  await Promise.all(generation.files.map((file) => file?.close().catch(() => undefined)));
}
