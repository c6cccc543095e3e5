import { itBehavesLikeASetAsideStore } from '../test-support/set-aside-store.behaviour';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { TypeOrmSetAsideStore } from './typeorm-set-aside.store';

describe(TypeOrmSetAsideStore.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeASetAsideStore(() => new TypeOrmSetAsideStore(database.dataSource()));
});
