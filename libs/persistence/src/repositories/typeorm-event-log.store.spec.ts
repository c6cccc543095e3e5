import { itBehavesLikeAnEventLogStore } from '../test-support/event-log-store.behaviour';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { TypeOrmEventLogStore } from './typeorm-event-log.store';

describe(TypeOrmEventLogStore.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeAnEventLogStore(() => new TypeOrmEventLogStore(database.dataSource()));
});
