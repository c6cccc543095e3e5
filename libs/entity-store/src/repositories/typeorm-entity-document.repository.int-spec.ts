import type { EntityDocument } from '@ringfence/entities';
import { itBehavesLikeAnEntityDocumentRepository, itStoresManyWholeDocuments } from '../test-support/entity-document-repository.behaviour';
import { buildEntityDocument, buildEntityRef } from '@ringfence/persistence/testing';
import { waitUntilBlockedBy } from '@ringfence/persistence/testing';
import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmEntityDocumentRepository } from './typeorm-entity-document.repository';
import { ENTITY_STORE_SCHEMA } from '../entity-store.schema';

describe(TypeOrmEntityDocumentRepository.name, () => {
  const database = usePostgresTestDatabase(ENTITY_STORE_SCHEMA);

  itBehavesLikeAnEntityDocumentRepository(() => new TypeOrmEntityDocumentRepository(database.dataSource()));
  itStoresManyWholeDocuments(() => new TypeOrmEntityDocumentRepository(database.dataSource()));

  it('merges into the document another session created while it waited to insert', async () => {
    const repository = new TypeOrmEntityDocumentRepository(database.dataSource());
    const ref = buildEntityRef();
    const theirs = buildEntityDocument({ fields: { email: 'theirs@example.com' }, fieldTimestamps: { '/email': 1 } });
    const mine = buildEntityDocument({ fields: { phone: '+441234567890' }, fieldTimestamps: { '/phone': 2 } });
    const other = database.dataSource().createQueryRunner();
    await other.startTransaction();
    await other.query(
      `INSERT INTO entity_documents (account_id, environment, kind, entity_id, fields, field_timestamps)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [ref.accountId, ref.environment, ref.kind, ref.entityId, JSON.stringify(theirs.fields), JSON.stringify(theirs.fieldTimestamps)],
    );
    const merge = jest.fn((current: EntityDocument | null): EntityDocument => ({
      fields: { ...current?.fields, ...mine.fields },
      fieldTimestamps: { ...current?.fieldTimestamps, ...mine.fieldTimestamps },
    }));

    const updating = repository.update(ref, merge);
    await waitUntilBlockedBy(database.dataSource(), other);
    await other.commitTransaction();
    await other.release();

    const merged = {
      fields: { ...theirs.fields, ...mine.fields },
      fieldTimestamps: { ...theirs.fieldTimestamps, ...mine.fieldTimestamps },
    };
    await expect(updating).resolves.toEqual(merged);
    expect(merge.mock.calls).toEqual([[null], [theirs]]);
    await expect(repository.find(ref)).resolves.toEqual(merged);
  });
});
