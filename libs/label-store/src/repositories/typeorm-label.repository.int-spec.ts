import { itBehavesLikeALabelRepository } from '../test-support/label-repository.behaviour';
import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmLabelRepository } from './typeorm-label.repository';
import { LABEL_STORE_SCHEMA } from '../label-store.schema';

describe(TypeOrmLabelRepository.name, () => {
  const database = usePostgresTestDatabase(LABEL_STORE_SCHEMA);

  itBehavesLikeALabelRepository(() => new TypeOrmLabelRepository(database.dataSource()));
});
