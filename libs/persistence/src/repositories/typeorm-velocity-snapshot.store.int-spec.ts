import { itBehavesLikeAVelocitySnapshotStore } from '../test-support/velocity-snapshot-store.behaviour';
import { usePostgresTestDatabase } from '../test-support/test-databases';
import { TypeOrmVelocitySnapshotStore } from './typeorm-velocity-snapshot.store';

describe(TypeOrmVelocitySnapshotStore.name, () => {
  const database = usePostgresTestDatabase();

  itBehavesLikeAVelocitySnapshotStore(() => new TypeOrmVelocitySnapshotStore(database.dataSource()));
});
