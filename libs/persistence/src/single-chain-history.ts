import { Migration, type MigrationExecutor, type QueryRunner } from 'typeorm';

/**
 * Recorded in `migrations` once a database is migrated by owners (every process of this version
 * records it): from then on each recorded name is exactly the migration of that name that ran.
 * A database without it and with migrations recorded was migrated by the single chain of
 * migrations that came before the owners, whose record must be read differently (below).
 */
export const OWNED_SCHEMAS_MARK = 'OwnedSchemas1765870000000';

/**
 * The migrations of the single chain that touched several owners' tables, and the parts split
 * from each into the other owners' schemas (`SplitMigration.splitFrom` names the same; a test
 * checks the two agree). The single chain is closed, so this never grows. Names only: the owners'
 * libraries depend on this one, not the other way round, and a process must record every owner's
 * parts, not only those of the services it runs.
 */
export const PARTS_SPLIT_FROM_SINGLE_CHAIN: Readonly<Record<string, readonly string[]>> = {
  InitialSchema1763800000000: ['InitialAccounts1763800000000', 'InitialEntityDocuments1763800000000'],
  StoredJsonAsText1764800000000: ['EventLogAsText1764800000000', 'EntityDocumentsAsText1764800000000'],
  ServiceTablesWithoutAccountKeys1765700000000: ['LookupIndicatorsWithoutAccountKey1765700000000', 'CallbackDeliveriesWithoutAccountKey1765700000000'],
};

/**
 * Before migrating: in a database of the single chain, records as applied every part split from
 * a multi-owner migration that chain ran (it ran the part's statements when it ran whole, and
 * running them again would fail or redo work), of every owner, then marks the database as
 * migrated by owners. The parts of a migration the chain never ran stay pending and run with
 * their owner's. In a database already marked, or a new one, a historical name recorded there
 * is the owner's part that ran (another app may have migrated it with other owners), so nothing
 * is inferred from it.
 */
export async function recordSingleChainHistory(queryRunner: QueryRunner, executor: MigrationExecutor, migrationsTable: string | null): Promise<void> {
  const recorded = migrationsTable === null ? new Set<string>() : await recordedNames(queryRunner, migrationsTable);
  if (recorded.has(OWNED_SCHEMAS_MARK)) return;
  for (const [historical, parts] of Object.entries(PARTS_SPLIT_FROM_SINGLE_CHAIN)) {
    if (!recorded.has(historical)) continue;
    for (const part of parts) if (!recorded.has(part)) await record(executor, part);
  }
  // A new database is marked too (after the executor creates the table): its history starts with owners.
  if (migrationsTable !== null) await record(executor, OWNED_SCHEMAS_MARK);
}

/** After migrating a new database: marks it as migrated by owners (see OWNED_SCHEMAS_MARK). */
export async function markNewDatabase(queryRunner: QueryRunner, executor: MigrationExecutor, migrationsTable: string): Promise<void> {
  if (!(await recordedNames(queryRunner, migrationsTable)).has(OWNED_SCHEMAS_MARK)) await record(executor, OWNED_SCHEMAS_MARK);
}

async function recordedNames(queryRunner: QueryRunner, migrationsTable: string): Promise<Set<string>> {
  return new Set(((await queryRunner.query(`SELECT name FROM ${migrationsTable}`)) as { name: string }[]).map((row) => row.name));
}

function record(executor: MigrationExecutor, name: string): Promise<void> {
  return executor.insertMigration(new Migration(undefined, Number(name.slice(-13)), name));
}
