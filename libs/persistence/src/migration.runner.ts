import { MigrationExecutor, type DataSource, type QueryRunner } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { markNewDatabase, recordSingleChainHistory } from './single-chain-history';

/** First half of the advisory-lock key; the second is the schema, so schemas migrate apart. */
const MIGRATION_LOCK_NAMESPACE = 0x52_46_4d_47; // "RFMG"

/**
 * Applies the pending migrations, all in one transaction, and returns their names.
 *
 * Several processes starting at once against one PostgreSQL would race to create the
 * migrations table and apply the same migration; a session-level advisory lock, held on the
 * same connection that migrates, makes them take turns (the later ones find nothing to do).
 * PGlite implements advisory locks too, so both modes run the same code.
 *
 * Each process applies the migrations of the tables it owns (`OwnedSchema`), so two processes
 * may run different sets against one database; the record of what ran (`migrations`) is shared.
 * A database of the single chain that came before the owners first has the parts split from its
 * multi-owner migrations recorded (`recordSingleChainHistory`, single-chain-history.ts).
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const schema = (dataSource.options as PostgresConnectionOptions).schema ?? 'public';
  const queryRunner = dataSource.createQueryRunner('master');
  try {
    await queryRunner.query('SELECT pg_advisory_lock($1, hashtext($2))', [MIGRATION_LOCK_NAMESPACE, schema]);
    try {
      await createSchemaIfMissing(queryRunner, schema);
      const executor = new MigrationExecutor(dataSource, queryRunner);
      executor.transaction = 'all';
      const table = `"${schema.replaceAll('"', '""')}".migrations`;
      await recordSingleChainHistory(queryRunner, executor, await existingTable(queryRunner, table));
      const applied = await executor.executePendingMigrations();
      await markNewDatabase(queryRunner, executor, table);
      return applied.map((migration) => migration.name);
    } finally {
      await queryRunner.query('SELECT pg_advisory_unlock($1, hashtext($2))', [MIGRATION_LOCK_NAMESPACE, schema]);
    }
  } finally {
    await queryRunner.release();
  }
}

// Inside the lock: concurrent CREATE SCHEMA IF NOT EXISTS can fail. Looked up first because
// CREATE SCHEMA needs the CREATE privilege on the database even when the schema exists, which
// a least-privilege role using `public` does not have.
async function createSchemaIfMissing(queryRunner: QueryRunner, schema: string): Promise<void> {
  const existing = (await queryRunner.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])) as unknown[];
  if (existing.length === 0) {
    await queryRunner.query(`CREATE SCHEMA "${schema.replaceAll('"', '""')}"`);
  }
}

async function existingTable(queryRunner: QueryRunner, qualifiedName: string): Promise<string | null> {
  const [row] = (await queryRunner.query('SELECT to_regclass($1) AS "table"', [qualifiedName])) as { table: string | null }[];
  return row?.table ?? null;
}
