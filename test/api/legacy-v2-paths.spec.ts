import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { type Checkpoint, EventTopics } from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository, type EntityKind } from '@ringfence/entities';
import { type FeatureValue, featuresFromRecord } from '@ringfence/scoring-engine';
import { type EmbeddedService, TEST_ADMIN_KEY, eventually, startEmbeddedService } from '../support/embedded-service';

// Answers are free-form JSON, read by path in these tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;
type Account = { accountId: string; keys: { secretTest: string; publishableTest: string } };

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;
const HOUR = 3_600_000;

/** The original service's other v2 paths (docs/api.md, "Other v2 paths of the original service"), through the embedded app over HTTPS. */
describe('other v2 paths of the original service (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;

  beforeAll(async () => {
    service = await startEmbeddedService();
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('legacy-v2') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    account = created.body;
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = (method: string, path: string, body?: unknown, apiKey = account.keys.secretTest) => service.client.send<Body>({ method, path, body, apiKey });
  const post = (path: string, body: unknown, apiKey?: string) => send('POST', path, body, apiKey);
  const get = (path: string) => send('GET', path);
  const customerRecord = (customerId: string) => get(`/v2/customer/${encodeURIComponent(customerId)}`);
  const connectFeatures = (customerId: string) => post('/v2/connect?features=true', { timestamp: Date.now(), customerId });
  const networkValues = async (customerId: string, type: string) =>
    ((await get(`/v2/customer/${encodeURIComponent(customerId)}/network`)).body.data.nodes as Array<{ type: string; value: string }>)
      .filter((node) => node.type === type)
      .map((node) => node.value);
  // The entity store itself (not an API read) is written by the ingestion consumer asynchronously
  // by design, so only this is polled; the API's own reads are asserted on the next request.
  const stored = (kind: EntityKind, entityId: string) =>
    eventually(() => service.app.get<EntityDocumentRepository>(ENTITY_DOCUMENT_REPOSITORY).find({ accountId: account.accountId, environment: 'test', kind, entityId }));
  /** This account's decision events on a topic (the gateway publishes each before answering). */
  const decisions = async (topic: string) =>
    (await service.app.get<EventLogStore>(EVENT_LOG_STORE).readAfter(topic, 0, 100_000))
      .map((event) => event.envelope)
      .filter((envelope) => envelope.accountId === account.accountId)
      .map((envelope) => envelope.payload as { checkpoint: Checkpoint; recommendation: Body; features: Record<string, FeatureValue> });
  const featuresOf = (decision: { checkpoint: Checkpoint; features: Record<string, FeatureValue> }) => featuresFromRecord(decision.checkpoint, decision.features) as Body;
  const expectAcknowledged = (response: { status: number; body: Body }) => expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { status: 200, timestamp: expect.any(Number) } });

  const transactionBody = (transactionId: string, overrides: Body = {}) => ({
    timestamp: Date.now(),
    transaction: { transactionId, amount: 1999, currency: 'GBP', type: 'auth', success: true, gateway: 'stripe' },
    ...overrides,
  });

  describe('POST /v2/order', () => {
    it('keeps the order with its customer and links the order’s e-mail to the customer in the graph', async () => {
      const customerId = newId('cus-order');
      const orderId = newId('ord');
      const email = `${orderId}@example.com`;
      expectAcknowledged(await post('/v2/order', { timestamp: Date.now(), customerId, order: { orderId, price: 2447, currency: 'GBP', email, status: { stage: 'pending' } }, deviceId: newId('dev') }));

      expect((await customerRecord(customerId)).status).toBe(200);
      expect(await networkValues(customerId, 'email')).toEqual([email]);
      expect((await stored('order', orderId)).fields).toMatchObject({ customerId, price: 2447, currency: 'GBP', status: { stage: 'pending' } });
    });

    it('with ?score=true answers the customer checkpoint, on the decision feed', async () => {
      const customerId = newId('cus-order-scored');
      const response = await post('/v2/order?score=true', { timestamp: Date.now(), customer: { customerId, email: `${customerId}@example.com` }, order: { orderId: newId('ord') } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ customerId, action: expect.stringMatching(/ALLOW|REVIEW|PREVENT/), scoreId: expect.stringMatching(/^scr_/) });
      const decided = (await decisions(EventTopics.customerScored)).filter((decision) => decision.recommendation.customerId === customerId);
      expect(decided.map((decision) => decision.recommendation.scoreId)).toEqual([response.body.data.scoreId]);
      expect((await get(`/v2/decisions/${response.body.data.scoreId as string}`)).status).toBe(200);
    });
  });

  describe('POST /v2/login', () => {
    it('links the devices a customer logs in from, counted by velocity at the next checkpoint', async () => {
      const customerId = newId('cus-login');
      const now = Date.now();
      for (const [index, deviceId] of [newId('dev-a'), newId('dev-b')].entries()) {
        const login = { timestamp: now - (2 - index) * 60_000, customerId, login: { username: `${customerId}@example.com`, customerId, success: true, authenticationMechanism: { password: { passwordHashed: 'x' } } }, device: { deviceId, ipAddress: `192.0.2.${index + 1}` } };
        expectAcknowledged(await post('/v2/login', login));
      }
      expect((await customerRecord(customerId)).body.data.fields).toMatchObject({ lastDeviceId: expect.stringMatching(/^dev-b/) });
      expect(await networkValues(customerId, 'device')).toHaveLength(2);

      const scored = await post('/v2/customer', { timestamp: now, customer: { customerId } });
      expect(scored.status).toBe(200);
      const decision = (await decisions(EventTopics.customerScored)).find((candidate) => candidate.recommendation.scoreId === scored.body.data.scoreId)!;
      expect(featuresOf(decision)).toMatchObject({ customerDistinctDevices24h: 2, customerDistinctIpAddresses24h: 2 });
    });

    it('keeps no username: nothing of `login` reaches the customer record', async () => {
      const customerId = newId('cus-login-private');
      expectAcknowledged(await post('/v2/login', { timestamp: Date.now(), customerId, login: { username: 'someone-secret', success: false } }));
      expect(JSON.stringify((await customerRecord(customerId)).body)).not.toContain('someone-secret');
    });
  });

  describe('POST /v2/transaction and /v2/checkout', () => {
    it('keeps a transaction with its customer and order, counted by the transaction checkpoint’s velocity', async () => {
      const customerId = newId('cus-tx');
      const orderId = newId('ord-tx');
      const first = newId('tx');
      expectAcknowledged(await post('/v2/transaction', transactionBody(first, { customerId, orderId, paymentMethod: { instrumentId: newId('inst'), methodType: 'card' } })));
      expect((await stored('transaction', first)).fields).toMatchObject({ customerId, orderId, amount: 1999 });
      expect((await stored('order', orderId)).fields).toMatchObject({ customerId });
      expect(await networkValues(customerId, 'card')).toHaveLength(1);

      const second = await post('/v2/transaction?score=true', transactionBody(newId('tx'), { customerId }));
      expect(second.status).toBe(200);
      expect(second.body.data).toMatchObject({ action: expect.stringMatching(/ALLOW|REVIEW|PREVENT/), scoreId: expect.stringMatching(/^scr_/) });
      const decision = (await decisions(EventTopics.transactionScored)).find((candidate) => candidate.recommendation.scoreId === second.body.data.scoreId)!;
      expect(decision.checkpoint).toBe('transaction');
      expect(featuresOf(decision)).toMatchObject({ customerTransactionCount24h: 1 });
    });

    it('a checkout keeps its customer, order and transaction, and scores before authorisation with ?score=true', async () => {
      const customerId = newId('cus-checkout');
      const orderId = newId('ord-checkout');
      const transactionId = newId('tx-checkout');
      const response = await post('/v2/checkout?score=true', transactionBody(transactionId, { customer: { customerId, email: `${customerId}@example.com` }, order: { orderId, price: 1999, currency: 'GBP' }, device: { deviceId: newId('dev') } }));
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ transactionId, scoreId: expect.stringMatching(/^scr_/) });
      expect((await customerRecord(customerId)).body.data.fields).toMatchObject({ email: `${customerId}@example.com` });
      expect((await stored('order', orderId)).fields).toMatchObject({ customerId, price: 1999 });
      expect((await stored('transaction', transactionId)).fields).toMatchObject({ customerId, orderId });
    });
  });

  describe('POST /v2/chargeback', () => {
    it('makes the customer a fraudster unless nonFraud, as a connect chargeback', async () => {
      const customerId = newId('cus-cb');
      const chargebackId = newId('cb');
      expectAcknowledged(await post('/v2/chargeback', { timestamp: Date.now(), customerId, chargeback: { chargebackId, status: 'LOST', amount: 1999, currency: 'GBP', gateway: 'stripe' } }));
      expect((await connectFeatures(customerId)).body).toMatchObject({ hopsToFraud: 0, chargebackCount: 1 });
      expect((await stored('dispute', chargebackId)).fields).toMatchObject({ customerId, kind: 'chargeback' });

      expectAcknowledged(await post('/v2/chargeback', { timestamp: Date.now(), customerId, chargeback: { chargebackId, nonFraud: true } }));
      expect((await connectFeatures(customerId)).body).toMatchObject({ hopsToFraud: -1 });
    });
  });

  describe('customer tags', () => {
    it('POST /v2/customer/:customerId/tags sets them as a customer object’s tags; DELETE removes them', async () => {
      const customerId = newId('cus-tags');
      const path = `/v2/customer/${encodeURIComponent(customerId)}/tags`;
      expectAcknowledged(await post(path, { tagNames: ['vip'], tags: { staff: true } }));
      expect((await customerRecord(customerId)).body.data.fields.tags).toEqual({ vip: true, staff: true });
      expect((await connectFeatures(customerId)).body.tags).toEqual([
        { tagName: 'staff', depth: 0 },
        { tagName: 'vip', depth: 0 },
      ]);

      expectAcknowledged(await send('DELETE', `${path}?tagName=vip`));
      expect((await customerRecord(customerId)).body.data.fields.tags).toEqual({ vip: false, staff: true });
      expect((await connectFeatures(customerId)).body.tags).toEqual([{ tagName: 'staff', depth: 0 }]);
    });

    it('the original service’s /v2/tag/customer does the same, the customer in the body or query', async () => {
      const customerId = newId('cus-tag-path');
      expectAcknowledged(await post('/v2/tag/customer', { customerId, tagNames: ['a', 'b'] }));
      expectAcknowledged(await send('DELETE', `/v2/tag/customer?customerId=${encodeURIComponent(customerId)}&tagName=a,b`));
      expect((await customerRecord(customerId)).body.data.fields.tags).toEqual({ a: false, b: false });
    });

    it('an older timestamp does not overwrite a newer tag', async () => {
      const customerId = newId('cus-tag-time');
      const path = `/v2/customer/${encodeURIComponent(customerId)}/tags`;
      expectAcknowledged(await post(path, { tags: { vip: true } }));
      expectAcknowledged(await post(path, { timestamp: Math.floor((Date.now() - HOUR) / 1000), tags: { vip: false } }));
      expect((await customerRecord(customerId)).body.data.fields.tags).toEqual({ vip: true });
    });
  });

  describe('POST /v2/backfill/*', () => {
    it('ingests historic data in event time without scoring it: stored, linked, counted, and no decision', async () => {
      const customerId = newId('cus-backfill');
      const twoDaysAgo = Date.now() - 48 * HOUR;
      const cardInstrument = newId('inst-backfill');
      const decisionsBefore = (await decisions(EventTopics.transactionScored)).length + (await decisions(EventTopics.customerScored)).length;

      expectAcknowledged(await post('/v2/backfill/customer', { timestamp: twoDaysAgo, customer: { customerId, email: `${customerId}@example.com` } }));
      expectAcknowledged(await post('/v2/backfill/order?score=true', { timestamp: twoDaysAgo, customerId, order: { orderId: newId('ord-bf') } }));
      expectAcknowledged(await post('/v2/backfill/login', { timestamp: twoDaysAgo, customerId, device: { deviceId: newId('dev-bf') } }));
      expectAcknowledged(await post('/v2/backfill/checkout?score=true', transactionBody(newId('tx-bf'), { timestamp: twoDaysAgo, customer: { customerId }, paymentMethod: { instrumentId: cardInstrument } })));
      expectAcknowledged(await post('/v2/backfill/transaction?checkpoint=pspBeforeAuth', transactionBody(newId('tx-bf'), { timestamp: twoDaysAgo + HOUR, customerId })));
      const disputedTransaction = newId('tx-bf-disputed');
      expectAcknowledged(await post('/v2/backfill/transaction', transactionBody(disputedTransaction, { timestamp: twoDaysAgo, customerId })));
      expectAcknowledged(await post('/v2/backfill/dispute', { timestamp: twoDaysAgo + 2 * HOUR, dispute: { disputeId: newId('dsp-bf'), transactionId: disputedTransaction, outcome: 'LOST' } }));
      expectAcknowledged(await post('/v2/backfill/chargeback', { timestamp: twoDaysAgo, customerId: newId('cus-backfill-cb'), chargeback: { chargebackId: newId('cb-bf') } }));

      const decisionsAfter = (await decisions(EventTopics.transactionScored)).length + (await decisions(EventTopics.customerScored)).length;
      expect(decisionsAfter).toBe(decisionsBefore);

      expect((await customerRecord(customerId)).body.data.fields).toMatchObject({ email: `${customerId}@example.com` });
      expect(await networkValues(customerId, 'card')).toHaveLength(1);
      expect((await connectFeatures(customerId)).body).toMatchObject({ hopsToFraud: 0 });

      // The live transaction counts the three backfilled ones, two days back: in 7 d, not in 24 h.
      const live = await post('/v2/transaction?score=true', transactionBody(newId('tx-live'), { customerId }));
      expect(live.status).toBe(200);
      const decision = (await decisions(EventTopics.transactionScored)).find((candidate) => candidate.recommendation.scoreId === live.body.data.scoreId)!;
      expect(featuresOf(decision)).toMatchObject({ customerTransactionCount24h: 0, customerTransactionCount7d: 3 });
    });
  });

  describe('refusals', () => {
    const expectEnvelope = (response: { status: number; body: Body }, status: number) => {
      expect(response.body).toEqual({ status, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
      expect(response.status).toBe(status);
      return response.body.message as string;
    };

    it.each([
      ['/v2/order', { timestamp: 1, customerId: 'c' }, 'order'],
      ['/v2/order', { timestamp: 1, order: { orderId: 'o' } }, 'customer'],
      ['/v2/order', { timestamp: 1, customerId: 'c', order: {} }, 'order: must have an orderId'],
      ['/v2/login', { timestamp: 1, customerId: 'c', customer: { customerId: 'c' } }, 'customer'],
      ['/v2/transaction', { timestamp: 1, customerId: 'c', transaction: { transactionId: 't', mcc: 12 } }, 'transaction.mcc'],
      ['/v2/checkout', { timestamp: 1, transaction: { transactionId: 't' }, order: { price: 'ten' } }, 'order: must have an orderId'],
      ['/v2/checkout', { timestamp: 1, transaction: { transactionId: 't' }, order: { orderId: 'o', price: 'ten' } }, 'order.price'],
      ['/v2/chargeback', { timestamp: 1, chargeback: { chargebackId: 'cb' } }, 'customerId'],
      ['/v2/customer/c/tags', {}, 'tags'],
      ['/v2/customer/c/tags', { tags: { vip: 'yes' } }, 'tags'],
      ['/v2/tag/customer', { tagNames: ['vip'] }, 'customerId'],
      ['/v2/backfill/customer', { timestamp: 1 }, 'customer'],
      ['/v2/backfill/dispute', { timestamp: 1, dispute: {} }, 'dispute.disputeId'],
    ])('POST %s %j: 400 naming %s', async (path, body, field) => {
      expect(expectEnvelope(await post(path, body), 400)).toContain(field);
    });

    it('DELETE of tags without tagName: 400 naming tagName', async () => {
      expect(expectEnvelope(await send('DELETE', '/v2/customer/c/tags'), 400)).toContain('tagName');
      expect(expectEnvelope(await send('DELETE', '/v2/tag/customer?tagName=a'), 400)).toContain('customerId');
    });

    it('refuses publishable keys (403) on every path', async () => {
      const paths = ['/v2/order', '/v2/login', '/v2/checkout', '/v2/transaction', '/v2/chargeback', '/v2/customer/c/tags', '/v2/tag/customer', '/v2/backfill/customer', '/v2/backfill/order', '/v2/backfill/login', '/v2/backfill/checkout', '/v2/backfill/transaction', '/v2/backfill/chargeback', '/v2/backfill/dispute'];
      for (const path of paths) expect({ path, status: expectEnvelope(await post(path, {}, account.keys.publishableTest), 403) && 403 }).toEqual({ path, status: 403 });
      expectEnvelope(await send('DELETE', '/v2/customer/c/tags?tagName=a', undefined, account.keys.publishableTest), 403);
    });
  });
});
