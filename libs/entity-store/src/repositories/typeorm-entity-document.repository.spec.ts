import { itBehavesLikeAnEntityDocumentRepository, itStoresManyWholeDocuments } from '../test-support/entity-document-repository.behaviour';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmEntityDocumentRepository } from './typeorm-entity-document.repository';
import { ENTITY_STORE_SCHEMA } from '../entity-store.schema';

describe(TypeOrmEntityDocumentRepository.name, () => {
  const database = useEmbeddedTestDatabase(ENTITY_STORE_SCHEMA);

  itBehavesLikeAnEntityDocumentRepository(() => new TypeOrmEntityDocumentRepository(database.dataSource()));
  itStoresManyWholeDocuments(() => new TypeOrmEntityDocumentRepository(database.dataSource()));
});
