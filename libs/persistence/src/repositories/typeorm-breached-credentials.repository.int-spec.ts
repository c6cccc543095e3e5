import { itBehavesLikeABreachedCredentialsRepository } from '../test-support/breached-credentials-repository.behaviour';
import { usePostgresTestDatabase } from '../test-support/test-databases';
import { TypeOrmBreachedCredentialsRepository } from './typeorm-breached-credentials.repository';

describe(TypeOrmBreachedCredentialsRepository.name, () => {
  const database = usePostgresTestDatabase();

  itBehavesLikeABreachedCredentialsRepository(() => new TypeOrmBreachedCredentialsRepository(database.dataSource()));
});
