import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { PGlite as PGliteDatabase } from '@electric-sql/pglite';
import { Client, type ClientConfig } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { EmbeddedDataDirLock } from './embedded-data-dir.lock';
import { runMigrations } from './migration.runner';
import { loadCreatePgConfig } from './pglite.loader';
import { PGliteStatementBatcher } from './embedded/pglite-statement-batcher';
import { PGliteWorkerDatabase, initialiseDataDirectory } from './embedded/pglite-worker-database';
import { DatabaseUnavailableError } from './persistence-errors';
import {
  assertValidPersistenceOptions,
  POSTGRES_CONNECT_TIMEOUT_MS,
  POSTGRES_POOL_SIZE,
  redactDatabaseUrl,
  type PersistenceOptions,
} from './persistence.options';
import { entitiesOf, migrationsOf, schemasOf } from './persistence.schema';

/**
 * How long a query may wait for a connection, and how long a transaction on the embedded
 * database may sit idle while other connections wait before it is rolled back and its
 * connection ended (a query issued outside a transaction's own manager while that transaction
 * is open would otherwise deadlock, and a client that died inside one would stop the database).
 */
const EMBEDDED_SESSION_WAIT_MS = 10_000;

/**
 * Connections to the embedded database. They share PGlite's one session, whose worker runs
 * their statements back to back; with a single connection every statement waited for the main
 * thread to take the previous answer and hand the connection on, and the worker sat idle
 * between statements while requests queued.
 */
const EMBEDDED_SESSIONS = 16;

/**
 * Opens the database the options name, applies pending migrations, and returns the connected
 * DataSource. `destroy()` on it releases everything, the embedded database included.
 *
 * Both modes go through the same `pg` driver, so values come back in the same shapes
 * (bigint as a decimal string, timestamptz as Date, jsonb parsed). The embedded mode hands
 * `pg` PGlite's own node-postgres adapter, one per connection: PGlite is a single session, and
 * its worker keeps an open transaction to the connection that began it, as PostgreSQL would.
 *
 * @throws DatabaseUnavailableError when the database cannot be opened or reached (PostgreSQL:
 *   within about `POSTGRES_CONNECT_TIMEOUT_MS`).
 */
export async function openDataSource(options: PersistenceOptions): Promise<DataSource> {
  assertValidPersistenceOptions(options);
  const dataSource =
    options.databaseUrl === undefined
      ? await createEmbeddedDataSource(options)
      : createPostgresDataSource(options, options.databaseUrl);
  try {
    await dataSource.initialize();
  } catch (error: unknown) {
    await dataSource.destroy().catch(() => undefined);
    throw new DatabaseUnavailableError(`${describeDatabase(options)} is unavailable: ${reason(error)}`, {
      cause: error,
    });
  }
  try {
    await runMigrations(dataSource);
  } catch (error: unknown) {
    await dataSource.destroy().catch(() => undefined);
    throw error;
  }
  return dataSource;
}

/** Maps and migrates the shared tables and those of the owners the options name (`schemas`). */
function baseOptions(options: PersistenceOptions) {
  const schemas = schemasOf(options.schemas);
  return {
    type: 'postgres',
    entities: entitiesOf(schemas),
    migrations: migrationsOf(schemas),
    synchronize: false,
    migrationsRun: false,
    logging: options.logging ?? false,
    applicationName: 'ringfence',
  } satisfies Partial<PostgresConnectionOptions>;
}

function createPostgresDataSource(options: PersistenceOptions, databaseUrl: string): DataSource {
  return new DataSource({
    ...baseOptions(options),
    url: databaseUrl,
    schema: options.schema,
    poolSize: POSTGRES_POOL_SIZE,
    connectTimeoutMS: POSTGRES_CONNECT_TIMEOUT_MS,
    extra: {
      keepAlive: true,
      // Unqualified names in the repositories' SQL resolve to the configured schema.
      ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
    },
  });
}

async function createEmbeddedDataSource(options: PersistenceOptions): Promise<DataSource> {
  const directory = embeddedDirectory(options.dataDir);
  const createPgConfig = loadCreatePgConfig();
  let lock: EmbeddedDataDirLock | undefined;
  let database: PGliteWorkerDatabase | undefined;
  try {
    await mkdir(directory, { recursive: true });
    lock = await EmbeddedDataDirLock.acquire(`${directory}.lock`);
    await initialiseDataDirectory(directory);
    database = new PGliteWorkerDatabase(directory, EMBEDDED_SESSION_WAIT_MS);
    await database.waitReady;
  } catch (error: unknown) {
    await database?.close();
    await lock?.release();
    throw new DatabaseUnavailableError(`${describeDatabase(options)} could not be opened: ${reason(error)}`, {
      cause: error,
    });
  }
  return new EmbeddedDataSource(
    {
      ...baseOptions(options),
      poolSize: EMBEDDED_SESSIONS,
      extra: {
        Client: embeddedSessionClient(database, createPgConfig),
        max: EMBEDDED_SESSIONS,
        idleTimeoutMillis: 0,
        connectionTimeoutMillis: EMBEDDED_SESSION_WAIT_MS,
      },
    },
    database,
    lock,
  );
}

/**
 * A `pg` client class whose every connection is its own session of the worker's database, with
 * its own statement batcher (held messages must never mix between connections). PGlite's
 * adapter config carries one connection object, so it is made per client, not per pool.
 */
function embeddedSessionClient(database: PGliteWorkerDatabase, createPgConfig: ReturnType<typeof loadCreatePgConfig>): typeof Client {
  return class EmbeddedSessionClient extends Client {
    constructor(config?: ClientConfig) {
      // The batcher stands in for a PGlite instance: it has the members the adapter uses.
      const session = createPgConfig(new PGliteStatementBatcher(database.openSession()) as unknown as PGliteDatabase);
      super({ ...config, ...(session as unknown as ClientConfig) });
    }
  };
}

/** A DataSource that also closes the PGlite instance it runs on and releases its directory. */
class EmbeddedDataSource extends DataSource {
  constructor(
    options: PostgresConnectionOptions,
    private readonly embeddedDatabase: PGliteWorkerDatabase,
    private readonly lock: EmbeddedDataDirLock,
  ) {
    super(options);
  }

  override async destroy(): Promise<void> {
    try {
      if (this.isInitialized) {
        await super.destroy();
      }
    } finally {
      try {
        if (!this.embeddedDatabase.closed) {
          await this.embeddedDatabase.close();
        }
      } finally {
        await this.lock.release();
      }
    }
  }
}

function embeddedDirectory(dataDir: string): string {
  return join(resolve(dataDir), 'pgdata');
}

function describeDatabase(options: PersistenceOptions): string {
  return options.databaseUrl === undefined
    ? `the embedded database in ${embeddedDirectory(options.dataDir)}`
    : `PostgreSQL at ${redactDatabaseUrl(options.databaseUrl)}`;
}

// Duck-typed rather than `instanceof`: socket errors come from Node's own realm, which under
// jest is not the realm of the code that catches them.
function reason(error: unknown): string {
  if (typeof error !== 'object' || error === null) {
    return String(error);
  }
  const { errors, message, code } = error as { errors?: unknown; message?: unknown; code?: unknown };
  if (Array.isArray(errors) && errors.length > 0) {
    return errors.map(reason).join('; ');
  }
  if (typeof message === 'string' && message !== '') {
    return message;
  }
  return typeof code === 'string' ? code : String(error);
}
