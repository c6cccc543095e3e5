import { type SetAsideEntry, type SetAsideListFilter, type SetAsideRow, type SetAsideStore, prefixedId } from '@ringfence/platform';
import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { background, bigintToNumber, jsonTextSequence, jsonTexts, queryRows } from '../sql';

interface StoredRow {
  id: string;
  writer: string;
  account_id: string | null;
  environment: string | null;
  row_key: string;
  row_json: string;
  error: string;
  attempts: number;
  set_aside_at: string;
}

// Many entries in one statement, as JSON texts; an entry set aside again keeps its id (the one
// an operator may hold) and counts every attempt.
const PUT = background(`
  INSERT INTO set_aside_rows (id, writer, account_id, environment, row_key, row_key_digest, row_json, error, attempts, set_aside_at)
  SELECT e.id, e.writer, e.account_id, e.environment, e.row_key, e.row_key_digest, e.row_json, e.error, e.attempts, $2
    FROM unnest(${jsonTexts('$1')}) AS t(entry),
         jsonb_to_record(t.entry::jsonb) AS e(id text, writer text, account_id text, environment text, row_key text, row_key_digest text, row_json text, error text, attempts integer)
  ON CONFLICT (writer, row_key_digest) DO UPDATE
     SET row_json = EXCLUDED.row_json, error = EXCLUDED.error, attempts = set_aside_rows.attempts + EXCLUDED.attempts,
         account_id = EXCLUDED.account_id, environment = EXCLUDED.environment, set_aside_at = EXCLUDED.set_aside_at`);

const COLUMNS = 'id, writer, account_id, environment, row_key, row_json, error, attempts, set_aside_at';

const LIST = `
  SELECT ${COLUMNS} FROM set_aside_rows
   WHERE ($1::text IS NULL OR writer = $1) AND ($2::text IS NULL OR account_id = $2)
     AND ($3::text IS NULL OR sequence < (SELECT sequence FROM set_aside_rows WHERE id = $3))
   ORDER BY sequence DESC
   LIMIT $4`;

const GET = `SELECT ${COLUMNS} FROM set_aside_rows WHERE id = $1`;

const REMOVE = `DELETE FROM set_aside_rows WHERE id = $1 AND set_aside_at <= $2`;

/**
 * The set-aside rows of this process's writers (libs/platform, `SetAsideStore`), in the
 * `set_aside_rows` table of its own database. Text is stored without `\u0000` (a text column
 * holds none): an error message that quotes one keeps it escaped.
 */
export class TypeOrmSetAsideStore implements SetAsideStore {
  constructor(private readonly dataSource: DataSource) {}

  async put(entries: readonly SetAsideEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const texts = entries.map((entry) =>
      JSON.stringify({
        id: prefixedId('sa'),
        writer: withoutNul(entry.writer),
        account_id: entry.accountId === null ? null : withoutNul(entry.accountId),
        environment: entry.environment === null ? null : withoutNul(entry.environment),
        row_key: withoutNul(entry.key),
        row_key_digest: keyDigest(entry.key),
        row_json: entry.row,
        error: withoutNul(entry.error),
        attempts: entry.attempts,
      }),
    );
    await queryRows(this.dataSource, PUT, [jsonTextSequence(texts), Date.now()]);
  }

  async list({ writer, accountId, before, limit }: SetAsideListFilter): Promise<SetAsideRow[]> {
    const rows = await queryRows<StoredRow>(this.dataSource, LIST, [writer ?? null, accountId ?? null, before ?? null, limit]);
    return rows.map(toSetAsideRow);
  }

  async get(id: string): Promise<SetAsideRow | null> {
    const [row] = await queryRows<StoredRow>(this.dataSource, GET, [id]);
    return row === undefined ? null : toSetAsideRow(row);
  }

  async remove(id: string, setAsideAt: number): Promise<void> {
    await queryRows(this.dataSource, REMOVE, [id, setAsideAt]);
  }
}

const withoutNul = (text: string): string => text.replaceAll('\u0000', '\\u0000');

const toSetAsideRow = (row: StoredRow): SetAsideRow => ({
  id: row.id,
  writer: row.writer,
  accountId: row.account_id,
  environment: row.environment,
  key: row.row_key,
  row: row.row_json,
  error: row.error,
  attempts: row.attempts,
  setAsideAt: bigintToNumber(row.set_aside_at),
});

/** The key's identity in the table's unique index (the migration says why not the key itself). */
function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
