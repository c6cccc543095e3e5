import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { itBehavesLikeACaseRepository, itFindsTheNextCaseByItsIndex } from '../test-support/case-repository.behaviour';
import { LABEL_STORE_SCHEMA } from '../label-store.schema';
import { TypeOrmCaseRepository } from './typeorm-case.repository';

describe(TypeOrmCaseRepository.name, () => {
  const database = useEmbeddedTestDatabase(LABEL_STORE_SCHEMA);

  itBehavesLikeACaseRepository(() => new TypeOrmCaseRepository(database.dataSource()));
  itFindsTheNextCaseByItsIndex(() => database.dataSource());
});
