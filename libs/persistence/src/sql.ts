import { DataSource, type QueryRunner } from 'typeorm';
import type { QueryResult } from 'typeorm/query-runner/QueryResult';

/**
 * Runs one parameterised statement and returns its rows, in the same shape for SELECT,
 * INSERT … RETURNING and UPDATE … RETURNING (TypeORM's unstructured `query` wraps UPDATE
 * results differently). Given a DataSource it borrows a connection for the one statement.
 */
export async function queryRows<Row>(
  source: DataSource | QueryRunner,
  sql: string,
  parameters: readonly unknown[],
): Promise<Row[]> {
  if (source instanceof DataSource) {
    const queryRunner = source.createQueryRunner();
    try {
      return await queryRows<Row>(queryRunner, sql, parameters);
    } finally {
      await queryRunner.release();
    }
  }
  const result = (await source.query(sql, [...parameters], true)) as QueryResult<Row>;
  return result.records;
}

/**
 * The elements of one keyset page selected as a single value, `SELECT json_agg(...) AS page`
 * (null when the page is empty). Pages read at start are selected this way: PGlite's JavaScript
 * copies every field of every result row, so 10,000 rows of four to six columns took two to
 * three times as long to read as the same rows as one JSON value (docs/performance.md,
 * "Nothing read on a checkpoint, also after a restart").
 */
export async function queryJsonPage<Row>(source: DataSource | QueryRunner, sql: string, parameters: readonly unknown[]): Promise<Row[]> {
  const [{ page }] = await queryRows<{ page: Row[] | null }>(source, sql, parameters);
  return page ?? [];
}

/**
 * Marks a statement as background work (a write-behind flush, an offset commit): written first
 * in its SQL, it tells the embedded database's worker to run any waiting statement without it
 * first, so requests do not queue behind projections (`embedded/pglite-worker-database.ts`).
 * On PostgreSQL it is a comment and changes nothing. Use `background(sql)`.
 */
export const BACKGROUND_STATEMENT = '/* ringfence:background */';

/** The statement marked as background work (see `BACKGROUND_STATEMENT`). */
export const background = (sql: string): string => `${BACKGROUND_STATEMENT} ${sql}`;

/** bigint columns arrive as decimal strings; sequences stay far below 2^53. */
export function bigintToNumber(value: string | number): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) {
    throw new RangeError(`bigint ${value} is beyond Number.MAX_SAFE_INTEGER`);
  }
  return number;
}

/**
 * Many JSON texts as one statement parameter, for `jsonTexts($n)` in the SQL: joined with the
 * record separator (U+001E, as JSON text sequences do, RFC 7464), which JSON.stringify never
 * writes raw (it escapes every control character). Sent as a `text[]` literal instead, each
 * text's quotes and backslashes were escaped by the driver and unescaped by PostgreSQL, a third
 * of the statement's time for the event log's and the decision records' batches
 * (docs/performance.md, "Stored JSON as text").
 *
 * As UTF-8 bytes, not a string: drivers send a Buffer as it is (binary format, which for `text`
 * is its UTF-8 bytes), where a string parameter is measured and encoded by a JavaScript loop over
 * its characters (twice in PGlite's node-postgres adapter, on the main thread).
 */
export function jsonTextSequence(texts: readonly string[]): Buffer {
  return Buffer.from(texts.join(RECORD_SEPARATOR), 'utf8');
}

/** The SQL array of the texts a `jsonTextSequence` parameter carries, in order. */
export const jsonTexts = (parameter: string): string => `string_to_array(${parameter}, E'\\x1e')`;

/**
 * `jsonTextSequence` for a column that may be NULL: a null is sent as the empty text, which no
 * JSON text is, and `nullableJsonTexts($n)` reads it back as NULL. A single null makes an empty
 * array, which `unnest` beside the other columns' arrays pads with NULL: the same row.
 */
export function nullableJsonTextSequence(texts: ReadonlyArray<string | null>): Buffer {
  return jsonTextSequence(texts.map((text) => text ?? ''));
}

/** The SQL array of the texts (or NULLs) a `nullableJsonTextSequence` parameter carries, in order. */
export const nullableJsonTexts = (parameter: string): string => `string_to_array(${parameter}, E'\\x1e', '')`;

const RECORD_SEPARATOR = '\u001e';
