import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository } from '@ringfence/entities';
import { customerRequest, pspTransactionRequest } from '../support/payload-factories';
import { type EmbeddedService, TEST_ADMIN_KEY, eventually, startEmbeddedService } from '../support/embedded-service';

const ACCOUNT_LIMIT = 6;
const CUSTOMER_LIMIT = 2;

/** decisions §1: limited requests are still ingested; customers get RATE_LIMIT, accounts 429. */
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

  it('answers the default action with source RATE_LIMIT past the per-customer limit, and still stores the data', async () => {
    const { accountId, key } = await newAccount();
    const customerId = 'cus-busy';
    const sources: string[] = [];
    for (let i = 0; i <= CUSTOMER_LIMIT; i += 1) {
      const response = await service.client.send<{ data: { source: string; action: string } }>({
        method: 'POST',
        path: '/v2/customer',
        body: customerRequest({ timestamp: Date.now() + i, customer: { customerId, name: `name-${i}` } }),
        apiKey: key,
      });
      expect(response.status).toBe(200);
      sources.push(response.body.data.source);
    }
    expect(sources).toEqual(['RINGFENCE', 'RINGFENCE', 'RATE_LIMIT']);
    const stored = await eventually(async () => {
      const document = await documents().find({ accountId, environment: 'test', kind: 'customer', entityId: customerId });
      return document?.fields.name === `name-${CUSTOMER_LIMIT}` ? document : null;
    });
    expect(stored.fields.name).toBe(`name-${CUSTOMER_LIMIT}`);
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
