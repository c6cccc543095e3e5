import type { OwnedSchema } from '@ringfence/persistence';
import { EntityDocumentEntity } from './entities/entity-document.entity';
import { InitialEntityDocuments1763800000000 } from './migrations/1763800000000-initial-entity-documents.migration';
import { EntityDocumentRevision1763900000000 } from './migrations/1763900000000-entity-document-revision.migration';
import { EntityDocumentsAsText1764800000000 } from './migrations/1764800000000-entity-documents-as-text.migration';
import { DeviceRecordEntity } from './entities/device-record.entity';
import { DeviceRecords1766040000000 } from './migrations/1766040000000-device-records.migration';

/** Ingestion's entity documents (`entity_documents`) and device read models (`device_records`). */
export const ENTITY_STORE_SCHEMA: OwnedSchema = {
  owner: 'ingestion',
  entities: [EntityDocumentEntity, DeviceRecordEntity],
  migrations: [InitialEntityDocuments1763800000000, EntityDocumentRevision1763900000000, EntityDocumentsAsText1764800000000, DeviceRecords1766040000000],
};
