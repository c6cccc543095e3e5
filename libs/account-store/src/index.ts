export { AccountStoreModule } from './account-store.module';
export { ACCOUNT_STORE_SCHEMA } from './account-store.schema';
export { TypeOrmAccountRepository } from './repositories/typeorm-account.repository';
export { TypeOrmApiKeyRepository } from './repositories/typeorm-api-key.repository';
export { TypeOrmCardKeyRepository } from './repositories/typeorm-card-key.repository';
export { TypeOrmSessionRepository, TypeOrmUserRepository } from './repositories/typeorm-people.repository';
