import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { itBehavesLikeAModelRepository } from '../test-support/model-repository.behaviour';
import { TypeOrmModelRepository } from './typeorm-model.repository';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';

describe(TypeOrmModelRepository.name, () => {
  const database = useEmbeddedTestDatabase(SCORING_STORE_SCHEMA);

  itBehavesLikeAModelRepository(() => new TypeOrmModelRepository(database.dataSource()));
});
