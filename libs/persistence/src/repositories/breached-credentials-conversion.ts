import type { BreachedCredential, BreachedCredentialsRepository } from '@ringfence/credentials';
import type { DataSource } from 'typeorm';
import { LEGACY_BREACHED_CREDENTIALS_TABLE } from '../migrations/1765500000000-breached-credentials-to-store.migration';
import type { PersistenceLogger } from '../persistence.options';
import { queryRows } from '../sql';

/** Pairs per store merge: each merge rewrites the partitions it touches, so batches are large. */
const CONVERSION_BATCH = 500_000;
const PAGE = 50_000;

/**
 * The one-time move of the old `breached_credentials` rows (renamed by the migration
 * BreachedCredentialsToStore1765500000000) into the on-disk store, at the start of the process
 * that holds the store; then the table is dropped. Idempotent: a start killed half-way converts
 * again from the first row, and the store skips pairs it has. Rows are read in primary-key order
 * with keyset pagination, so memory stays at one batch.
 */
export async function convertLegacyBreachedCredentials(
  dataSource: DataSource,
  repository: BreachedCredentialsRepository,
  logger?: PersistenceLogger,
): Promise<number> {
  const [exists] = await queryRows<{ present: string | null }>(dataSource, `SELECT to_regclass($1) AS present`, [LEGACY_BREACHED_CREDENTIALS_TABLE]);
  if (!exists?.present) return 0;
  let converted = 0;
  let after: [string, string] = ['', ''];
  let batch: BreachedCredential[] = [];
  for (;;) {
    const rows = await queryRows<{ username: string; password_sha256: string }>(
      dataSource,
      `SELECT username, password_sha256 FROM ${LEGACY_BREACHED_CREDENTIALS_TABLE}
        WHERE (username, password_sha256) > ($1, $2) ORDER BY username, password_sha256 LIMIT ${PAGE}`,
      after,
    );
    for (const row of rows) batch.push({ username: row.username, passwordHash: row.password_sha256 });
    if (batch.length >= CONVERSION_BATCH || (rows.length < PAGE && batch.length > 0)) {
      await repository.insert(batch);
      converted += batch.length;
      batch = [];
    }
    if (rows.length < PAGE) break;
    const last = rows[rows.length - 1];
    after = [last.username, last.password_sha256];
  }
  await dataSource.query(`DROP TABLE ${LEGACY_BREACHED_CREDENTIALS_TABLE}`);
  logger?.info({ breachedCredentials: converted }, 'breached credentials moved from the database to the on-disk store');
  return converted;
}
