export { openDataSource } from './data-source.factory';
export {
  type PersistenceOptions,
  POSTGRES_CONNECT_TIMEOUT_MS,
  POSTGRES_POOL_SIZE,
} from './persistence.options';
export { DatabaseUnavailableError, isDatabaseUnavailable } from './persistence-errors';
export { PersistenceModule } from './persistence.module';
export { DatabaseHealth, DATABASE_READY_TIMEOUT_MS } from './database-health.service';
export { StartupLoads } from './startup-loads';
export { TypeOrmAccountRepository } from './repositories/typeorm-account.repository';
export { TypeOrmApiKeyRepository } from './repositories/typeorm-api-key.repository';
export { TypeOrmEntityDocumentRepository } from './repositories/typeorm-entity-document.repository';
export { TypeOrmEventLogStore } from './repositories/typeorm-event-log.store';
export { TypeOrmLabelRepository } from './repositories/typeorm-label.repository';
export { TypeOrmCallbackDeliveryRepository } from './repositories/typeorm-callback-delivery.repository';
export { TypeOrmLookupIndicatorRepository } from './repositories/typeorm-lookup-indicator.repository';
export { convertLegacyBreachedCredentials } from './repositories/breached-credentials-conversion';
export { BACKGROUND_STATEMENT, background, bigintToNumber, jsonTextSequence, jsonTexts, queryJsonPage, queryRows } from './sql';
export { TypeOrmVelocitySnapshotStore } from './repositories/typeorm-velocity-snapshot.store';
export * from './repositories/velocity-snapshot.store';
export { isRowRefusal } from './persistence-errors';
export { TypeOrmSetAsideStore } from './repositories/typeorm-set-aside.store';
