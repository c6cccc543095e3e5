import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDataSource } from '@ringfence/persistence';
import type { DataSource } from 'typeorm';

// The helpers of @ringfence/persistence's test-support are not exported (and a relative import
// across projects breaks the module boundaries), so this lib opens its databases itself.

/** A fresh PGlite directory is initialised and migrated in a few seconds on a slow machine. */
export const EMBEDDED_OPEN_TIMEOUT_MS = 60_000;

export interface TestDatabase {
  /** The open data source; only valid inside tests (after `beforeAll`). */
  dataSource(): DataSource;
}

/** One migrated embedded database in a temporary directory for the whole file, removed afterwards. */
export function useEmbeddedTestDatabase(): TestDatabase {
  let dataDir: string | undefined;
  let dataSource: DataSource | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ringfence-graph-store-'));
    dataSource = await openDataSource({ dataDir });
  }, EMBEDDED_OPEN_TIMEOUT_MS);
  afterAll(async () => {
    await dataSource?.destroy();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });
  return { dataSource: () => required(dataSource) };
}

/** One fresh, migrated schema on the test PostgreSQL for the whole file, dropped afterwards. */
export function usePostgresTestDatabase(): TestDatabase {
  const schema = `graph_store_test_${randomBytes(6).toString('hex')}`;
  let dataSource: DataSource | undefined;
  beforeAll(async () => {
    const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    dataSource = await openDataSource({ databaseUrl, dataDir: tmpdir(), schema });
  });
  afterAll(async () => {
    if (dataSource === undefined) return;
    await dataSource.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await dataSource.destroy();
  });
  return { dataSource: () => required(dataSource) };
}

function required(dataSource: DataSource | undefined): DataSource {
  if (dataSource === undefined) throw new Error('the test database is opened in beforeAll; use it inside a test');
  return dataSource;
}
