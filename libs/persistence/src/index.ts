export { openDataSource } from './data-source.factory';
export {
  type PersistenceOptions,
  type PersistenceLogger,
  PERSISTENCE_OPTIONS,
  POSTGRES_CONNECT_TIMEOUT_MS,
  POSTGRES_POOL_SIZE,
  SOLE_WRITER_CACHE_ENTRIES,
  cacheEntriesOf,
} from './persistence.options';
export { DatabaseUnavailableError, isDatabaseUnavailable, isRowRefusal } from './persistence-errors';
export { PersistenceModule } from './persistence.module';
export { DatabaseHealth, DATABASE_READY_TIMEOUT_MS } from './database-health.service';
export { StartupLoads } from './startup-loads';
export { type EntityClass, type MigrationClass, type OwnedSchema, type SplitMigration, OwnsTables, isSplitMigration, ownedSchemaOf, ownedSchemasOf } from './owned-schema';
export { SHARED_SCHEMA, schemasOf } from './persistence.schema';
export { runMigrations } from './migration.runner';
export { OWNED_SCHEMAS_MARK, PARTS_SPLIT_FROM_SINGLE_CHAIN } from './single-chain-history';
export { TypeOrmEventLogStore } from './repositories/typeorm-event-log.store';
export { convertLegacyBreachedCredentials } from './repositories/breached-credentials-conversion';
export { BACKGROUND_STATEMENT, background, bigintToNumber, jsonTextSequence, jsonTexts, nullableJsonTextSequence, nullableJsonTexts, queryJsonPage, queryRows } from './sql';
export { TypeOrmSetAsideStore } from './repositories/typeorm-set-aside.store';
// The owners' caches share these (a sole writer's in-memory state).
export { OvertakenReads } from './repositories/overtaken-reads';
export { SerialPerKey } from './repositories/serial-per-key';
export { StoredKeysFilter } from './repositories/stored-keys-filter';
