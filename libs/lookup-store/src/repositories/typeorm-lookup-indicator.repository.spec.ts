import { itBehavesLikeALookupIndicatorRepository } from '../test-support/lookup-indicator-repository.behaviour';
import { itCountsTheStoredEvidence } from '../test-support/stored-indicator-counts.behaviour';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { InMemoryAccountRepository } from '@ringfence/accounts/testing';
import { TypeOrmLookupIndicatorRepository } from './typeorm-lookup-indicator.repository';
import { LOOKUP_STORE_SCHEMA } from '../lookup-store.schema';

describe(TypeOrmLookupIndicatorRepository.name, () => {
  const database = useEmbeddedTestDatabase(LOOKUP_STORE_SCHEMA);

  itBehavesLikeALookupIndicatorRepository(() => ({
    accounts: new InMemoryAccountRepository(),
    lookup: new TypeOrmLookupIndicatorRepository(database.dataSource()),
  }));

  itCountsTheStoredEvidence(() => ({
    accounts: new InMemoryAccountRepository(),
    table: new TypeOrmLookupIndicatorRepository(database.dataSource()),
  }));
});
