import { itBehavesLikeACallbackDeliveryRepository } from '../test-support/callback-delivery-repository.behaviour';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { TypeOrmAccountRepository } from './typeorm-account.repository';
import { TypeOrmCallbackDeliveryRepository } from './typeorm-callback-delivery.repository';

describe(TypeOrmCallbackDeliveryRepository.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeACallbackDeliveryRepository(() => ({
    accounts: new TypeOrmAccountRepository(database.dataSource()),
    deliveries: new TypeOrmCallbackDeliveryRepository(database.dataSource()),
  }));
});
