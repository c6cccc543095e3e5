import { itBehavesLikeAnAccountRepository } from '../test-support/account-repository.behaviour';
import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmAccountRepository } from './typeorm-account.repository';
import { ACCOUNT_STORE_SCHEMA } from '../account-store.schema';

describe(TypeOrmAccountRepository.name, () => {
  const database = usePostgresTestDatabase(ACCOUNT_STORE_SCHEMA);

  itBehavesLikeAnAccountRepository(() => new TypeOrmAccountRepository(database.dataSource()));
});
