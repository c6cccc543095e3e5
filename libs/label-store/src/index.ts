export { LabelStoreModule } from './label-store.module';
export { LABEL_STORE_SCHEMA } from './label-store.schema';
export { TypeOrmLabelRepository } from './repositories/typeorm-label.repository';
export { CachingLabelRepository } from './repositories/caching-label.repository';
export { TypeOrmCallbackDeliveryRepository } from './repositories/typeorm-callback-delivery.repository';
export { TypeOrmCaseRepository } from './repositories/typeorm-case.repository';
