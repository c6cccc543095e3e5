import type { EntityDocument, EntityDocumentRepository, EntityRef } from '@ringfence/entities';
import type { DataSource, QueryRunner } from 'typeorm';
import { queryRows } from '../sql';

interface DocumentRow {
  fields: Record<string, unknown>;
  field_timestamps: Record<string, number>;
}

// Every statement names the whole key, tenant (account, environment) first: there is no way
// to read or write a document without saying whose it is.
const KEY_MATCHES = 'account_id = $1 AND environment = $2 AND kind = $3 AND entity_id = $4';
const SELECT_DOCUMENT = `SELECT fields, field_timestamps FROM entity_documents WHERE ${KEY_MATCHES}`;
const LOCK_DOCUMENT = `${SELECT_DOCUMENT} FOR UPDATE`;
const INSERT_DOCUMENT = `
  INSERT INTO entity_documents (account_id, environment, kind, entity_id, fields, field_timestamps)
  VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)
  ON CONFLICT (account_id, environment, kind, entity_id) DO NOTHING
  RETURNING 1 AS inserted`;
const UPDATE_DOCUMENT = `
  UPDATE entity_documents SET fields = $5::jsonb, field_timestamps = $6::jsonb, updated_at = now()
   WHERE ${KEY_MATCHES}`;

/** Entity documents in `entity_documents`, one row per (account, environment, kind, id). */
export class TypeOrmEntityDocumentRepository implements EntityDocumentRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(ref: EntityRef): Promise<EntityDocument | null> {
    const [row] = await queryRows<DocumentRow>(this.dataSource, SELECT_DOCUMENT, keyOf(ref));
    return row === undefined ? null : toDocument(row);
  }

  /**
   * Returns the document as stored afterwards: the merged one, or the unchanged current one
   * (null when there is none) when `merge` returned null.
   *
   * An existing row is locked (`FOR UPDATE`) for the read-merge-write, so concurrent updates
   * of one entity apply one after the other. A missing row cannot be locked: the first write
   * is an `INSERT … ON CONFLICT DO NOTHING`, and if a concurrent writer inserted first, the
   * row is locked and `merge` runs again on what that writer stored. `merge` must therefore be
   * a pure function of its argument.
   */
  update(
    ref: EntityRef,
    merge: (current: EntityDocument | null) => EntityDocument | null,
  ): Promise<EntityDocument | null> {
    return this.dataSource.transaction(async (manager) => {
      // Inside `transaction` the manager always carries the transaction's query runner.
      const queryRunner = manager.queryRunner as QueryRunner;
      const key = keyOf(ref);
      const current = await lockDocument(queryRunner, key);
      if (current !== null) {
        return mergeAndUpdate(queryRunner, key, current, merge);
      }
      const created = merge(null);
      if (created === null) {
        return null;
      }
      const inserted = await queryRows(queryRunner, INSERT_DOCUMENT, [...key, ...documentParameters(created)]);
      if (inserted.length > 0) {
        return created;
      }
      // Documents are never deleted, so the row a concurrent writer inserted is there to lock.
      const stored = await lockDocument(queryRunner, key);
      if (stored === null) {
        throw new Error(`entity document ${key.join('/')} conflicted on insert but cannot be found`);
      }
      return mergeAndUpdate(queryRunner, key, stored, merge);
    });
  }
}

type DocumentKey = [accountId: string, environment: string, kind: string, entityId: string];

function keyOf({ accountId, environment, kind, entityId }: EntityRef): DocumentKey {
  return [accountId, environment, kind, entityId];
}

async function lockDocument(queryRunner: QueryRunner, key: DocumentKey): Promise<EntityDocument | null> {
  const [row] = await queryRows<DocumentRow>(queryRunner, LOCK_DOCUMENT, key);
  return row === undefined ? null : toDocument(row);
}

async function mergeAndUpdate(
  queryRunner: QueryRunner,
  key: DocumentKey,
  current: EntityDocument,
  merge: (current: EntityDocument | null) => EntityDocument | null,
): Promise<EntityDocument> {
  const next = merge(current);
  if (next === null) {
    return current;
  }
  await queryRows(queryRunner, UPDATE_DOCUMENT, [...key, ...documentParameters(next)]);
  return next;
}

function documentParameters(document: EntityDocument): [fields: string, fieldTimestamps: string] {
  return [JSON.stringify(document.fields), JSON.stringify(document.fieldTimestamps)];
}

function toDocument(row: DocumentRow): EntityDocument {
  return { fields: row.fields, fieldTimestamps: row.field_timestamps };
}
