import { itBehavesLikeACallbackDeliveryRepository } from '../test-support/callback-delivery-repository.behaviour';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { isRowRefusal } from '@ringfence/persistence';
import { InMemoryAccountRepository } from '@ringfence/accounts/testing';
import { TypeOrmCallbackDeliveryRepository } from './typeorm-callback-delivery.repository';
import { LABEL_STORE_SCHEMA } from '../label-store.schema';

describe(TypeOrmCallbackDeliveryRepository.name, () => {
  const database = useEmbeddedTestDatabase(LABEL_STORE_SCHEMA);

  itBehavesLikeACallbackDeliveryRepository(() => ({
    accounts: new InMemoryAccountRepository(),
    deliveries: new TypeOrmCallbackDeliveryRepository(database.dataSource()),
  }));

  // The labelling service sets such a delivery aside after its tries (ADR-0016); it must be
  // told apart from an outage, which leaves it pending.
  it.each([
    ['a NUL character in its body', { body: '{"subjectId":"cus-\u0000"}' }],
    ['a time past the timestamp column', { changedAt: 1e24 }],
  ])('refuses a delivery with %s as a row refusal', async (_case, overrides) => {
    const deliveries = new TypeOrmCallbackDeliveryRepository(database.dataSource());
    const refusal: unknown = await deliveries
      .record({
        deliveryId: 'dlv_refused',
        accountId: 'acc_refused',
        environment: 'live',
        sourceEventId: `evt-${Object.keys(overrides)[0]}`,
        url: 'https://hooks.merchant.example/',
        body: '{}',
        changedAt: Date.UTC(2030, 0, 1),
        createdAt: Date.UTC(2030, 0, 1),
        ...overrides,
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );

    expect(refusal).toBeInstanceOf(Error);
    expect(isRowRefusal(refusal)).toBe(true);
  });
});
