import type { EntityDocument, EntityDocumentRepository, EntityRef } from '@ringfence/entities';
import { LRUCache } from 'lru-cache';

type Merge = (current: EntityDocument | null) => EntityDocument | null;

/** A document changed in memory and not yet written: its value now, and the merges that made it. */
interface DirtyDocument {
  ref: EntityRef;
  document: EntityDocument;
  merges: Merge[];
}

export interface WriteBehindOptions {
  /**
   * Clean (already written) documents kept in memory, least recently used dropped first; 0
   * keeps none. Only sound when this process is the documents' only writer (the embedded mode):
   * another process's writes would not reach this cache.
   */
  cachedDocuments: number;
}

/**
 * Entity documents with their writes behind: `update` merges in memory and returns at once,
 * `find` sees every update made through this instance, and `flush` writes what changed to the
 * store (each document's merges replayed in one compare-and-set, so a concurrent writer of
 * the same document elsewhere is merged with, never overwritten).
 *
 * Ingestion's consumer calls `flush` before the bus commits its offsets (`beforeCommit`), so an
 * event whose offset is committed is in the table; a crash before that redelivers the event,
 * and the merges are idempotent. Readers in the same process (scoring, in the embedded mode)
 * read through this instance and see updates as soon as the consumer has handled them, which
 * is what the bus's read-your-writes barrier waits for.
 */
export class WriteBehindEntityDocuments implements EntityDocumentRepository {
  private readonly dirty = new Map<string, DirtyDocument>();
  private readonly clean: LRUCache<string, { document: EntityDocument | null }> | undefined;
  /** Per document, the tail of its updates: one document's updates run one after another. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: EntityDocumentRepository,
    options: WriteBehindOptions,
  ) {
    this.clean = options.cachedDocuments > 0 ? new LRUCache({ max: options.cachedDocuments }) : undefined;
  }

  /** Documents changed in memory and not yet written, for metrics and tests. */
  get unwritten(): number {
    return this.dirty.size;
  }

  async find(ref: EntityRef): Promise<EntityDocument | null> {
    const key = keyOf(ref);
    const known = this.inMemory(key);
    if (known !== undefined) return known;
    const stored = await this.store.find(ref);
    // An update may have landed while the store was read; it is newer than what was read.
    const meanwhile = this.inMemory(key);
    if (meanwhile !== undefined) return meanwhile;
    this.clean?.set(key, { document: stored });
    return stored;
  }

  update(ref: EntityRef, merge: Merge): Promise<EntityDocument | null> {
    const key = keyOf(ref);
    const run = (this.queues.get(key) ?? Promise.resolve()).then(async () => {
      const current = await this.find(ref);
      const next = merge(current);
      if (next === null) return current;
      const dirty = this.dirty.get(key);
      if (dirty === undefined) this.dirty.set(key, { ref, document: next, merges: [merge] });
      else {
        dirty.document = next;
        dirty.merges.push(merge);
      }
      this.clean?.delete(key);
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
   * Writes every document changed so far. Flushes run one after another, and a caller returns
   * once the changes made before its call are written; a failed write keeps its document dirty
   * for the next flush.
   */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.writeDirty());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async writeDirty(): Promise<void> {
    for (const [key, entry] of [...this.dirty]) {
      const merges = entry.merges.slice();
      const written = await this.store.update(entry.ref, (current) => replay(merges, current));
      // Updates that came while this one was written stay dirty for the next flush.
      entry.merges.splice(0, merges.length);
      if (entry.merges.length === 0) {
        this.dirty.delete(key);
        this.clean?.set(key, { document: written });
      }
    }
  }

  private inMemory(key: string): EntityDocument | null | undefined {
    const dirty = this.dirty.get(key);
    if (dirty !== undefined) return dirty.document;
    return this.clean?.get(key)?.document;
  }
}

/** The merges again, over what the store holds now; null when none of them changes it. */
function replay(merges: readonly Merge[], stored: EntityDocument | null): EntityDocument | null {
  let document = stored;
  let changed = false;
  for (const merge of merges) {
    const next = merge(document);
    if (next !== null) {
      document = next;
      changed = true;
    }
  }
  return changed ? document : null;
}

// JSON of the tuple: no separator character can make two documents collide.
const keyOf = (ref: EntityRef): string => JSON.stringify([ref.accountId, ref.environment, ref.kind, ref.entityId]);
