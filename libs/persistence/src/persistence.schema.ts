import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { ConsumerOffsetEntity } from './entities/consumer-offset.entity';
import { EntityDocumentEntity } from './entities/entity-document.entity';
import { EventLogEntryEntity } from './entities/event-log-entry.entity';
import { LookupEvidenceEntity, LookupIndicatorEntity } from './entities/lookup-indicator.entity';
import { LabelEntity, LabelHistoryEntity } from './entities/label.entity';
import { CallbackDeliveryEntity } from './entities/callback-delivery.entity';
import { InitialSchema1763800000000 } from './migrations/1763800000000-initial-schema.migration';
import { EntityDocumentRevision1763900000000 } from './migrations/1763900000000-entity-document-revision.migration';
import { LookupIndicators1764200000000 } from './migrations/1764200000000-lookup-indicators.migration';
import { BreachedCredentials1764210000000 } from './migrations/1764210000000-breached-credentials.migration';
import { Labels1764100000000 } from './migrations/1764100000000-labels.migration';
import { GraphStore1764300000000 } from './migrations/1764300000000-graph-store.migration';
import { GraphTransactionDisputes1764400000000 } from './migrations/1764400000000-graph-transaction-disputes.migration';
import { CallbackDeliveries1764600000000 } from './migrations/1764600000000-callback-deliveries.migration';
import { Velocity1764710000000 } from './migrations/1764710000000-velocity.migration';
import { Rules1764500000000 } from './migrations/1764500000000-rules.migration';
import { DecisionRecords1764510000000 } from './migrations/1764510000000-decision-records.migration';
import { StoredJsonAsText1764800000000 } from './migrations/1764800000000-stored-json-as-text.migration';
import { GraphMerchantCustomers1764900000000 } from './migrations/1764900000000-graph-merchant-customers.migration';
import { Models1765000000000 } from './migrations/1765000000000-models.migration';
import { DecisionRecordListing1765100000000 } from './migrations/1765100000000-decision-record-listing.migration';
import { BreachedCredentialsToStore1765500000000 } from './migrations/1765500000000-breached-credentials-to-store.migration';
import { LookupEvidenceIndustry1765600000000 } from './migrations/1765600000000-lookup-evidence-industry.migration';
import { ServiceTablesWithoutAccountKeys1765700000000 } from './migrations/1765700000000-service-tables-without-account-keys.migration';
import { SetAsideRows1765800000000 } from './migrations/1765800000000-set-aside-rows.migration';
import { RuleSuspensions1765810000000 } from './migrations/1765810000000-rule-suspensions.migration';
import { ModelCandidates1765860000000 } from './migrations/1765860000000-model-candidates.migration';

/** Every table this library owns, in both modes. */
export const PERSISTENCE_ENTITIES = [
  AccountEntity,
  ApiKeyEntity,
  EntityDocumentEntity,
  EventLogEntryEntity,
  ConsumerOffsetEntity,
  LookupIndicatorEntity,
  LookupEvidenceEntity,
  LabelEntity,
  LabelHistoryEntity,
  CallbackDeliveryEntity,
];

/** Applied in order by `runMigrations`; never `synchronize`. */
export const PERSISTENCE_MIGRATIONS = [InitialSchema1763800000000, EntityDocumentRevision1763900000000, Labels1764100000000, LookupIndicators1764200000000, BreachedCredentials1764210000000, GraphStore1764300000000, GraphTransactionDisputes1764400000000, Rules1764500000000, DecisionRecords1764510000000, CallbackDeliveries1764600000000, Velocity1764710000000, StoredJsonAsText1764800000000, GraphMerchantCustomers1764900000000, Models1765000000000, DecisionRecordListing1765100000000, BreachedCredentialsToStore1765500000000, LookupEvidenceIndustry1765600000000, ServiceTablesWithoutAccountKeys1765700000000, SetAsideRows1765800000000, RuleSuspensions1765810000000, ModelCandidates1765860000000];
