import type { EntityDocument, EntityDocumentRepository, EntityRef } from '@ringfence/entities';
import { AccountShareLru, type RowWriter, RowsNotWrittenError, type SetAsideRows, firstOfJsonTuple } from '@ringfence/platform';
import { isRowRefusal } from '@ringfence/persistence';
import { SerialPerKey } from '@ringfence/persistence';
import { StoredKeysFilter } from '@ringfence/persistence';
import type { DocumentWrite, StoredDocument } from './typeorm-entity-document.repository';

/** The table under the write-behind: reads, many whole documents written in one statement, what is stored. */
export interface DocumentTable {
  find(ref: EntityRef): Promise<EntityDocument | null>;
  putMany(writes: readonly DocumentWrite[]): Promise<void>;
  /** Stored keys after `after` in key order, at most `limit` (keyset pages), with the documents updated from `documentsFrom` (all when null). */
  storedAfter(after: EntityRef | undefined, limit: number, documentsFrom: Date | null): Promise<StoredDocument[]>;
  /** When the `count`-th most recently updated document was updated; null when fewer are stored. */
  nthMostRecentUpdate(count: number): Promise<Date | null>;
}

export interface WriteBehindOptions {
  /** Documents kept in memory, least recently used dropped first (misses included). */
  cachedDocuments: number;
  /** Keys (and documents) read per statement while what is stored is loaded at start. Default 10,000. */
  keyPageSize?: number;
}

/** The writer's name in set-aside rows, metrics and logs. */
export const ENTITY_DOCUMENTS_WRITER = 'entity-documents';

/** Where loading what is stored stands, for the start-up log, readiness and tests. */
export type StoredLoadState =
  | { state: 'loading'; keys: number; documents: number }
  | { state: 'loaded'; keys: number; documents: number; seconds: number }
  | { state: 'failed'; error: unknown };

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
 *
 * A document the table refuses does not hold the others up (ADR-0016): `RowWriter` writes
 * the rest, and after its attempts sets it aside (writer `entity-documents`); it is still
 * served from memory, and its next update writes it whole again.
 */
export class WriteBehindEntityDocuments implements EntityDocumentRepository {
  private readonly dirty = new Map<string, DocumentWrite>();
  private readonly clean: AccountShareLru<string, { document: EntityDocument | null }>;
  /** One document's updates run one after another. */
  private readonly updates = new SerialPerKey();
  private flushing: Promise<void> = Promise.resolve();
  /**
   * Every key stored or being written, once `loadState` is `loaded`: a document outside it does
   * not exist, so a first sight (every new transaction, most new customers, devices and cards)
   * is answered without a database read. Until then every miss reads the table.
   */
  private readonly storedKeys = new StoredKeysFilter();
  private loadState: StoredLoadState = { state: 'loading', keys: 0, documents: 0 };
  private readonly writer: RowWriter<DocumentWrite>;

  constructor(
    private readonly table: DocumentTable,
    setAside: SetAsideRows,
    private readonly options: WriteBehindOptions,
  ) {
    this.clean = new AccountShareLru({ max: options.cachedDocuments, maxPerAccount: options.cachedDocuments, accountOf: accountOfKey });
    this.writer = setAside.writer<DocumentWrite>(
      {
        name: ENTITY_DOCUMENTS_WRITER,
        writeAll: (writes) => table.putMany(writes),
        identify: ({ ref }) => ({ accountId: ref.accountId, environment: ref.environment, key: keyOf(ref) }),
        isUnavailable: (error) => !isRowRefusal(error),
      },
      (row) => this.replay(row as DocumentWrite),
    );
  }

  /** Where loading what is stored stands. */
  get storedLoadState(): StoredLoadState {
    return this.loadState;
  }

  /**
   * Reads what is stored, in keyset pages, in one pass: every document's key into the filter,
   * and the most recently updated documents, as many as the cache holds, into the cache (the
   * state checkpoints decide from, rebuilt at start). Documents are served meanwhile (from the
   * table on a miss). Keys written meanwhile are added by `update`, before their write, so none
   * is missing when it completes; a document updated meanwhile is not taken from the load.
   */
  async loadStored(): Promise<StoredLoadState> {
    const started = performance.now();
    const pageSize = this.options.keyPageSize ?? 10_000;
    try {
      const documentsFrom = await this.table.nthMostRecentUpdate(this.options.cachedDocuments);
      let after: EntityRef | undefined;
      let keys = 0;
      let documents = 0;
      for (;;) {
        const page = await this.table.storedAfter(after, pageSize, documentsFrom);
        for (const { ref, document } of page) {
          const key = keyOf(ref);
          this.storedKeys.add(key);
          // Taken only into room left in the cache, never evicting: what traffic brought in meanwhile
          // is hotter, and newer. That also keeps the load's copy of a document updated meanwhile
          // out (it may be older than the update): such a document is in `dirty`, or back in the
          // cache once written, or was pushed out of a full cache, which stays full.
          if (document !== undefined && this.clean.size < this.options.cachedDocuments && !this.dirty.has(key) && !this.clean.has(key)) {
            this.clean.set(key, { document });
            documents += 1;
          }
        }
        keys += page.length;
        this.loadState = { state: 'loading', keys, documents };
        if (page.length < pageSize) break;
        after = page[page.length - 1].ref;
      }
      this.loadState = { state: 'loaded', keys, documents, seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      // Correct without the filter and the documents, only slower: every miss keeps reading the table.
      this.loadState = { state: 'failed', error };
    }
    return this.loadState;
  }

  /** Documents changed in memory and not yet written, for metrics and tests. */
  get unwritten(): number {
    return this.dirty.size;
  }

  find(ref: EntityRef): Promise<EntityDocument | null> {
    return this.findByKey(ref, keyOf(ref));
  }

  /** `find` with the ref's key already made (an update makes it once for both). */
  private async findByKey(ref: EntityRef, key: string): Promise<EntityDocument | null> {
    const known = this.inMemory(key);
    if (known !== undefined) return known;
    if (this.loadState.state === 'loaded' && !this.storedKeys.mightContain(key)) return null;
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
      const current = await this.findByKey(ref, key);
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
    let failure: RowsNotWrittenError<DocumentWrite> | undefined;
    try {
      await this.writer.write(batch.map(([, write]) => write));
    } catch (error) {
      if (!(error instanceof RowsNotWrittenError)) throw error;
      failure = error as RowsNotWrittenError<DocumentWrite>;
    }
    const unwritten = new Set(failure?.rows);
    for (const [key, write] of batch) {
      // Changed again while this write was in flight, or not written: it stays for the next flush.
      // A document set aside is done with here; memory keeps serving it.
      if (this.dirty.get(key) !== write || unwritten.has(write)) continue;
      this.dirty.delete(key);
      this.clean.set(key, { document: write.document });
    }
    if (failure !== undefined) throw failure;
  }

  /**
   * An operator's replay of a set-aside document: the document as it stands in memory (every
   * update since it was set aside built on it), or the set-aside copy when none is held, is
   * written again.
   */
  private async replay({ ref, document }: DocumentWrite): Promise<void> {
    await this.update(ref, (current) => current ?? document);
    const failure: unknown = await this.flush().then(
      () => undefined,
      (error: unknown) => error,
    );
    if (this.dirty.has(keyOf(ref))) throw failure ?? new Error('the document is not written yet');
  }

  private inMemory(key: string): EntityDocument | null | undefined {
    const dirty = this.dirty.get(key);
    if (dirty !== undefined) return dirty.document;
    return this.clean.get(key)?.document;
  }
}

// JSON of the tuple: no separator character can make two documents collide.
const keyOf = (ref: EntityRef): string => JSON.stringify([ref.accountId, ref.environment, ref.kind, ref.entityId]);
// The keys above start with the account: the caches' share is per account.
const accountOfKey = firstOfJsonTuple;
