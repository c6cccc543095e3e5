import type { EntityDocument, EntityDocumentRepository, EntityRef } from '@ringfence/entities';
import { LRUCache } from 'lru-cache';
import { SerialPerKey } from './serial-per-key';
import { StoredKeysFilter } from './stored-keys-filter';
import type { DocumentWrite } from './typeorm-entity-document.repository';

/** The table under the write-behind: reads, many whole documents written in one statement, keys. */
export interface DocumentTable {
  find(ref: EntityRef): Promise<EntityDocument | null>;
  putMany(writes: readonly DocumentWrite[]): Promise<void>;
  /** Stored keys after `after` in key order, at most `limit` (keyset pages). */
  keysAfter(after: EntityRef | undefined, limit: number): Promise<EntityRef[]>;
}

export interface WriteBehindOptions {
  /** Written documents kept in memory, least recently used dropped first (misses included). */
  cachedDocuments: number;
  /** Keys read per statement while the stored keys are loaded at start. Default 10,000. */
  keyPageSize?: number;
}

/** Where loading the stored keys stands, for the start-up log and tests. */
export type StoredKeysState = { state: 'loading'; keys: number } | { state: 'loaded'; keys: number; seconds: number } | { state: 'failed'; error: unknown };

/**
 * Entity documents for a process that is their only writer (the embedded mode): `update`
 * merges in memory and returns at once, `find` sees every update made so far, and `flush`
 * writes every changed document in one statement. No compare-and-set is needed, because no
 * other process writes the table; the distributed mode does not use this class.
 *
 * Ingestion's consumer calls `flush` before the bus commits its offsets (`beforeCommit`), so an
 * event whose offset is committed is in the table; a crash before that redelivers the event,
 * and merges are idempotent. Scoring reads through the same instance, so it sees an update as
 * soon as the consumer has handled it, which is what the bus's read-your-writes barrier waits
 * for; documents read or written recently are served from memory.
 */
export class WriteBehindEntityDocuments implements EntityDocumentRepository {
  private readonly dirty = new Map<string, DocumentWrite>();
  private readonly clean: LRUCache<string, { document: EntityDocument | null }>;
  /** One document's updates run one after another. */
  private readonly updates = new SerialPerKey();
  private flushing: Promise<void> = Promise.resolve();
  /**
   * Every key stored or being written, once `keysState` is `loaded`: a document outside it does
   * not exist, so a first sight (every new transaction, most new customers, devices and cards)
   * is answered without a database read. Until then every miss reads the table.
   */
  private readonly storedKeys = new StoredKeysFilter();
  private keysState: StoredKeysState = { state: 'loading', keys: 0 };

  constructor(
    private readonly table: DocumentTable,
    private readonly options: WriteBehindOptions,
  ) {
    this.clean = new LRUCache({ max: options.cachedDocuments });
  }

  /** Where loading the stored keys stands. */
  get storedKeysState(): StoredKeysState {
    return this.keysState;
  }

  /**
   * Reads every stored document's key into the filter, in keyset pages, beside the traffic:
   * documents are served (from the table on a miss) while it runs. Keys written meanwhile are
   * added by `update`, before their write, so none is missing when it completes.
   */
  async loadStoredKeys(): Promise<StoredKeysState> {
    const started = performance.now();
    const pageSize = this.options.keyPageSize ?? 10_000;
    try {
      let after: EntityRef | undefined;
      let keys = 0;
      for (;;) {
        const page = await this.table.keysAfter(after, pageSize);
        for (const ref of page) this.storedKeys.add(keyOf(ref));
        keys += page.length;
        this.keysState = { state: 'loading', keys };
        if (page.length < pageSize) break;
        after = page[page.length - 1];
      }
      this.keysState = { state: 'loaded', keys, seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      // Correct without the filter, only slower: every miss keeps reading the table.
      this.keysState = { state: 'failed', error };
    }
    return this.keysState;
  }

  /** Documents changed in memory and not yet written, for metrics and tests. */
  get unwritten(): number {
    return this.dirty.size;
  }

  async find(ref: EntityRef): Promise<EntityDocument | null> {
    const key = keyOf(ref);
    const known = this.inMemory(key);
    if (known !== undefined) return known;
    if (this.keysState.state === 'loaded' && !this.storedKeys.mightContain(key)) return null;
    const stored = await this.table.find(ref);
    // An update may have landed while the table was read; it is newer than what was read.
    const meanwhile = this.inMemory(key);
    if (meanwhile !== undefined) return meanwhile;
    this.clean.set(key, { document: stored });
    return stored;
  }

  update(ref: EntityRef, merge: (current: EntityDocument | null) => EntityDocument | null): Promise<EntityDocument | null> {
    const key = keyOf(ref);
    return this.updates.run(key, async () => {
      const current = await this.find(ref);
      const next = merge(current);
      if (next === null) return current;
      this.storedKeys.add(key);
      this.dirty.set(key, { ref, document: next });
      this.clean.delete(key);
      return next;
    });
  }

  /**
   * Writes every document changed so far, in one statement. Flushes run one after another, so
   * a caller returns once the changes made before its call are written; a failed write leaves
   * its documents changed for the next flush.
   */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.writeDirty());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async writeDirty(): Promise<void> {
    const batch = [...this.dirty];
    await this.table.putMany(batch.map(([, write]) => write));
    for (const [key, write] of batch) {
      // Changed again while this write was in flight: it stays for the next flush.
      if (this.dirty.get(key) !== write) continue;
      this.dirty.delete(key);
      this.clean.set(key, { document: write.document });
    }
  }

  private inMemory(key: string): EntityDocument | null | undefined {
    const dirty = this.dirty.get(key);
    if (dirty !== undefined) return dirty.document;
    return this.clean.get(key)?.document;
  }
}

// JSON of the tuple: no separator character can make two documents collide.
const keyOf = (ref: EntityRef): string => JSON.stringify([ref.accountId, ref.environment, ref.kind, ref.entityId]);
