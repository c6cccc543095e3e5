import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';

// Answers are free-form JSON, read by path in these tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;
type Account = { accountId: string; keys: { secretTest: string; secretLive: string; publishableTest: string } };

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** What a client library of the original service sends on every request, bodiless or not (issue 38). */
const CLIENT_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Ravelin RubyGem/0.1' };

/**
 * The calls a widely used client library of the original service (a Ruby gem on Faraday) makes
 * for labels and tags, exactly as it makes them: every request with a JSON Content-Type, its
 * GET and DELETE without a body, the tag names of a DELETE as one comma list, the label event's
 * time in seconds. Each effect is asserted on the very next request (ADR-0010).
 */
describe('calls of the original service’s client libraries (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;

  beforeAll(async () => {
    service = await startEmbeddedService();
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('legacy-client') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    account = created.body;
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  /** As the gem sends: JSON Content-Type always; a body only on POST (none at all, or none with Content-Length: 0). */
  const call = (method: string, path: string, body?: unknown, options: { apiKey?: string; emptyBody?: boolean } = {}) =>
    service.client.send<Body>({
      method,
      path,
      headers: CLIENT_HEADERS,
      apiKey: options.apiKey ?? account.keys.secretTest,
      ...(body !== undefined ? { rawBody: JSON.stringify(body) } : options.emptyBody ? { rawBody: '' } : {}),
    });
  const seconds = () => Math.floor(Date.now() / 1000);
  const checkpoint = (customerId: string) => call('POST', '/v2/customer', { timestamp: Date.now(), customer: { customerId, email: `${customerId}@example.com` } });
  const labelEvent = (customerId: string, label: string) =>
    call('POST', '/v2/label/customer', { timestamp: seconds(), label: { customerId, label, comment: 'confirmed by the risk team', reviewer: { name: 'Grace', email: 'grace@merchant.example' } } });

  describe('the deprecated label event, POST /v2/label/customer', () => {
    it('a FRAUDSTER label makes the next customer checkpoint answer from the manual review', async () => {
      const customerId = newId('cus-legacy-label');
      expect((await checkpoint(customerId)).body.data.source).not.toBe('MANUAL_REVIEW');

      const labelled = await labelEvent(customerId, 'FRAUDSTER');
      expect(labelled.status).toBe(200);
      expect(labelled.body).toEqual({ eventTime: expect.stringMatching(/Z$/) });

      const next = await checkpoint(customerId);
      expect(next.body.data).toMatchObject({ customerId, action: 'PREVENT', source: 'MANUAL_REVIEW' });
    });

    it('answers Deprecation and Link headers naming the customer label endpoint that replaces it', async () => {
      const customerId = newId('cus/legacy');
      const response = await labelEvent(customerId, 'GENUINE');
      expect(response.status).toBe(200);
      expect(response.headers.deprecation).toMatch(/^@\d+$/);
      expect(response.headers.link).toBe(`</v2/customer/${encodeURIComponent(customerId)}/labels>; rel="successor-version"`);
    });

    it('is the customer label endpoint: the same audit log, and UNREVIEWED clears the label', async () => {
      const customerId = newId('cus-legacy-audit');
      expect((await labelEvent(customerId, 'FRAUDSTER')).status).toBe(200);
      expect((await labelEvent(customerId, 'UNREVIEWED')).status).toBe(200);

      const labels = await call('GET', `/v2/customer/${encodeURIComponent(customerId)}/labels`);
      expect(labels.body.data.labels).toEqual({});
      expect(labels.body.data.history).toEqual([
        expect.objectContaining({ category: 'PAYMENT_FRAUD', review: 'FRAUDSTER', previous: null, comment: 'confirmed by the risk team', reviewer: { name: 'Grace', email: 'grace@merchant.example' } }),
        expect.objectContaining({ category: 'PAYMENT_FRAUD', review: 'UNREVIEWED', previous: 'FRAUDSTER' }),
      ]);
      expect((await checkpoint(customerId)).body.data.source).not.toBe('MANUAL_REVIEW');
    });

    it.each([
      [{ timestamp: 1, label: { label: 'FRAUDSTER' } }, 'label.customerId'],
      [{ timestamp: 1, label: { customerId: 'c', label: 'fraudster' } }, 'label.label'],
      [{ timestamp: 1 }, 'label'],
    ])('refuses %j with a 400 naming %s', async (body, field) => {
      const response = await call('POST', '/v2/label/customer', body);
      expect(response.status).toBe(400);
      expect(response.body.message).toContain(field);
    });

    it('needs its body: an empty one is a 400 naming it', async () => {
      const response = await call('POST', '/v2/label/customer', undefined, { emptyBody: true });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^body/);
    });
  });

  describe('customer tags: set, read, remove', () => {
    it('POST sets, GET reads {tagNames} at the top level, DELETE of a comma list removes, each seen by the next request', async () => {
      const customerId = newId('cus-legacy-tags');
      expect((await call('POST', '/v2/tag/customer', { customerId, tagNames: ['vip', 'staff', 'beta'] })).status).toBe(200);

      const read = await call('GET', `/v2/tag/customer/${customerId}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ customerId, tagNames: ['beta', 'staff', 'vip'], tags: { beta: true, staff: true, vip: true }, label: 'UNREVIEWED' });

      const removed = await call('DELETE', `/v2/tag/customer?customerId=${customerId}&tagName=vip,beta`);
      expect(removed.status).toBe(200);
      expect((await call('GET', `/v2/tag/customer/${customerId}`)).body).toMatchObject({ tagNames: ['staff'], tags: { staff: true } });
    });

    it('a DELETE sent with Content-Length: 0 is as good as one without a body', async () => {
      const customerId = newId('cus-legacy-tags-cl0');
      expect((await call('POST', '/v2/tag/customer', { customerId, tagNames: ['vip'] })).status).toBe(200);
      expect((await call('DELETE', `/v2/tag/customer?customerId=${customerId}&tagName=vip`, undefined, { emptyBody: true })).status).toBe(200);
      expect((await call('GET', `/v2/tag/customer/${customerId}`, undefined, { emptyBody: true })).body.tagNames).toEqual([]);
    });

    it('the read carries the customer’s label, and tags show in the customer record and in connect’s tags with their depth', async () => {
      const customerId = newId('cus-legacy-tags-label');
      const neighbour = newId('cus-legacy-tags-neighbour');
      const email = `${neighbour}@example.com`;
      for (const id of [customerId, neighbour]) expect((await call('POST', '/v2/customer', { timestamp: Date.now(), customer: { customerId: id, email } })).status).toBe(200);
      expect((await call('POST', '/v2/tag/customer', { customerId: neighbour, tagNames: ['reseller', 'staff'] })).status).toBe(200);
      expect((await call('DELETE', `/v2/tag/customer?customerId=${neighbour}&tagName=staff`)).status).toBe(200);
      expect((await labelEvent(neighbour, 'GENUINE')).status).toBe(200);

      expect((await call('GET', `/v2/tag/customer/${neighbour}`)).body).toEqual({ customerId: neighbour, tagNames: ['reseller'], tags: { reseller: true }, label: 'GENUINE' });
      expect((await call('GET', `/v2/customer/${neighbour}`)).body.data.fields.tags).toEqual({ reseller: true, staff: false });
      expect((await call('POST', '/v2/connect?features=true', { timestamp: Date.now(), customerId })).body.tags).toEqual([{ tagName: 'reseller', depth: 2 }]);
    });

    it('a customer never tagged reads empty; another account and the live data set do not see the tags', async () => {
      const customerId = newId('cus-legacy-tags-tenant');
      expect((await call('GET', `/v2/tag/customer/${customerId}`)).body).toEqual({ customerId, tagNames: [], tags: {}, label: 'UNREVIEWED' });
      expect((await call('POST', '/v2/tag/customer', { customerId, tagNames: ['vip'] })).status).toBe(200);

      const other = (await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('legacy-client-other') }, apiKey: TEST_ADMIN_KEY })).body;
      expect((await call('GET', `/v2/tag/customer/${customerId}`, undefined, { apiKey: other.keys.secretTest })).body.tagNames).toEqual([]);
      expect((await call('GET', `/v2/tag/customer/${customerId}`, undefined, { apiKey: account.keys.secretLive })).body.tagNames).toEqual([]);
      expect((await call('GET', `/v2/tag/customer/${customerId}`, undefined, { apiKey: account.keys.publishableTest })).status).toBe(403);
    });
  });

  describe('bodiless requests with a JSON Content-Type', () => {
    it('the specification’s DELETE and GET /v2/lookup are answered, with or without Content-Length: 0', async () => {
      for (const emptyBody of [false, true]) {
        expect((await call('DELETE', '/v2/lookup?email=nobody@example.com', undefined, { emptyBody })).status).toBe(200);
        expect((await call('GET', '/v2/lookup?email=nobody@example.com', undefined, { emptyBody })).status).toBe(200);
      }
    });
  });
});
