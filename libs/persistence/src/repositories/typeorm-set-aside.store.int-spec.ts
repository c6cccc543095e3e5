import { itBehavesLikeASetAsideStore } from '../test-support/set-aside-store.behaviour';
import { usePostgresTestDatabase } from '../test-support/test-databases';
import { TypeOrmSetAsideStore } from './typeorm-set-aside.store';

describe(TypeOrmSetAsideStore.name, () => {
  const database = usePostgresTestDatabase();

  itBehavesLikeASetAsideStore(() => new TypeOrmSetAsideStore(database.dataSource()));
});
