import { itBehavesLikeACallbackDeliveryRepository } from '../test-support/callback-delivery-repository.behaviour';
import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { InMemoryAccountRepository } from '@ringfence/accounts/testing';
import { TypeOrmCallbackDeliveryRepository } from './typeorm-callback-delivery.repository';
import { LABEL_STORE_SCHEMA } from '../label-store.schema';

describe(TypeOrmCallbackDeliveryRepository.name, () => {
  const database = usePostgresTestDatabase(LABEL_STORE_SCHEMA);

  itBehavesLikeACallbackDeliveryRepository(() => ({
    accounts: new InMemoryAccountRepository(),
    deliveries: new TypeOrmCallbackDeliveryRepository(database.dataSource()),
  }));
});
