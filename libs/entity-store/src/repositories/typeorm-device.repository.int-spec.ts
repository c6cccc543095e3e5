import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { ENTITY_STORE_SCHEMA } from '../entity-store.schema';
import { itStoresDeviceRecords } from '../test-support/device-table.behaviour';
import { TypeOrmDeviceRepository } from './typeorm-device.repository';

describe(`${TypeOrmDeviceRepository.name} on PostgreSQL`, () => {
  const database = usePostgresTestDatabase(ENTITY_STORE_SCHEMA);

  itStoresDeviceRecords(() => new TypeOrmDeviceRepository(database.dataSource()));
});
