import { itBehavesLikeAVelocitySnapshotStore } from '../test-support/velocity-snapshot-store.behaviour';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { TypeOrmVelocitySnapshotStore } from './typeorm-velocity-snapshot.store';

describe(TypeOrmVelocitySnapshotStore.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeAVelocitySnapshotStore(() => new TypeOrmVelocitySnapshotStore(database.dataSource()));
});
