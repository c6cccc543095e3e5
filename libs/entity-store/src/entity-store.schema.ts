import type { OwnedSchema } from '@ringfence/persistence';
import { EntityDocumentEntity } from './entities/entity-document.entity';
import { InitialEntityDocuments1763800000000 } from './migrations/1763800000000-initial-entity-documents.migration';
import { EntityDocumentRevision1763900000000 } from './migrations/1763900000000-entity-document-revision.migration';
import { EntityDocumentsAsText1764800000000 } from './migrations/1764800000000-entity-documents-as-text.migration';

/** Ingestion's entity documents: `entity_documents`. */
export const ENTITY_STORE_SCHEMA: OwnedSchema = {
  owner: 'ingestion',
  entities: [EntityDocumentEntity],
  migrations: [InitialEntityDocuments1763800000000, EntityDocumentRevision1763900000000, EntityDocumentsAsText1764800000000],
};
