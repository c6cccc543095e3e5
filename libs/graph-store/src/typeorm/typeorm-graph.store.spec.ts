import { InMemoryAccountRepository } from '@ringfence/accounts/testing';
import { itBehavesLikeAGraphStore } from '../test-support/graph-store.behaviour';
import { insertTestAccount } from '../test-support/test-accounts';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmGraphStore } from './typeorm-graph.store';
import { GRAPH_STORE_SCHEMA } from '../graph-store.schema';

describe(`${TypeOrmGraphStore.name} on the embedded database`, () => {
  const database = useEmbeddedTestDatabase(GRAPH_STORE_SCHEMA);

  itBehavesLikeAGraphStore(() => new TypeOrmGraphStore(database.dataSource()), {
    newAccountId: () => insertTestAccount(new InMemoryAccountRepository()),
  });
});
