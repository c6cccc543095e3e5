import { Module } from '@nestjs/common';
import { DEVICE_REPOSITORY, ENTITY_DOCUMENT_REPOSITORY } from '@ringfence/entities';
import { OwnsTables, PERSISTENCE_OPTIONS, type PersistenceOptions, StartupLoads, cacheEntriesOf } from '@ringfence/persistence';
import { SetAsideRows } from '@ringfence/platform';
import { DataSource } from 'typeorm';
import { ENTITY_STORE_SCHEMA } from './entity-store.schema';
import { TypeOrmEntityDocumentRepository } from './repositories/typeorm-entity-document.repository';
import { WriteBehindEntityDocuments } from './repositories/write-behind-entity-document.repository';
import { TypeOrmDeviceRepository } from './repositories/typeorm-device.repository';
import { WriteBehindDeviceRecords } from './repositories/write-behind-device.repository';

/**
 * A sole writer keeps documents in memory and writes them behind, in one statement per flush;
 * with several ingestion processes every update is a compare-and-set on the table, whose answer
 * (the document as stored) the dispute pairing relies on.
 */
function entityDocuments(dataSource: DataSource, options: PersistenceOptions, startupLoads: StartupLoads, setAside: SetAsideRows) {
  const documents = new TypeOrmEntityDocumentRepository(dataSource);
  if (!options.soleWriter) return documents;
  const cacheEntries = cacheEntriesOf(options);
  const writeBehind = new WriteBehindEntityDocuments(documents, setAside, { cachedDocuments: cacheEntries });
  // Beside the start, with readiness waiting for it: documents are served meanwhile,
  // reading the table on every miss.
  options.logger?.info({ cachedDocuments: cacheEntries }, 'loading the stored entity keys and the most recent entity documents');
  const loading = writeBehind.loadStored().then((loaded) => {
    if (loaded.state === 'failed') options.logger?.warn({ err: loaded.error }, 'could not load the stored entity documents; checkpoints keep reading the table');
    else options.logger?.info({ entityDocuments: loaded }, 'stored entity keys and documents loaded: checkpoints read no entity from the table');
  });
  startupLoads.track('entity documents', loading);
  return writeBehind;
}

/** Device read models the same way: in memory and written behind by a sole writer, else a compare-and-set per update. */
function deviceRecords(dataSource: DataSource, options: PersistenceOptions, startupLoads: StartupLoads, setAside: SetAsideRows) {
  const records = new TypeOrmDeviceRepository(dataSource);
  if (!options.soleWriter) return records;
  const writeBehind = new WriteBehindDeviceRecords(records, setAside, cacheEntriesOf(options));
  const loading = writeBehind.loadStoredKeys().then(
    (keys) => options.logger?.info({ deviceKeys: keys }, 'stored device keys loaded: a first sight of a device reads no table'),
    (error: unknown) => options.logger?.warn({ err: error }, 'could not load the stored device keys; every device not in memory is read from the table'),
  );
  startupLoads.track('device keys', loading);
  return writeBehind;
}

/** Ingestion's entity documents over their table (`ENTITY_DOCUMENT_REPOSITORY`), and its device read models (`DEVICE_REPOSITORY`). */
@OwnsTables(ENTITY_STORE_SCHEMA)
@Module({
  providers: [
    { provide: ENTITY_DOCUMENT_REPOSITORY, inject: [DataSource, PERSISTENCE_OPTIONS, StartupLoads, SetAsideRows], useFactory: entityDocuments },
    { provide: DEVICE_REPOSITORY, inject: [DataSource, PERSISTENCE_OPTIONS, StartupLoads, SetAsideRows], useFactory: deviceRecords },
  ],
  exports: [ENTITY_DOCUMENT_REPOSITORY, DEVICE_REPOSITORY],
})
export class EntityStoreModule {}
