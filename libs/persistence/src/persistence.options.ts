import type { OwnedSchema } from './owned-schema';

/** Where the relational data lives. The same tables and migrations serve both modes. */
export interface PersistenceOptions {
  /**
   * `postgres://…` (or `postgresql://…`): the distributed mode's PostgreSQL. When absent, the
   * embedded database (PGlite) under `dataDir` is used.
   */
  databaseUrl?: string;
  /** The embedded database lives in `<dataDir>/pgdata`; the directory is created if missing. */
  dataDir: string;
  /**
   * This process is the only one that writes the data (the embedded mode: one process, the
   * in-process bus). Caches of written state (current labels, entity documents) are then
   * coherent and are kept; with several processes (Kafka) they are not kept.
   */
  soleWriter?: boolean;
  /**
   * A sole writer's bounded state: entity documents, subjects' current labels and reported
   * indicators' evidence counts, each holds at most this many (`SOLE_WRITER_CACHE_ENTRIES` when absent).
   */
  cacheEntries?: number;
  /** Logs every SQL statement through TypeORM's logger. */
  logging?: boolean;
  /** Where start-up progress of the in-memory state (a sole writer's) is reported; pino fits. */
  logger?: PersistenceLogger;
  /**
   * Where this process finds the breached-credentials store (docs/credentials.md): `local`, the
   * on-disk store under `dataDir/credentials` (the embedded app; the lookup service); `remote`,
   * the lookup service's over HTTP (a distributed gateway); absent, this process never uses it.
   */
  credentials?: { mode: 'local'; key?: string } | { mode: 'remote'; lookupUrl: string; internalKey: string };
  /**
   * The services' tables this process keeps besides the shared ones (`ownedSchemasOf` the
   * service modules it runs): only these are migrated and mapped. None: the shared tables alone.
   */
  schemas?: readonly OwnedSchema[];
  /**
   * PostgreSQL only: the schema that holds the tables (default `public`). Lets several
   * installations, or test runs, share one database without seeing each other's data.
   */
  schema?: string;
}

/** The options `PersistenceModule.forRoot` was given, for the owners' store modules. */
export const PERSISTENCE_OPTIONS = Symbol('PersistenceOptions');

/** How many entries each of a sole writer's caches holds (the options', or the default). */
export function cacheEntriesOf(options: PersistenceOptions): number {
  return options.cacheEntries ?? SOLE_WRITER_CACHE_ENTRIES;
}

export interface PersistenceLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * Subjects whose current labels, entity documents, and reported indicators whose evidence counts
 * a sole writer keeps in memory, each (least recently used go first), unless `cacheEntries` says.
 */
export const SOLE_WRITER_CACHE_ENTRIES = 200_000;

/** Connections the distributed mode keeps to PostgreSQL per process. */
export const POSTGRES_POOL_SIZE = 10;

/**
 * A PostgreSQL that is down or unreachable fails the start (and a pool checkout) within this
 * time instead of hanging.
 */
export const POSTGRES_CONNECT_TIMEOUT_MS = 2_500;

const POSTGRES_URL = /^postgres(ql)?:\/\//;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Rejects options that cannot work, naming the setting, before anything is opened. */
export function assertValidPersistenceOptions(options: PersistenceOptions): void {
  if (options.databaseUrl !== undefined && !POSTGRES_URL.test(options.databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  if (options.databaseUrl === undefined && options.dataDir.trim() === '') {
    throw new Error('DATA_DIR must name a directory for the embedded database');
  }
  if (options.schema !== undefined) {
    if (options.databaseUrl === undefined) {
      throw new Error('a database schema can only be chosen for PostgreSQL (DATABASE_URL)');
    }
    if (!SCHEMA_NAME.test(options.schema)) {
      throw new Error(`database schema "${options.schema}" must match ${SCHEMA_NAME.source}`);
    }
  }
}

/** The database URL without its password, for messages and logs. */
export function redactDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password !== '') {
      url.password = '***';
    }
    return url.toString();
  } catch {
    return 'an unparseable DATABASE_URL';
  }
}
