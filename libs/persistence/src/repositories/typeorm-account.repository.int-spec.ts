import { itBehavesLikeAnAccountRepository } from '../test-support/account-repository.behaviour';
import { usePostgresTestDatabase } from '../test-support/test-databases';
import { TypeOrmAccountRepository } from './typeorm-account.repository';

describe(TypeOrmAccountRepository.name, () => {
  const database = usePostgresTestDatabase();

  itBehavesLikeAnAccountRepository(() => new TypeOrmAccountRepository(database.dataSource()));
});
