import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { TypeOrmAccountRepository } from '@ringfence/account-store';
import { TypeOrmEntityDocumentRepository } from '@ringfence/entity-store';
import { DatabaseUnavailableError, type PersistenceOptions, TypeOrmEventLogStore, openDataSource as openSharedDataSource, runMigrations } from '@ringfence/persistence';
import {
  EMBEDDED_OPEN_TIMEOUT_MS,
  buildAccount,
  buildEntityDocument,
  buildEntityRef,
  buildEnvelope,
  buildTopic,
  makeTempDataDir,
} from '@ringfence/persistence/testing';
import { ALL_OWNERS, recordedMigrationNames } from './all-owners';

/** The database of a process that runs every service (the standalone app). */
const openDataSource = (options: PersistenceOptions) => openSharedDataSource({ ...options, schemas: ALL_OWNERS });

const TABLES = ['accounts', 'api_keys', 'consumer_offsets', 'entity_documents', 'event_log'];

/** The id of a process that has just exited, so no process runs under it. */
async function exitedProcessId(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

describe(openSharedDataSource.name, () => {
  let dataDir: string;
  const opened: DataSource[] = [];
  const open = async (options: { dataDir: string }) => {
    const dataSource = await openDataSource(options);
    opened.push(dataSource);
    return dataSource;
  };

  beforeAll(async () => {
    dataDir = join(await makeTempDataDir(), 'nested', 'data');
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((dataSource) => dataSource.destroy()));
  });

  afterAll(async () => {
    await rm(join(dataDir, '..', '..'), { recursive: true, force: true });
  });

  describe('in embedded mode', () => {
    it(
      "runs other connections' statements outside an open transaction, after it ends, never inside it",
      async () => {
        const dataSource = await open({ dataDir });
        await dataSource.query('CREATE TABLE IF NOT EXISTS session_probe (id text PRIMARY KEY)');
        const transaction = dataSource.createQueryRunner();
        await transaction.startTransaction();
        await transaction.query("INSERT INTO session_probe VALUES ('inside')");

        let outsideDone = false;
        const outside = dataSource.query("INSERT INTO session_probe VALUES ('outside')").then(() => (outsideDone = true));
        await new Promise((resolve) => setTimeout(resolve, 200));
        // Waiting: run now, it would have joined the transaction that is about to roll back.
        expect(outsideDone).toBe(false);
        await transaction.rollbackTransaction();
        await transaction.release();
        await outside;

        const rows = await dataSource.query<{ id: string }[]>('SELECT id FROM session_probe ORDER BY id');
        expect(rows.map((row) => row.id)).toEqual(['outside']);
        await dataSource.query('DROP TABLE session_probe');
      },
      EMBEDDED_OPEN_TIMEOUT_MS,
    );

    it(
      'runs statements of many connections at once',
      async () => {
        const dataSource = await open({ dataDir });
        const answers = await Promise.all(Array.from({ length: 64 }, (_, index) => dataSource.query<{ n: number }[]>('SELECT $1::int AS n', [index])));
        expect(answers.map(([row]) => row.n)).toEqual(Array.from({ length: 64 }, (_, index) => index));
      },
      EMBEDDED_OPEN_TIMEOUT_MS,
    );

    it(
      'creates the data directory and the tables in <dataDir>/pgdata',
      async () => {
        const dataSource = await open({ dataDir });

        expect(existsSync(join(dataDir, 'pgdata'))).toBe(true);
        const tables = await dataSource.query<{ table_name: string }[]>(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
        );
        expect(tables.map((table) => table.table_name)).toEqual(expect.arrayContaining(TABLES));
      },
      EMBEDDED_OPEN_TIMEOUT_MS,
    );

    it('leaves nothing for TypeORM to change: the entities describe the migrated schema', async () => {
      const dataSource = await open({ dataDir });

      const pending = await dataSource.driver.createSchemaBuilder().log();

      expect(pending.upQueries.map((query) => query.query)).toEqual([]);
    });

    it('keeps the data when the same data directory is closed and opened again', async () => {
      const account = buildAccount();
      const ref = buildEntityRef({ accountId: account.id });
      const document = buildEntityDocument();
      const topic = buildTopic();
      const envelope = buildEnvelope({ accountId: account.id });
      const before = await openDataSource({ dataDir });
      await new TypeOrmAccountRepository(before).insert(account);
      await new TypeOrmEntityDocumentRepository(before).update(ref, () => document);
      const sequence = await new TypeOrmEventLogStore(before).append(topic, 'key', envelope);
      await new TypeOrmEventLogStore(before).commitOffsets([{ group: 'ingestion', topic, sequence }]);
      await before.destroy();

      const after = await open({ dataDir });

      await expect(new TypeOrmAccountRepository(after).findById(account.id)).resolves.toEqual(account);
      await expect(new TypeOrmEntityDocumentRepository(after).find(ref)).resolves.toEqual(document);
      await expect(new TypeOrmEventLogStore(after).readAfter(topic, 0, 10)).resolves.toEqual([
        { sequence, topic, key: 'key', envelope },
      ]);
      await expect(new TypeOrmEventLogStore(after).committedOffset('ingestion', topic)).resolves.toBe(sequence);
      // Two openings of a new database, every migration applied by the first: seconds on a busy machine.
    }, 30_000);

    it('applies each migration once', async () => {
      const dataSource = await open({ dataDir });

      await expect(runMigrations(dataSource)).resolves.toEqual([]);
      const applied = await dataSource.query<{ name: string }[]>('SELECT name FROM migrations');
      expect(applied.map((row) => row.name)).toEqual(recordedMigrationNames());
    });

    it('refuses a data directory this process has open already', async () => {
      await open({ dataDir });

      await expect(openDataSource({ dataDir })).rejects.toThrow(/already open in this process/);
    });

    it('refuses a data directory another running process has open', async () => {
      const lockFile = join(dataDir, 'pgdata.lock');
      await writeFile(lockFile, `${process.ppid}\n`);
      try {
        const opening = openDataSource({ dataDir });

        await expect(opening).rejects.toThrow(DatabaseUnavailableError);
        await expect(opening).rejects.toThrow(`in use by process ${process.ppid}`);
      } finally {
        await rm(lockFile, { force: true });
      }
    });

    it('takes over the lock a process that no longer runs left behind', async () => {
      await writeFile(join(dataDir, 'pgdata.lock'), `${await exitedProcessId()}\n`);

      const dataSource = await open({ dataDir });

      expect(dataSource.isInitialized).toBe(true);
      await expect(readFile(join(dataDir, 'pgdata.lock'), 'utf8')).resolves.toBe(`${process.pid}\n`);
    });

    it('releases the data directory when closed', async () => {
      const dataSource = await openDataSource({ dataDir });

      await dataSource.destroy();

      expect(existsSync(join(dataDir, 'pgdata.lock'))).toBe(false);
    });

    it('fails with DatabaseUnavailableError naming the directory when it cannot be created', async () => {
      const file = join(dataDir, '..', 'a-file');
      await writeFile(file, 'not a directory');

      const opening = openDataSource({ dataDir: file });

      await expect(opening).rejects.toThrow(DatabaseUnavailableError);
      await expect(opening).rejects.toThrow(join(file, 'pgdata'));
    });
  });

  describe('options', () => {
    it.each([
      [{ dataDir: '/tmp', databaseUrl: 'mysql://localhost/test' }, /DATABASE_URL must be a postgres:\/\//],
      [{ dataDir: ' ' }, /DATA_DIR/],
      [{ dataDir: '/tmp', schema: 'tenant_a' }, /schema can only be chosen for PostgreSQL/],
      [{ dataDir: '/tmp', databaseUrl: 'postgres://localhost/test', schema: 'Robert"; DROP' }, /must match/],
    ])('refuses %j before opening anything', async (options, message) => {
      await expect(openDataSource(options)).rejects.toThrow(message);
    });
  });
});
