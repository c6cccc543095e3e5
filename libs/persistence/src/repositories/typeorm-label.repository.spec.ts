import { itBehavesLikeALabelRepository } from '../test-support/label-repository.behaviour';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { TypeOrmLabelRepository } from './typeorm-label.repository';

describe(TypeOrmLabelRepository.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeALabelRepository(() => new TypeOrmLabelRepository(database.dataSource()));
});
