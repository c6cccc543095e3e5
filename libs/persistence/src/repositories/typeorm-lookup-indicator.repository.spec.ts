import { itBehavesLikeALookupIndicatorRepository } from '../test-support/lookup-indicator-repository.behaviour';
import { itCountsTheStoredEvidence } from '../test-support/stored-indicator-counts.behaviour';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { TypeOrmAccountRepository } from './typeorm-account.repository';
import { TypeOrmLookupIndicatorRepository } from './typeorm-lookup-indicator.repository';

describe(TypeOrmLookupIndicatorRepository.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeALookupIndicatorRepository(() => ({
    accounts: new TypeOrmAccountRepository(database.dataSource()),
    lookup: new TypeOrmLookupIndicatorRepository(database.dataSource()),
  }));

  itCountsTheStoredEvidence(() => ({
    accounts: new TypeOrmAccountRepository(database.dataSource()),
    table: new TypeOrmLookupIndicatorRepository(database.dataSource()),
  }));
});
