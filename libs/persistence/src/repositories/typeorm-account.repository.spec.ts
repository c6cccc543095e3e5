import { itBehavesLikeAnAccountRepository } from '../test-support/account-repository.behaviour';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { TypeOrmAccountRepository } from './typeorm-account.repository';

describe(TypeOrmAccountRepository.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeAnAccountRepository(() => new TypeOrmAccountRepository(database.dataSource()));
});
