import { itBehavesLikeAnAccountRepository } from '../test-support/account-repository.behaviour';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmAccountRepository } from './typeorm-account.repository';
import { ACCOUNT_STORE_SCHEMA } from '../account-store.schema';

describe(TypeOrmAccountRepository.name, () => {
  const database = useEmbeddedTestDatabase(ACCOUNT_STORE_SCHEMA);

  itBehavesLikeAnAccountRepository(() => new TypeOrmAccountRepository(database.dataSource()));
});
