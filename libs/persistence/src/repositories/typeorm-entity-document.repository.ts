import type { EntityDocument, EntityDocumentRepository, EntityRef } from '@ringfence/entities';
import type { DataSource } from 'typeorm';
import { queryRows } from '../sql';

interface DocumentRow {
  fields: Record<string, unknown>;
  field_timestamps: Record<string, number>;
  revision: string;
}

// Every statement names the whole key, tenant (account, environment) first: there is no way
// to read or write a document without saying whose it is.
const KEY_MATCHES = 'account_id = $1 AND environment = $2 AND kind = $3 AND entity_id = $4';
const SELECT_DOCUMENT = `SELECT fields, field_timestamps, revision FROM entity_documents WHERE ${KEY_MATCHES}`;
const INSERT_DOCUMENT = `
  INSERT INTO entity_documents (account_id, environment, kind, entity_id, fields, field_timestamps)
  VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)
  ON CONFLICT (account_id, environment, kind, entity_id) DO NOTHING
  RETURNING 1 AS written`;
const UPDATE_DOCUMENT = `
  UPDATE entity_documents
     SET fields = $5::jsonb, field_timestamps = $6::jsonb, revision = revision + 1, updated_at = now()
   WHERE ${KEY_MATCHES} AND revision = $7
  RETURNING 1 AS written`;

/**
 * How many times an update re-reads after losing a race before it gives up. Events of one
 * entity are delivered in order (one partition key), so a race needs two writers of one entity
 * at once; more than a few lost rounds in a row means something is wrong.
 */
const MAX_ATTEMPTS = 20;

/** Entity documents in `entity_documents`, one row per (account, environment, kind, id). */
export class TypeOrmEntityDocumentRepository implements EntityDocumentRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(ref: EntityRef): Promise<EntityDocument | null> {
    const row = await this.read(keyOf(ref));
    return row === null ? null : toDocument(row);
  }

  /**
   * Returns the document as stored afterwards: the merged one, or the unchanged current one
   * (null when there is none) when `merge` returned null.
   *
   * Optimistic: read the row and its revision, merge, and write only if the revision is still
   * the one read (a first write is an insert that fails if a concurrent writer inserted
   * first). A writer that lost re-reads and merges again, so concurrent updates of one entity
   * apply one after the other. `merge` must therefore be a pure function of its argument.
   */
  async update(
    ref: EntityRef,
    merge: (current: EntityDocument | null) => EntityDocument | null,
  ): Promise<EntityDocument | null> {
    const key = keyOf(ref);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const row = await this.read(key);
      const current = row === null ? null : toDocument(row);
      const next = merge(current);
      if (next === null) {
        return current;
      }
      const written =
        row === null
          ? await queryRows(this.dataSource, INSERT_DOCUMENT, [...key, ...documentParameters(next)])
          : await queryRows(this.dataSource, UPDATE_DOCUMENT, [...key, ...documentParameters(next), row.revision]);
      if (written.length > 0) {
        return next;
      }
    }
    throw new Error(`entity document ${key.join('/')} kept changing under ${MAX_ATTEMPTS} update attempts`);
  }

  private async read(key: DocumentKey): Promise<DocumentRow | null> {
    const [row] = await queryRows<DocumentRow>(this.dataSource, SELECT_DOCUMENT, key);
    return row ?? null;
  }
}

type DocumentKey = [accountId: string, environment: string, kind: string, entityId: string];

function keyOf({ accountId, environment, kind, entityId }: EntityRef): DocumentKey {
  return [accountId, environment, kind, entityId];
}

function documentParameters(document: EntityDocument): [fields: string, fieldTimestamps: string] {
  return [JSON.stringify(document.fields), JSON.stringify(document.fieldTimestamps)];
}

function toDocument(row: DocumentRow): EntityDocument {
  return { fields: row.fields, fieldTimestamps: row.field_timestamps };
}
