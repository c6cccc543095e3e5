import type { INestMicroservice } from '@nestjs/common';
import { type Account, callbackTargetOf } from '@ringfence/accounts';
import type { MessageBus, RespondOptions, SubscribeOptions } from '@ringfence/bus';
import { startBusControllers } from '@ringfence/bus/testing';
import { CALLBACK_DELIVERY_REPOSITORY, type CallbackRequest, type CallbackResponse, SettingsCallbackTargets, verifyCallbackSignature } from '@ringfence/callbacks';
import { InMemoryCallbackDeliveryRepository } from '@ringfence/callbacks/testing';
import { type CallbackTargetRequest, EventTopics, type LabelUpdatedEvent, type MessageEnvelope, RpcTopics, StateGroups } from '@ringfence/contracts';
import { DEFAULT_ROW_ATTEMPTS, InMemorySetAsideStore, SetAsideRows, createLogger, loadConfig } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG, ROOT_LOGGER } from '@ringfence/service-runtime';
import { ReviewCallbacksController } from './review-callbacks.controller';
import { CALLBACK_DELIVERIES_WRITER, CALLBACK_SENDER, ReviewCallbacks } from './review-callbacks.service';
import { until as pollUntil } from '../../../../../test/tools/eventually';

type Handler = (message: MessageEnvelope<unknown>) => Promise<unknown>;

const SECRET = 'a-callback-secret-0123';
const running: INestMicroservice[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((microservice) => microservice.close()));
});

function labelEvent(overrides: Partial<LabelUpdatedEvent> = {}): LabelUpdatedEvent {
  return {
    accountId: 'acc_1',
    environment: 'live',
    subjectKind: 'customer',
    subjectId: 'cus-1',
    category: 'PAYMENT_FRAUD',
    review: 'FRAUDSTER',
    previous: null,
    eventTime: Date.now(),
    reviewer: { name: 'Grace' },
    comment: null,
    ...overrides,
  };
}

function envelope<T>(payload: T, overrides: Partial<MessageEnvelope<T>> = {}): MessageEnvelope<T> {
  return { eventId: 'evt-1', accountId: 'acc_1', environment: 'live', subjectId: 'cus-1', acceptedAt: Date.now(), traceId: 'trace-1', payload, ...overrides };
}

/** The callbacks controller on a recording bus, with an in-memory store and a receiver stand-in that answers 204. */
async function setup() {
  const account: Account = { id: 'acc_1', name: 'acme', industry: null, settings: { callbackUrl: 'https://hooks.acme.example/', callbackSecret: SECRET }, createdAt: new Date() };
  // The gateway's answers, from the account's settings as they are at each request.
  const registry = new SettingsCallbackTargets(async ({ accountId, environment }) => (accountId === account.id ? callbackTargetOf(account.settings, environment) : null));
  const targetRequests: Array<MessageEnvelope<CallbackTargetRequest>> = [];
  const deliveries = new InMemoryCallbackDeliveryRepository();
  const setAside = new InMemorySetAsideStore();
  const setAsideRows = new SetAsideRows(setAside);
  const sent: CallbackRequest[] = [];
  const sender = { post: async (request: CallbackRequest): Promise<CallbackResponse> => (sent.push(request), { httpStatus: 204, error: null }) };
  const subscriptions = new Map<string, { options: SubscribeOptions; handler: Handler }>();
  const responders = new Map<string, { options: RespondOptions; handler: Handler }>();
  const bus = {
    subscribe: (topic: string, options: SubscribeOptions, handler: Handler) => subscriptions.set(topic, { options, handler }),
    handle: (topic: string, options: RespondOptions, handler: Handler) => responders.set(topic, { options, handler }),
    start: async () => undefined,
    stop: async () => undefined,
    whenStarted: async () => true,
    request: async (topic: string, message: MessageEnvelope<CallbackTargetRequest>) => {
      if (topic !== RpcTopics.callbackTarget) throw new Error(`unexpected request on ${topic}`);
      targetRequests.push(message);
      const { signing } = message.payload;
      if (signing === undefined) return { callbackUrl: await registry.urlOf(message), signature: null };
      return registry.sign(message, signing.timestamp, signing.body);
    },
  } as unknown as MessageBus;
  running.push(
    await startBusControllers(bus, {
      controllers: [ReviewCallbacksController],
      providers: [
        ReviewCallbacks,
        { provide: CALLBACK_DELIVERY_REPOSITORY, useValue: deliveries },
        { provide: MESSAGE_BUS, useValue: bus },
        { provide: CALLBACK_SENDER, useValue: sender },
        { provide: RINGFENCE_CONFIG, useValue: loadConfig({}, { port: 0 }) },
        { provide: ROOT_LOGGER, useValue: createLogger({ level: 'silent', service: 'test' }) },
        { provide: SetAsideRows, useValue: setAsideRows },
      ],
    }),
  );
  const consume = (topic: string, message: MessageEnvelope<unknown>) => subscriptions.get(topic)!.handler(message);
  const request = (payload: unknown, overrides: Partial<MessageEnvelope<unknown>> = {}) => responders.get(RpcTopics.readCallbackDeliveries)!.handler(envelope(payload, overrides));
  return { account, deliveries, sent, subscriptions, responders, consume, request, targetRequests, setAside, setAsideRows };
}

/** Sending is asynchronous by design (off the consumer): the tests wait for the store to show it. */
const until = (condition: () => boolean, timeoutMs = 3_000): Promise<void> => pollUntil(condition, timeoutMs, { intervalMs: 5 });

describe(ReviewCallbacksController.name, () => {
  it('consumes both label topics and the payment reviews in the callbacks group, and answers the deliveries read in the labelling group once that group has caught up', async () => {
    const { subscriptions, responders } = await setup();

    expect([...subscriptions.keys()].sort()).toEqual([EventTopics.customerLabelUpdated, EventTopics.supplierLabelUpdated, EventTopics.paymentReviewed].sort());
    expect([...subscriptions.keys()].sort()).toEqual([...StateGroups.callbacks.topics].sort());
    for (const { options } of subscriptions.values()) expect(options).toEqual({ group: 'callbacks' });
    expect([...responders]).toEqual([[RpcTopics.readCallbackDeliveries, { options: { group: 'labelling', consistentWith: [StateGroups.callbacks] }, handler: expect.any(Function) }]]);
  });

  it('stores the delivery before the handler returns (so before the offset is committed), then sends it signed by the gateway, off the handler', async () => {
    const { deliveries, sent, consume, targetRequests } = await setup();

    await consume(EventTopics.customerLabelUpdated, envelope(labelEvent()));

    expect(deliveries.rows).toEqual([expect.objectContaining({ accountId: 'acc_1', environment: 'live', sourceEventId: 'evt-1', url: 'https://hooks.acme.example/' })]);
    // Sending is asynchronous by design: wait for the dispatcher.
    await until(() => deliveries.rows[0].status === 'delivered');
    const [request] = sent;
    expect(JSON.parse(request.body)).toMatchObject({ event: 'label.changed', subjectType: 'customer', subjectId: 'cus-1', reviewer: { name: 'Grace' } });
    expect(verifyCallbackSignature({ secret: SECRET, timestamp: request.headers['Ringfence-Timestamp'], body: request.body, signature: request.headers['Ringfence-Signature'] })).toBe(true);
    // The URL asked when the delivery was stored, then the attempt's signature; the secret itself never asked for.
    expect(targetRequests.map(({ accountId, payload }) => ({ accountId, payload }))).toEqual([
      { accountId: 'acc_1', payload: {} },
      { accountId: 'acc_1', payload: { signing: { timestamp: Number(request.headers['Ringfence-Timestamp']), body: request.body } } },
    ]);
  });

  it('delivers a payment review as payment.reviewed, once per event', async () => {
    const { deliveries, sent, consume } = await setup();
    const review = { accountId: 'acc_1', environment: 'live', transactionId: 'txn-1', customerId: 'cus-1', decision: 'decline', withdrawn: false, actor: 'ana@acme.example', comment: null, at: Date.now() };

    await consume(EventTopics.paymentReviewed, envelope(review));
    await consume(EventTopics.paymentReviewed, envelope(review));

    expect(deliveries.rows).toHaveLength(1);
    // Sending is asynchronous by design: wait for the dispatcher.
    await until(() => deliveries.rows[0].status === 'delivered');
    expect(JSON.parse(sent[0].body)).toEqual({ event: 'payment.reviewed', ...review, at: new Date(review.at).toISOString() });
  });

  it('stores a redelivered label event once', async () => {
    const { deliveries, consume } = await setup();

    await consume(EventTopics.supplierLabelUpdated, envelope(labelEvent({ subjectKind: 'supplier', category: 'SUPPLIER_FRAUD', review: 'FRAUDULENT' })));
    await consume(EventTopics.supplierLabelUpdated, envelope(labelEvent({ subjectKind: 'supplier', category: 'SUPPLIER_FRAUD', review: 'FRAUDULENT' })));

    expect(deliveries.rows).toHaveLength(1);
  });

  it('stores nothing for an account without a callback URL', async () => {
    const { account, deliveries, consume } = await setup();
    account.settings = { callbackUrl: null, callbackSecret: SECRET };

    await consume(EventTopics.customerLabelUpdated, envelope(labelEvent()));

    expect(deliveries.rows).toEqual([]);
  });

  it('skips an invalid label event instead of retrying it', async () => {
    const { deliveries, consume } = await setup();

    await expect(consume(EventTopics.customerLabelUpdated, envelope({ ...labelEvent(), review: 'MAYBE' }))).resolves.toBeUndefined();
    expect(deliveries.rows).toEqual([]);
  });

  it("answers the tenant's deliveries newest first, the body parsed, paged by before", async () => {
    const { deliveries, consume, request } = await setup();
    await consume(EventTopics.customerLabelUpdated, envelope(labelEvent({ subjectId: 'cus-1' }), { eventId: 'evt-1' }));
    await consume(EventTopics.customerLabelUpdated, envelope(labelEvent({ subjectId: 'cus-2' }), { eventId: 'evt-2' }));
    // Sending is asynchronous by design: wait for both to be delivered, so the answer is stable.
    await until(() => deliveries.rows.every((row) => row.status === 'delivered'));

    const page = (await request({ limit: 1 })) as { deliveries: Array<Record<string, unknown>> };
    const next = (await request({ limit: 1, before: page.deliveries[0].deliveryId })) as { deliveries: Array<Record<string, unknown>> };

    expect(page.deliveries).toEqual([
      {
        deliveryId: deliveries.rows[1].deliveryId,
        event: expect.objectContaining({ subjectId: 'cus-2' }),
        url: 'https://hooks.acme.example/',
        status: 'delivered',
        attempts: [{ at: expect.any(Number), httpStatus: 204, error: null, durationMs: expect.any(Number) }],
        nextAttemptAt: null,
        createdAt: expect.any(Number),
      },
    ]);
    expect(next.deliveries.map((delivery) => (delivery.event as { subjectId: string }).subjectId)).toEqual(['cus-1']);
    await expect(request({ limit: 10 }, { environment: 'test' })).resolves.toEqual({ deliveries: [] });
  });

  it('refuses a cursor that names none of the tenant’s deliveries, and an invalid page, naming the field', async () => {
    const { request } = await setup();

    await expect(request({ limit: 10, before: 'dlv_unknown' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/^before: /) });
    await expect(request({ limit: 0 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/limit/) });
  });

  describe('a delivery the table refuses (ADR-0016)', () => {
    /** The table refuses deliveries of events about `refusedSubject` as PostgreSQL refuses a NUL character, and everything while `down`. */
    function refusingTable(deliveries: InMemoryCallbackDeliveryRepository) {
      const table = { down: false, refusedSubject: 'cus-refused' as string | undefined };
      const record = deliveries.record.bind(deliveries);
      deliveries.record = async (delivery) => {
        if (table.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        if (table.refusedSubject !== undefined && delivery.body.includes(table.refusedSubject)) {
          throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
        }
        return record(delivery);
      };
      return table;
    }

    it('holds the label events back only for its tries: then it is set aside, and the next event is stored and sent', async () => {
      const { deliveries, consume, setAside } = await setup();
      refusingTable(deliveries);
      const refused = envelope(labelEvent({ subjectId: 'cus-refused' }), { eventId: 'evt-refused' });
      for (let delivery = 1; delivery < DEFAULT_ROW_ATTEMPTS; delivery += 1) await expect(consume(EventTopics.customerLabelUpdated, refused)).rejects.toThrow('not written yet');

      await expect(consume(EventTopics.customerLabelUpdated, refused)).resolves.toBeUndefined();

      expect(setAside.rows).toEqual([
        expect.objectContaining({ writer: CALLBACK_DELIVERIES_WRITER, accountId: 'acc_1', environment: 'live', key: JSON.stringify(['acc_1', 'live', 'evt-refused']), attempts: DEFAULT_ROW_ATTEMPTS }),
      ]);
      expect(setAside.rows[0].error).toContain('22021');
      await consume(EventTopics.customerLabelUpdated, envelope(labelEvent({ subjectId: 'cus-next' }), { eventId: 'evt-next' }));
      expect(deliveries.rows.map((row) => row.sourceEventId)).toEqual(['evt-next']);
      // Sending is asynchronous by design: wait for the dispatcher.
      await until(() => deliveries.rows[0].status === 'delivered');
    });

    it('sets nothing aside while the database is unavailable: the event is delivered again, and stored once it is back', async () => {
      const { deliveries, consume, setAside } = await setup();
      const table = refusingTable(deliveries);
      table.down = true;
      const event = envelope(labelEvent(), { eventId: 'evt-outage' });
      for (let delivery = 0; delivery < DEFAULT_ROW_ATTEMPTS + 2; delivery += 1) await expect(consume(EventTopics.customerLabelUpdated, event)).rejects.toThrow('not written yet');
      expect(setAside.rows).toEqual([]);

      table.down = false;
      await consume(EventTopics.customerLabelUpdated, event);
      expect(deliveries.rows.map((row) => row.sourceEventId)).toEqual(['evt-outage']);
    });

    it('stores a set-aside delivery when an operator replays it after the cause is fixed, and sends it', async () => {
      const { deliveries, consume, setAside, setAsideRows } = await setup();
      const table = refusingTable(deliveries);
      const refused = envelope(labelEvent({ subjectId: 'cus-refused' }), { eventId: 'evt-refused' });
      for (let delivery = 1; delivery < DEFAULT_ROW_ATTEMPTS; delivery += 1) await expect(consume(EventTopics.customerLabelUpdated, refused)).rejects.toThrow('not written yet');
      await consume(EventTopics.customerLabelUpdated, refused);
      const [entry] = setAside.rows;

      expect(await setAsideRows.replay(entry.id)).toEqual(expect.objectContaining({ outcome: 'not-written' }));
      table.refusedSubject = undefined;
      expect(await setAsideRows.replay(entry.id)).toEqual(expect.objectContaining({ outcome: 'written' }));

      expect(setAside.rows).toEqual([]);
      expect(deliveries.rows.map((row) => row.sourceEventId)).toEqual(['evt-refused']);
      // Sending is asynchronous by design: wait for the dispatcher.
      await until(() => deliveries.rows[0].status === 'delivered');
    });
  });
});
