import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { ConsumerOffsetEntity } from './entities/consumer-offset.entity';
import { EntityDocumentEntity } from './entities/entity-document.entity';
import { EventLogEntryEntity } from './entities/event-log-entry.entity';
import { InitialSchema1763800000000 } from './migrations/1763800000000-initial-schema.migration';
import { EntityDocumentRevision1763900000000 } from './migrations/1763900000000-entity-document-revision.migration';

/** Every table this library owns, in both modes. */
export const PERSISTENCE_ENTITIES = [
  AccountEntity,
  ApiKeyEntity,
  EntityDocumentEntity,
  EventLogEntryEntity,
  ConsumerOffsetEntity,
];

/** Applied in order by `runMigrations`; never `synchronize`. */
export const PERSISTENCE_MIGRATIONS = [InitialSchema1763800000000, EntityDocumentRevision1763900000000];
