import { itBehavesLikeALabelRepository } from '../test-support/label-repository.behaviour';
import { usePostgresTestDatabase } from '../test-support/test-databases';
import { TypeOrmLabelRepository } from './typeorm-label.repository';

describe(TypeOrmLabelRepository.name, () => {
  const database = usePostgresTestDatabase();

  itBehavesLikeALabelRepository(() => new TypeOrmLabelRepository(database.dataSource()));
});
