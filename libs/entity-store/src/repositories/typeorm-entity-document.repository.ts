import type { EntityDocument, EntityDocumentRepository, EntityRef } from '@ringfence/entities';
import type { DataSource } from 'typeorm';
import { background, jsonTextSequence, jsonTexts, queryJsonPage, queryRows } from '@ringfence/persistence';

/** `fields` and `field_timestamps` are JSON in `text` columns: always read and written whole. */
interface DocumentRow {
  fields: string;
  field_timestamps: string;
  revision: string;
}

// Every statement names the whole key, tenant (account, environment) first: there is no way
// to read or write a document without saying whose it is.
const KEY_MATCHES = 'account_id = $1 AND environment = $2 AND kind = $3 AND entity_id = $4';
const SELECT_DOCUMENT = `SELECT fields, field_timestamps, revision FROM entity_documents WHERE ${KEY_MATCHES}`;
// The statements that span tenants, for a sole writer's start: keys in primary-key order, each
// with its document when that was updated at or after $6 (every document when $6 is null), and
// when the Nth most recently updated document was (a top-N sort: one scan, no index). A page is
// one JSON value (`queryJsonPage`), the stored JSON embedded as it is.
const SELECT_STORED_AFTER = `
  SELECT json_agg(json_build_array(account_id, environment, kind, entity_id, fields, field_timestamps)
                  ORDER BY account_id, environment, kind, entity_id) AS page
    FROM (SELECT account_id, environment, kind, entity_id,
                 CASE WHEN $6::timestamptz IS NULL OR updated_at >= $6::timestamptz THEN fields::json END AS fields,
                 CASE WHEN $6::timestamptz IS NULL OR updated_at >= $6::timestamptz THEN field_timestamps::json END AS field_timestamps
            FROM entity_documents
           WHERE (account_id, environment, kind, entity_id) > ($1, $2, $3, $4)
           ORDER BY account_id, environment, kind, entity_id
           LIMIT $5) stored`;
const SELECT_NTH_UPDATED_AT = 'SELECT updated_at FROM entity_documents ORDER BY updated_at DESC OFFSET $1 LIMIT 1';
const INSERT_DOCUMENT = `
  INSERT INTO entity_documents (account_id, environment, kind, entity_id, fields, field_timestamps)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (account_id, environment, kind, entity_id) DO NOTHING
  RETURNING 1 AS written`;
const UPDATE_DOCUMENT = `
  UPDATE entity_documents
     SET fields = $5, field_timestamps = $6, revision = revision + 1, updated_at = now()
   WHERE ${KEY_MATCHES} AND revision = $7
  RETURNING 1 AS written`;

// Many documents in one statement, for a sole writer that knows each document's whole new state (written behind: background).
const PUT_DOCUMENTS = background(`
  INSERT INTO entity_documents (account_id, environment, kind, entity_id, fields, field_timestamps)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], ${jsonTexts('$5')}, ${jsonTexts('$6')})
  ON CONFLICT (account_id, environment, kind, entity_id) DO UPDATE
     SET fields = EXCLUDED.fields, field_timestamps = EXCLUDED.field_timestamps,
         revision = entity_documents.revision + 1, updated_at = now()`);

/** A stored document's key and, when it was asked for, the document. */
export interface StoredDocument {
  ref: EntityRef;
  document: EntityDocument | undefined;
}

/** A document with its whole new state, for `putMany`. */
export interface DocumentWrite {
  ref: EntityRef;
  document: EntityDocument;
}

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

  /**
   * Stores each document as given, in one statement, whatever is stored now: only for a writer
   * that is the documents' only one (the embedded mode's write-behind), which knows their whole
   * state. Each document at most once per call.
   */
  async putMany(writes: readonly DocumentWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const columns: [string[], string[], string[], string[], string[], string[]] = [[], [], [], [], [], []];
    for (const { ref, document } of writes) {
      [...keyOf(ref), ...documentParameters(document)].forEach((value, column) => columns[column].push(value));
    }
    const [accounts, environments, kinds, ids, fields, fieldTimestamps] = columns;
    await queryRows(this.dataSource, PUT_DOCUMENTS, [accounts, environments, kinds, ids, jsonTextSequence(fields), jsonTextSequence(fieldTimestamps)]);
  }

  /**
   * Stored documents after `after` (all tenants, in key order), at most `limit`: keyset pages,
   * one statement each, no transaction held between them. Each comes with its document when it
   * was updated at or after `documentsFrom`, every one when that is null, else as a key alone.
   */
  async storedAfter(after: EntityRef | undefined, limit: number, documentsFrom: Date | null): Promise<StoredDocument[]> {
    const from = after === undefined ? ['', '', '', ''] : keyOf(after);
    const stored = await queryJsonPage<StoredRow>(this.dataSource, SELECT_STORED_AFTER, [...from, limit, documentsFrom]);
    return stored.map(([accountId, environment, kind, entityId, fields, fieldTimestamps]) => ({
      ref: { accountId, environment, kind, entityId },
      document: fields === null || fieldTimestamps === null ? undefined : { fields, fieldTimestamps },
    }));
  }

  /** When the `count`-th most recently updated document was updated; null when fewer are stored. */
  async nthMostRecentUpdate(count: number): Promise<Date | null> {
    const [row] = await queryRows<{ updated_at: Date }>(this.dataSource, SELECT_NTH_UPDATED_AT, [count - 1]);
    return row?.updated_at ?? null;
  }

  private async read(key: DocumentKey): Promise<DocumentRow | null> {
    const [row] = await queryRows<DocumentRow>(this.dataSource, SELECT_DOCUMENT, key);
    return row ?? null;
  }
}

type DocumentKey = [accountId: string, environment: string, kind: string, entityId: string];

/** One element of a `SELECT_STORED_AFTER` page: the key, then the document's two parts or nulls. */
type StoredRow = [
  accountId: string,
  environment: EntityRef['environment'],
  kind: EntityRef['kind'],
  entityId: string,
  fields: Record<string, unknown> | null,
  fieldTimestamps: Record<string, number> | null,
];

function keyOf({ accountId, environment, kind, entityId }: EntityRef): DocumentKey {
  return [accountId, environment, kind, entityId];
}

function documentParameters(document: EntityDocument): [fields: string, fieldTimestamps: string] {
  return [JSON.stringify(document.fields), JSON.stringify(document.fieldTimestamps)];
}

function toDocument(row: DocumentRow): EntityDocument {
  return { fields: JSON.parse(row.fields) as Record<string, unknown>, fieldTimestamps: JSON.parse(row.field_timestamps) as Record<string, number> };
}
