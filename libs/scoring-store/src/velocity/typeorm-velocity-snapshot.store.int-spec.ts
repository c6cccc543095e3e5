import { itBehavesLikeAVelocitySnapshotStore } from '../test-support/velocity-snapshot-store.behaviour';
import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmVelocitySnapshotStore } from './typeorm-velocity-snapshot.store';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';

describe(TypeOrmVelocitySnapshotStore.name, () => {
  const database = usePostgresTestDatabase(SCORING_STORE_SCHEMA);

  itBehavesLikeAVelocitySnapshotStore(() => new TypeOrmVelocitySnapshotStore(database.dataSource()));
});
