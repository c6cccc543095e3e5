import { itBehavesLikeAnApiKeyRepository } from '../test-support/api-key-repository.behaviour';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { TypeOrmAccountRepository } from './typeorm-account.repository';
import { TypeOrmApiKeyRepository } from './typeorm-api-key.repository';

describe(TypeOrmApiKeyRepository.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeAnApiKeyRepository(() => ({
    accounts: new TypeOrmAccountRepository(database.dataSource()),
    keys: new TypeOrmApiKeyRepository(database.dataSource()),
  }));
});
