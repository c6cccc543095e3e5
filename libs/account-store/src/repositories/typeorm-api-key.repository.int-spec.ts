import { itBehavesLikeAnApiKeyRepository } from '../test-support/api-key-repository.behaviour';
import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmAccountRepository } from './typeorm-account.repository';
import { TypeOrmApiKeyRepository } from './typeorm-api-key.repository';
import { ACCOUNT_STORE_SCHEMA } from '../account-store.schema';

describe(TypeOrmApiKeyRepository.name, () => {
  const database = usePostgresTestDatabase(ACCOUNT_STORE_SCHEMA);

  itBehavesLikeAnApiKeyRepository(() => ({
    accounts: new TypeOrmAccountRepository(database.dataSource()),
    keys: new TypeOrmApiKeyRepository(database.dataSource()),
  }));
});
