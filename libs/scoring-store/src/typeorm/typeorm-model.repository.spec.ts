import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { itBehavesLikeAModelRepository } from '../test-support/model-repository.behaviour';
import { TypeOrmModelRepository } from './typeorm-model.repository';

describe(TypeOrmModelRepository.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeAModelRepository(() => new TypeOrmModelRepository(database.dataSource()));
});
