import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository } from '@ringfence/entities';
import { customerRequest, pspTransactionRequest } from '../support/payload-factories';
import { type EmbeddedService, TEST_ADMIN_KEY, eventually, startEmbeddedService } from '../support/embedded-service';

const ACCOUNT_LIMIT = 6;
const CUSTOMER_LIMIT = 2;

/** ADR-0001: limited requests are still ingested; customers get RATE_LIMIT (never a fresh ALLOW), accounts 429. */
describe('rate limits', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService({
      ACCOUNT_RATE_LIMIT_PER_MINUTE: String(ACCOUNT_LIMIT),
      CUSTOMER_RATE_LIMIT_PER_MINUTE: String(CUSTOMER_LIMIT),
    });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  async function newAccount(): Promise<{ accountId: string; key: string }> {
    const created = await service.client.send<{ accountId: string; keys: { secretTest: string } }>({
      method: 'POST',
      path: '/admin/accounts',
      body: { name: `limited-${Date.now()}-${Math.random()}` },
      apiKey: TEST_ADMIN_KEY,
    });
    return { accountId: created.body.accountId, key: created.body.keys.secretTest };
  }

  const documents = () => service.app.get<EntityDocumentRepository>(ENTITY_DOCUMENT_REPOSITORY);

  it('answers REVIEW with source RATE_LIMIT past the per-customer limit, not the ALLOW it was scored, and still stores the data', async () => {
    const { accountId, key } = await newAccount();
    const customerId = 'cus-busy';
    const sources: string[] = [];
    const actions: string[] = [];
    for (let i = 0; i <= CUSTOMER_LIMIT; i += 1) {
      const response = await service.client.send<{ data: { source: string; action: string } }>({
        method: 'POST',
        path: '/v2/customer',
        body: customerRequest({ timestamp: Date.now() + i, customer: { customerId, name: `name-${i}` } }),
        apiKey: key,
      });
      expect(response.status).toBe(200);
      sources.push(response.body.data.source);
      actions.push(response.body.data.action);
    }
    expect(sources).toEqual(['RINGFENCE', 'RINGFENCE', 'RATE_LIMIT']);
    expect(actions).toEqual(['ALLOW', 'ALLOW', 'REVIEW']);
    const stored = await eventually(async () => {
      const document = await documents().find({ accountId, environment: 'test', kind: 'customer', entityId: customerId });
      return document?.fields.name === `name-${CUSTOMER_LIMIT}` ? document : null;
    });
    expect(stored.fields.name).toBe(`name-${CUSTOMER_LIMIT}`);
  });

  it("counts a search, a customer's evidence and a network as one request each, however many services they ask", async () => {
    const { key } = await newAccount();
    const get = (path: string) => service.client.send({ path, apiKey: key });
    const reads = ['/v2/search?q=ada%40example.com', '/v2/customer/cus-1/evidence', '/v2/customer/cus-1/network', '/v2/search?q=203.0.113.7', '/v2/customer/cus-2/evidence', '/v2/customer/cus-2/network'];
    expect(reads).toHaveLength(ACCOUNT_LIMIT);

    const statuses = [];
    for (const path of reads) statuses.push((await get(path)).status);

    expect(statuses).toEqual([200, 404, 200, 200, 404, 200]);
    expect((await get('/v2/search?q=one-too-many')).status).toBe(429);
  });

  describe('a card tester (many payment attempts of one customer in a minute)', () => {
    type Answer = { data: { action: string; source: string; scoreId: string; warnings?: Array<{ class: string }> } };
    const attempt = (key: string, customerId: string) =>
      service.client.send<Answer>({
        method: 'POST',
        path: '/psp/transaction?checkpoint=pspBeforeAuth',
        body: pspTransactionRequest({ customer: { customerId, email: `${customerId}@example.com` }, transaction: { type: 'auth', amount: 100 } }),
        apiKey: key,
      });

    it("gets REVIEW past the limit, and the account's next customer is still scored", async () => {
      const { key } = await newAccount();
      for (let i = 0; i < CUSTOMER_LIMIT; i += 1) expect((await attempt(key, 'cus-tester')).body.data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });

      const limited = await attempt(key, 'cus-tester');

      expect(limited.status).toBe(200);
      expect(limited.body.data).toMatchObject({ action: 'REVIEW', source: 'RATE_LIMIT', scoreId: expect.stringMatching(/^scr_/) });
      expect((await attempt(key, 'cus-tester')).body.data).toMatchObject({ action: 'REVIEW', source: 'RATE_LIMIT' });
      const next = await attempt(key, 'cus-next');
      expect(next.status).toBe(200);
      expect(next.body.data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE', scoreId: expect.stringMatching(/^scr_/) });
      expect(next.body.data.warnings ?? []).toEqual([]);
    });

    it('gets PREVENT past the limit when its last answer was PREVENT', async () => {
      const { key } = await newAccount();
      const label = await service.client.send({ method: 'POST', path: '/v2/customer/cus-fraudster/labels', body: { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' }, apiKey: key });
      expect(label.status).toBe(200);
      for (let i = 0; i < CUSTOMER_LIMIT; i += 1) expect((await attempt(key, 'cus-fraudster')).body.data).toMatchObject({ action: 'PREVENT' });

      expect((await attempt(key, 'cus-fraudster')).body.data).toMatchObject({ action: 'PREVENT', source: 'RATE_LIMIT' });
      expect((await attempt(key, 'cus-other')).body.data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });
    });
  });

  it('answers 429 with Retry-After past the account limit, and still accepts the data', async () => {
    const { accountId, key } = await newAccount();
    for (let i = 0; i < ACCOUNT_LIMIT; i += 1) {
      const response = await service.client.send({ method: 'POST', path: '/psp/transaction/async', body: pspTransactionRequest(), apiKey: key });
      expect(response.status).toBe(200);
    }
    const over = pspTransactionRequest();
    const response = await service.client.send({ method: 'POST', path: '/psp/transaction/async', body: over, apiKey: key });
    expect(response.status).toBe(429);
    expect(response.body).toMatchObject({ status: 429, message: expect.stringContaining('accepted'), traceId: expect.any(String) });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    await eventually(() => documents().find({ accountId, environment: 'test', kind: 'transaction', entityId: over.transaction.transactionId }));
  });

  it('limits accounts separately', async () => {
    const first = await newAccount();
    const second = await newAccount();
    for (let i = 0; i <= ACCOUNT_LIMIT; i += 1) {
      await service.client.send({ method: 'POST', path: '/psp/transaction/async', body: pspTransactionRequest(), apiKey: first.key });
    }
    const response = await service.client.send({ method: 'POST', path: '/psp/transaction/async', body: pspTransactionRequest(), apiKey: second.key });
    expect(response.status).toBe(200);
  });
});
