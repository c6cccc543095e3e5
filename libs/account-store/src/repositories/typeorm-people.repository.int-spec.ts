import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { ACCOUNT_STORE_SCHEMA } from '../account-store.schema';
import { itBehavesLikePeopleRepositories } from '../test-support/people-repository.behaviour';
import { TypeOrmAccountRepository } from './typeorm-account.repository';
import { TypeOrmSessionRepository, TypeOrmUserRepository } from './typeorm-people.repository';

describe('TypeOrm people repositories', () => {
  const database = usePostgresTestDatabase(ACCOUNT_STORE_SCHEMA);

  itBehavesLikePeopleRepositories(() => ({
    accounts: new TypeOrmAccountRepository(database.dataSource()),
    users: new TypeOrmUserRepository(database.dataSource()),
    sessions: new TypeOrmSessionRepository(database.dataSource()),
  }));
});
