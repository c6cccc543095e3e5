import { itBehavesLikeABreachedCredentialsRepository } from '../test-support/breached-credentials-repository.behaviour';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { TypeOrmBreachedCredentialsRepository } from './typeorm-breached-credentials.repository';

describe(TypeOrmBreachedCredentialsRepository.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeABreachedCredentialsRepository(() => new TypeOrmBreachedCredentialsRepository(database.dataSource()));
});
