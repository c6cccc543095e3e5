import type { Environment } from '@ringfence/contracts';
import type { EntityKind } from '@ringfence/entities';
import { EntitySchema } from 'typeorm';

export interface EntityDocumentRow {
  accountId: string;
  environment: Environment;
  kind: EntityKind;
  entityId: string;
  /** JSON, in `text`: read and written whole, never looked inside. */
  fields: string;
  /** JSON, in `text`: each leaf path's timestamp (epoch ms). */
  fieldTimestamps: string;
  /** Bumped by every write; updates are compare-and-set on it. */
  revision: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * `entity_documents`: one row per stored entity, keyed by tenant (account and environment)
 * first so that every lookup is a primary-key lookup inside one tenant's data.
 */
export const EntityDocumentEntity = new EntitySchema<EntityDocumentRow>({
  name: 'entity_document',
  tableName: 'entity_documents',
  columns: {
    accountId: { name: 'account_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_entity_documents' },
    environment: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_entity_documents' },
    kind: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_entity_documents' },
    entityId: { name: 'entity_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_entity_documents' },
    fields: { type: 'text' },
    fieldTimestamps: { name: 'field_timestamps', type: 'text' },
    revision: { type: 'bigint', default: 0 },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
    updatedAt: { name: 'updated_at', type: 'timestamptz', default: () => 'now()' },
  },
  checks: [{ name: 'chk_entity_documents_environment', expression: `environment IN ('test', 'live')` }],
});
