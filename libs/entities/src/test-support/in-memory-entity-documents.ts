import type { EntityDocument, EntityDocumentRepository, EntityRef } from '../entity-document';

/**
 * The entity store in memory, with the repository's compare-and-set: `update` reads, merges and
 * writes only if nobody wrote in between (else it reads and merges again). `pause` runs before
 * each read and each write, so a test can interleave concurrent updates (fast-check's scheduler).
 */
export class InMemoryEntityDocuments implements EntityDocumentRepository {
  private readonly rows = new Map<string, { document: EntityDocument; revision: number }>();

  constructor(private readonly pause: () => Promise<unknown> = async () => undefined) {}

  async find(ref: EntityRef): Promise<EntityDocument | null> {
    await this.pause();
    const row = this.rows.get(keyOf(ref));
    return row === undefined ? null : structuredClone(row.document);
  }

  async update(ref: EntityRef, merge: (current: EntityDocument | null) => EntityDocument | null): Promise<EntityDocument | null> {
    const key = keyOf(ref);
    for (;;) {
      await this.pause();
      const row = this.rows.get(key);
      const current = row === undefined ? null : structuredClone(row.document);
      const next = merge(current);
      if (next === null) return current;
      await this.pause();
      if (this.rows.get(key)?.revision !== row?.revision) continue;
      this.rows.set(key, { document: structuredClone(next), revision: (row?.revision ?? 0) + 1 });
      return next;
    }
  }

  /** Every stored document by `kind:entityId` (one tenant's tests), without the revisions. */
  snapshot(): Record<string, EntityDocument> {
    return Object.fromEntries([...this.rows].map(([key, { document }]) => [JSON.parse(key).slice(2).join(':'), document]));
  }
}

const keyOf = (ref: EntityRef): string => JSON.stringify([ref.accountId, ref.environment, ref.kind, ref.entityId]);
