import type { EntityDocument, EntityDocumentRepository, EntityRef } from '@ringfence/entities';
import { LRUCache } from 'lru-cache';
import type { DocumentWrite } from './typeorm-entity-document.repository';

/** The table under the write-behind: reads, and many whole documents written in one statement. */
export interface DocumentTable {
  find(ref: EntityRef): Promise<EntityDocument | null>;
  putMany(writes: readonly DocumentWrite[]): Promise<void>;
}

export interface WriteBehindOptions {
  /** Written documents kept in memory, least recently used dropped first (misses included). */
  cachedDocuments: number;
}

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
  /** Per document, the tail of its updates: one document's updates run one after another. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly table: DocumentTable,
    options: WriteBehindOptions,
  ) {
    this.clean = new LRUCache({ max: options.cachedDocuments });
  }

  /** Documents changed in memory and not yet written, for metrics and tests. */
  get unwritten(): number {
    return this.dirty.size;
  }

  async find(ref: EntityRef): Promise<EntityDocument | null> {
    const key = keyOf(ref);
    const known = this.inMemory(key);
    if (known !== undefined) return known;
    const stored = await this.table.find(ref);
    // An update may have landed while the table was read; it is newer than what was read.
    const meanwhile = this.inMemory(key);
    if (meanwhile !== undefined) return meanwhile;
    this.clean.set(key, { document: stored });
    return stored;
  }

  update(ref: EntityRef, merge: (current: EntityDocument | null) => EntityDocument | null): Promise<EntityDocument | null> {
    const key = keyOf(ref);
    const run = (this.queues.get(key) ?? Promise.resolve()).then(async () => {
      const current = await this.find(ref);
      const next = merge(current);
      if (next === null) return current;
      this.dirty.set(key, { ref, document: next });
      this.clean.delete(key);
      return next;
    });
    const tail = run.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
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
