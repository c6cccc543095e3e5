import type { LabelUpdatedEvent } from '@ringfence/contracts';
import { CallbackDeliveries } from './callback-deliveries';
import { type CallbackTargetSettings, SettingsCallbackTargets } from './callback-targets';
import { InMemoryCallbackDeliveryRepository } from './test-support/in-memory-callback-delivery.repository';

const NOW = 1_763_800_000_000;
const DAY_MS = 24 * 3_600_000;

function buildLabelEvent(overrides: Partial<LabelUpdatedEvent> = {}): LabelUpdatedEvent {
  return {
    accountId: 'acc_1',
    environment: 'live',
    subjectKind: 'customer',
    subjectId: 'cus-1',
    category: 'PAYMENT_FRAUD',
    review: 'FRAUDSTER',
    previous: 'GENUINE',
    eventTime: NOW - 5,
    reviewer: { name: 'Grace', email: 'grace@merchant.example' },
    comment: 'chargeback',
    ...overrides,
  };
}

function setup(settings: CallbackTargetSettings | null = { callbackUrl: 'https://receiver.example/hook', callbackSecret: 'a-secret-of-16-chars' }) {
  const deliveries = new InMemoryCallbackDeliveryRepository();
  const callbacks = new CallbackDeliveries(deliveries, new SettingsCallbackTargets(async () => settings), { now: () => NOW });
  return { deliveries, callbacks };
}

describe(CallbackDeliveries.name, () => {
  it('records a pending delivery, due now, to the account URL with the ADR-0013 body in its order', async () => {
    const { deliveries, callbacks } = setup();

    await expect(callbacks.recordLabelChange('evt-1', buildLabelEvent())).resolves.toBe('recorded');

    expect(deliveries.rows).toEqual([
      {
        deliveryId: expect.stringMatching(/^dlv_[0-9A-Za-z]{20}$/),
        accountId: 'acc_1',
        environment: 'live',
        sourceEventId: 'evt-1',
        url: 'https://receiver.example/hook',
        body: expect.any(String),
        status: 'pending',
        attempts: [],
        nextAttemptAt: NOW,
        changedAt: NOW - 5,
        createdAt: NOW,
      },
    ]);
    expect(deliveries.rows[0].body).toBe(
      JSON.stringify({
        event: 'label.changed',
        accountId: 'acc_1',
        environment: 'live',
        subjectType: 'customer',
        subjectId: 'cus-1',
        category: 'PAYMENT_FRAUD',
        review: 'FRAUDSTER',
        previous: 'GENUINE',
        reviewer: { name: 'Grace', email: 'grace@merchant.example' },
        comment: 'chargeback',
        eventTime: new Date(NOW - 5).toISOString(),
      }),
    );
  });

  it('writes absent reviewer, comment and previous as null, and the time with milliseconds and Z', async () => {
    const { deliveries, callbacks } = setup();

    await callbacks.recordLabelChange('evt-1', buildLabelEvent({ subjectKind: 'supplier', category: 'SUPPLIER_FRAUD', review: 'FRAUDULENT', previous: null, reviewer: null, comment: null, eventTime: Date.UTC(2025, 10, 26, 9, 15, 2, 120) }));

    expect(JSON.parse(deliveries.rows[0].body)).toMatchObject({ subjectType: 'supplier', previous: null, reviewer: null, comment: null, eventTime: '2025-11-26T09:15:02.120Z' });
  });

  it('records the same label event once, however often it is delivered', async () => {
    const { deliveries, callbacks } = setup();

    await callbacks.recordLabelChange('evt-1', buildLabelEvent());
    await expect(callbacks.recordLabelChange('evt-1', buildLabelEvent())).resolves.toBe('duplicate');

    expect(deliveries.rows).toHaveLength(1);
  });

  it('records nothing for an account without a callback URL, or one that cleared it', async () => {
    for (const settings of [null, {}, { callbackUrl: null, callbackSecret: 'a-secret-of-16-chars' }]) {
      const { deliveries, callbacks } = setup(settings);

      await expect(callbacks.recordLabelChange('evt-1', buildLabelEvent())).resolves.toBe('no-callback-url');
      expect(deliveries.rows).toEqual([]);
    }
  });

  it('records nothing for a change older than the retry window (a consumer starting on old history)', async () => {
    const { deliveries, callbacks } = setup();

    await expect(callbacks.recordLabelChange('evt-1', buildLabelEvent({ eventTime: NOW - DAY_MS }))).resolves.toBe('expired');
    expect(deliveries.rows).toEqual([]);
  });
});
