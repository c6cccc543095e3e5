export { EntityStoreModule } from './entity-store.module';
export { ENTITY_STORE_SCHEMA } from './entity-store.schema';
export { TypeOrmEntityDocumentRepository } from './repositories/typeorm-entity-document.repository';
export { WriteBehindEntityDocuments } from './repositories/write-behind-entity-document.repository';
export { TypeOrmDeviceRepository, type DeviceWrite } from './repositories/typeorm-device.repository';
export { DEVICE_RECORDS_WRITER, WriteBehindDeviceRecords } from './repositories/write-behind-device.repository';
