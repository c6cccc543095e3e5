export { LookupStoreModule } from './lookup-store.module';
export { LOOKUP_STORE_SCHEMA } from './lookup-store.schema';
export { TypeOrmLookupIndicatorRepository } from './repositories/typeorm-lookup-indicator.repository';
export { TalliedLookupIndicatorRepository } from './repositories/tallied-lookup-indicator.repository';
