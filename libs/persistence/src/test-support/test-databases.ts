import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DataSource } from 'typeorm';
import { openDataSource } from '../data-source.factory';
import type { OwnedSchema } from '../owned-schema';
import { migrationsOf, schemasOf } from '../persistence.schema';

/** A fresh PGlite data directory takes a few seconds to initialise on a slow machine. */
export const EMBEDDED_OPEN_TIMEOUT_MS = 60_000;

export interface TestDatabase {
  /** The open data source; only valid inside tests (after `beforeAll`). */
  dataSource(): DataSource;
}

export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/** A schema name no other run uses, so concurrent runs against one PostgreSQL never meet. */
export function uniqueTestSchema(): string {
  return `persistence_test_${randomBytes(6).toString('hex')}`;
}

export async function makeTempDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'ringfence-persistence-'));
}

/**
 * A temporary data directory holding a migrated embedded database, copied from a template
 * that the first test file of a run creates (a fresh PGlite directory takes seconds to
 * initialise; a copy takes milliseconds). The template's name includes the PGlite version and
 * the migrations, so it is rebuilt whenever either changes. Under jest the temporary directory is
 * the run's own (test/support/test-tmpdir.ts), removed with the template when the run ends; the
 * caller removes the data directory it gets.
 */
export async function makeMigratedDataDir(...schemas: OwnedSchema[]): Promise<string> {
  const template = join(tmpdir(), `ringfence-persistence-template-${templateVersion(schemas)}`);
  if (!existsSync(template)) {
    const building = await makeTempDataDir();
    const dataSource = await openDataSource({ dataDir: building, schemas });
    await dataSource.destroy();
    // Test files run in parallel workers: the first rename wins, the others discard theirs.
    await rename(building, template).catch(() => rm(building, { recursive: true, force: true }));
  }
  const dataDir = await makeTempDataDir();
  await cp(join(template, 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
  return dataDir;
}

function templateVersion(schemas: readonly OwnedSchema[]): string {
  const pglitePackage = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const { version } = JSON.parse(readFileSync(pglitePackage, 'utf8')) as { version: string };
  const migrations = migrationsOf(schemasOf(schemas)).map((migration) => migration.name).join(',');
  return createHash('sha256').update(`${version}|${migrations}`).digest('hex').slice(0, 16);
}

/**
 * One embedded database in a temporary directory for the whole file, removed afterwards, with the
 * shared tables and the given owners'.
 */
export function useEmbeddedTestDatabase(...schemas: OwnedSchema[]): TestDatabase {
  let dataDir: string | undefined;
  let dataSource: DataSource | undefined;
  beforeAll(async () => {
    dataDir = await makeMigratedDataDir(...schemas);
    dataSource = await openDataSource({ dataDir, schemas });
  }, EMBEDDED_OPEN_TIMEOUT_MS);
  afterAll(async () => {
    await dataSource?.destroy();
    if (dataDir !== undefined) {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
  return { dataSource: () => required(dataSource) };
}

/** One fresh schema on the test PostgreSQL for the whole file, dropped afterwards, with the shared tables and the given owners'. */
export function usePostgresTestDatabase(...schemas: OwnedSchema[]): TestDatabase {
  const schema = uniqueTestSchema();
  let dataSource: DataSource | undefined;
  beforeAll(async () => {
    dataSource = await openDataSource({ databaseUrl: testDatabaseUrl(), dataDir: tmpdir(), schema, schemas });
  });
  afterAll(async () => {
    if (dataSource !== undefined) {
      await dropSchema(dataSource, schema);
      await dataSource.destroy();
    }
  });
  return { dataSource: () => required(dataSource) };
}

export async function dropSchema(dataSource: DataSource, schema: string): Promise<void> {
  await dataSource.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

function required(dataSource: DataSource | undefined): DataSource {
  if (dataSource === undefined) {
    throw new Error('the test database is opened in beforeAll; use it inside a test');
  }
  return dataSource;
}

/**
 * Texts a store must give back exactly as it was given them: quotes, backslashes, control
 * characters, the record separator that joins JSON texts in one parameter (`jsonTextSequence`),
 * letters beyond ASCII.
 */
export const AWKWARD_TEXTS: readonly string[] = ['say "hi"', 'C:\\temp\\', 'tab\tnew\nline', 'before\u001eafter', '{"a":[1,2]}', 'ünïcödé ✓'];
