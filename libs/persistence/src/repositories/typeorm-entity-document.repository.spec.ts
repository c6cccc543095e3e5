import { itBehavesLikeAnEntityDocumentRepository, itStoresManyWholeDocuments } from '../test-support/entity-document-repository.behaviour';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { TypeOrmEntityDocumentRepository } from './typeorm-entity-document.repository';

describe(TypeOrmEntityDocumentRepository.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeAnEntityDocumentRepository(() => new TypeOrmEntityDocumentRepository(database.dataSource()));
  itStoresManyWholeDocuments(() => new TypeOrmEntityDocumentRepository(database.dataSource()));
});
