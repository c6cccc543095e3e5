import { TypeOrmAccountRepository } from '@ringfence/persistence';
import { itBehavesLikeAGraphStore } from '../test-support/graph-store.behaviour';
import { insertTestAccount } from '../test-support/test-accounts';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmGraphStore } from './typeorm-graph.store';

describe(`${TypeOrmGraphStore.name} on the embedded database`, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeAGraphStore(() => new TypeOrmGraphStore(database.dataSource()), {
    newAccountId: () => insertTestAccount(new TypeOrmAccountRepository(database.dataSource())),
  });
});
