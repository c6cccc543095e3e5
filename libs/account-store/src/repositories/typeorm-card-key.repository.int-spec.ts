import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { ACCOUNT_STORE_SCHEMA } from '../account-store.schema';
import { itBehavesLikeACardKeyRepository } from '../test-support/card-key-repository.behaviour';
import { TypeOrmAccountRepository } from './typeorm-account.repository';
import { TypeOrmCardKeyRepository } from './typeorm-card-key.repository';

describe(TypeOrmCardKeyRepository.name, () => {
  const database = usePostgresTestDatabase(ACCOUNT_STORE_SCHEMA);

  itBehavesLikeACardKeyRepository(() => ({
    accounts: new TypeOrmAccountRepository(database.dataSource()),
    cardKeys: new TypeOrmCardKeyRepository(database.dataSource()),
  }));
});
