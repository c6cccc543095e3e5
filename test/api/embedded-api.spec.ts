import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository } from '@ringfence/entities';
import { customerRequest, pspTransactionRequest } from '../support/payload-factories';
import { type EmbeddedService, defaultAccountId, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, eventually, startEmbeddedService } from '../support/embedded-service';

type Envelope = { status: number; message: string; timestamp: number; traceId: string };

describe('embedded API (standalone app over HTTPS)', () => {
  let service: EmbeddedService;
  let accountId: string;

  beforeAll(async () => {
    service = await startEmbeddedService();
    accountId = await defaultAccountId(service);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const post = (path: string, body: unknown, apiKey = TEST_BOOTSTRAP_KEY) => service.client.send({ method: 'POST', path, body, apiKey });
  const documents = () => service.app.get<EntityDocumentRepository>(ENTITY_DOCUMENT_REPOSITORY);

  function expectEnvelope(response: { status: number; body: unknown; headers: Record<string, unknown> }, status: number) {
    const body = response.body as Envelope;
    expect(response.status).toBe(status);
    expect(body).toEqual({ status, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
    expect(response.headers['x-trace-id']).toBe(body.traceId);
    return body;
  }

  describe('POST /v2/customer', () => {
    it('answers a recommendation in the specification shape and stores the customer', async () => {
      const request = customerRequest();
      const response = await post('/v2/customer', request);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        status: 200,
        timestamp: expect.any(Number),
        data: {
          action: 'ALLOW',
          score: expect.any(Number),
          source: 'RINGFENCE',
          customerId: request.customer.customerId,
          scoreId: expect.stringMatching(/^scr_/),
          warnings: [],
          rules: { triggered: [] },
        },
      });
      const stored = await eventually(() =>
        documents().find({ accountId, environment: 'test', kind: 'customer', entityId: request.customer.customerId }),
      );
      expect(stored.fields).toMatchObject({ email: 'ada.lovelace@example.com', tags: { vip: true } });
    });

    it('scores the data of the same request (read your own writes)', async () => {
      const risky = customerRequest({
        customer: {
          email: '839201937@mail.test',
          emailVerifiedTime: undefined,
          telephoneVerifiedTime: undefined,
          name: undefined,
          registrationTime: Date.now() - 60_000,
        },
      });
      const response = await post('/v2/customer', risky);
      // A generated address, no name, a one-minute-old account and no device: weak signals
      // together, REVIEW (docs/scoring.md); PREVENT needs strong evidence.
      expect(response.body).toMatchObject({ data: { action: 'REVIEW', source: 'RINGFENCE' } });
    });

    it('accepts timestamps in seconds and stores them in milliseconds', async () => {
      const seconds = Math.floor(Date.now() / 1000);
      const request = customerRequest({ timestamp: seconds, customer: { registrationTime: seconds - 86_400 } });
      expect((await post('/v2/customer', request)).status).toBe(200);
      const stored = await eventually(() =>
        documents().find({ accountId, environment: 'test', kind: 'customer', entityId: request.customer.customerId }),
      );
      expect(stored.fields.registrationTime).toBe((seconds - 86_400) * 1000);
      expect(stored.fieldTimestamps['/email']).toBe(seconds * 1000);
    });

    it('lists every failing field with its path and rule in one 400', async () => {
      const response = await post('/v2/customer', {
        timestamp: 2.5,
        eventType: '-bad',
        customer: { email: 42, tags: { vip: 'yes' } },
        deviceId: '',
      });
      const { message } = expectEnvelope(response, 400);
      expect(message).toContain('timestamp: must be an integer number');
      expect(message).toContain('eventType: must match ^[a-zA-Z0-9][a-zA-Z0-9-_]*$');
      expect(message).toContain('customer.customerId: is required');
      expect(message).toContain('customer.email: must be a string');
      expect(message).toContain('customer.tags: must be an object mapping tag names to booleans');
      expect(message).toContain('deviceId: must be longer than or equal to 1 characters');
    });

    it('refuses device and deviceId together', async () => {
      const response = await post('/v2/customer', customerRequest({ deviceId: 'd-1', device: { deviceId: 'd-1' } }));
      expect(expectEnvelope(response, 400).message).toContain('device: must not be sent together with deviceId');
    });

    it('refuses a missing customer and strict-type violations', async () => {
      const { message } = expectEnvelope(await post('/v2/customer', { timestamp: '1763800000' }), 400);
      expect(message).toContain('customer: is required');
      expect(message).toContain('timestamp: must be an integer number');
    });

    it('ignores unknown fields and never echoes them', async () => {
      const response = await post('/v2/customer', { ...customerRequest(), surprise: { nested: 'secret-value' } });
      expect(response.status).toBe(200);
      expect(response.text).not.toContain('secret-value');
    });
  });

  describe('POST /psp/transaction/async', () => {
    it('answers 200 once enqueued and the transaction is then stored', async () => {
      const request = pspTransactionRequest();
      const response = await service.client.send({ method: 'POST', path: '/psp/transaction/async?checkpoint=pspBeforeAuth', body: request, apiKey: TEST_BOOTSTRAP_KEY });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 200, timestamp: expect.any(Number) });
      const stored = await eventually(() =>
        documents().find({ accountId, environment: 'test', kind: 'transaction', entityId: request.transaction.transactionId }),
      );
      expect(stored.fields).toMatchObject({ amount: 1999, mcc: '5812' });
    });

    it('names the field and the rule of a bad mcc, and an unknown checkpoint', async () => {
      const response = await service.client.send({
        method: 'POST',
        path: '/psp/transaction/async?checkpoint=whenever',
        body: pspTransactionRequest({ transaction: { mcc: '58a2' } }),
        apiKey: TEST_BOOTSTRAP_KEY,
      });
      const { message } = expectEnvelope(response, 400);
      expect(message).toContain('transaction.mcc: must match ^[0-9]{4}$');
      expect(message).toContain('checkpoint: must be one of pspBeforeAuth, pspAfterAuth');
    });
  });

  describe('authentication', () => {
    it.each([
      ['no header', undefined],
      ['a malformed header', 'Bearer abc'],
      ['an unknown key', 'token sk_test_unknownunknownunknown'],
    ])('answers 401 for %s', async (_case, authorization) => {
      const response = await service.client.send({ path: '/v2/auth/checktoken', headers: authorization ? { authorization } : {} });
      expectEnvelope(response, 401);
    });

    it('answers 200 to checktoken with a valid secret key', async () => {
      const response = await service.client.send({ path: '/v2/auth/checktoken', apiKey: TEST_BOOTSTRAP_KEY });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 200, timestamp: expect.any(Number) });
    });
  });

  describe('admin API and keys', () => {
    it('creates an account whose keys work, lists it without plaintext keys, and revokes keys', async () => {
      const created = await service.client.send<{ accountId: string; keys: Record<string, string> }>({
        method: 'POST',
        path: '/admin/accounts',
        body: { name: `acme-${Date.now()}`, industry: 'food-delivery' },
        apiKey: TEST_ADMIN_KEY,
      });
      expect(created.status).toBe(201);
      const { keys } = created.body;
      expect(keys.secretLive).toMatch(/^sk_live_/);

      expect((await post('/v2/customer', customerRequest(), keys.secretLive)).status).toBe(200);
      expectEnvelope(await post('/v2/customer', customerRequest(), keys.publishableTest), 403);

      const listed = await service.client.send({ path: '/admin/accounts', apiKey: TEST_ADMIN_KEY });
      for (const key of Object.values(keys)) expect(listed.text).not.toContain(key);

      const issued = await service.client.send<{ keyId: string; key: string; kind: string; env: string }>({
        method: 'POST',
        path: `/admin/accounts/${created.body.accountId}/keys`,
        body: { kind: 'secret', env: 'test' },
        apiKey: TEST_ADMIN_KEY,
      });
      expect(issued.status).toBe(201);
      expect(issued.body).toMatchObject({ kind: 'secret', env: 'test', key: expect.stringMatching(/^sk_test_/) });
      expect((await service.client.send({ path: '/v2/auth/checktoken', apiKey: issued.body.key })).status).toBe(200);

      const revoked = await service.client.send({ method: 'DELETE', path: `/admin/keys/${issued.body.keyId}`, apiKey: TEST_ADMIN_KEY });
      expect(revoked.status).toBe(204);
      expectEnvelope(await service.client.send({ path: '/v2/auth/checktoken', apiKey: issued.body.key }), 401);
    });

    it('keeps the two environments of an account apart', async () => {
      const created = await service.client.send<{ accountId: string; keys: Record<string, string> }>({
        method: 'POST',
        path: '/admin/accounts',
        body: { name: `env-split-${Date.now()}` },
        apiKey: TEST_ADMIN_KEY,
      });
      const request = customerRequest();
      await post('/v2/customer', request, created.body.keys.secretLive);
      const ref = { accountId: created.body.accountId, kind: 'customer' as const, entityId: request.customer.customerId };
      await eventually(() => documents().find({ ...ref, environment: 'live' }));
      expect(await documents().find({ ...ref, environment: 'test' })).toBeNull();
    });

    it('refuses the admin API without the admin token, and account keys on it', async () => {
      expectEnvelope(await service.client.send({ path: '/admin/accounts' }), 401);
      expectEnvelope(await service.client.send({ path: '/admin/accounts', apiKey: 'wrong-admin-token-0123456789' }), 401);
      expectEnvelope(await service.client.send({ path: '/admin/accounts', apiKey: TEST_BOOTSTRAP_KEY }), 403);
    });

    it('answers 404 for an unknown account and 409 for a taken name', async () => {
      expectEnvelope(
        await service.client.send({ method: 'POST', path: '/admin/accounts/acc_missing/keys', body: { kind: 'secret', env: 'live' }, apiKey: TEST_ADMIN_KEY }),
        404,
      );
      expectEnvelope(await service.client.send({ method: 'POST', path: '/admin/accounts', body: { name: 'default' }, apiKey: TEST_ADMIN_KEY }), 409);
    });
  });

  describe('errors every route shares', () => {
    it('answers 404 in the envelope for an unknown path', async () => {
      expectEnvelope(await service.client.send({ path: '/v2/nothing-here', apiKey: TEST_BOOTSTRAP_KEY }), 404);
    });

    it('answers 405 with Allow for a known path and the wrong method', async () => {
      const response = await service.client.send({ method: 'GET', path: '/v2/customer', apiKey: TEST_BOOTSTRAP_KEY });
      expectEnvelope(response, 405);
      expect(response.headers.allow).toBe('POST');
    });

    it('answers 413 for a body over 1 MiB', async () => {
      const big = customerRequest({ customer: { name: 'x'.repeat(1024 * 1024 + 10) } });
      expectEnvelope(await post('/v2/customer', big), 413);
    });

    it('answers 415 for a body that is not JSON', async () => {
      const response = await service.client.send({
        method: 'POST',
        path: '/v2/customer',
        rawBody: 'customerId=1',
        headers: { 'content-type': 'text/plain' },
        apiKey: TEST_BOOTSTRAP_KEY,
      });
      expectEnvelope(response, 415);
    });

    it('accepts application/json with a charset', async () => {
      const response = await service.client.send({
        method: 'POST',
        path: '/v2/customer',
        rawBody: JSON.stringify(customerRequest()),
        headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/vnd.ravelin.score.v2+json' },
        apiKey: TEST_BOOTSTRAP_KEY,
      });
      expect(response.status).toBe(200);
    });

    it.each([
      ['malformed JSON', '{"timestamp": 1,'],
      ['an array body', '[1,2,3]'],
      ['a __proto__ key', '{"timestamp":1,"customer":{"customerId":"c1"},"__proto__":{"admin":true}}'],
      ['a constructor.prototype key', '{"timestamp":1,"customer":{"customerId":"c1","constructor":{"prototype":{"x":1}}}}'],
    ])('answers 400 for %s', async (_case, rawBody) => {
      const response = await service.client.send({
        method: 'POST',
        path: '/v2/customer',
        rawBody,
        headers: { 'content-type': 'application/json' },
        apiKey: TEST_BOOTSTRAP_KEY,
      });
      expectEnvelope(response, 400);
    });
  });

  describe('operations', () => {
    it('serves liveness, readiness and Prometheus metrics without credentials', async () => {
      expect((await service.client.send({ path: '/health/live' })).status).toBe(200);
      const ready = await service.client.send({ path: '/health/ready' });
      expect(ready.body).toMatchObject({ status: 200, checks: { database: true, 'stored state': true, bus: true } });
      const metrics = await service.client.send({ path: '/metrics' });
      expect(metrics.status).toBe(200);
      expect(metrics.text).toContain('ringfence_http_request_duration_seconds');
    });

    it('serves the OpenAPI document with every API route', async () => {
      const document = await service.client.send<{ paths: Record<string, unknown> }>({ path: '/openapi.json' });
      expect(document.status).toBe(200);
      expect(Object.keys(document.body.paths)).toEqual(
        expect.arrayContaining(['/v2/customer', '/psp/transaction/async', '/v2/auth/checktoken', '/admin/accounts', '/admin/keys/{keyId}']),
      );
      expect((await service.client.send({ path: '/docs' })).status).toBe(200);
    });

    it('documents every operation: a summary, its success answer, its errors and its security', async () => {
      type Operation = { summary?: string; responses?: Record<string, { description?: string }>; security?: unknown[] };
      const document = await service.client.send<{ paths: Record<string, Record<string, Operation>> }>({ path: '/openapi.json' });
      const operations = Object.entries(document.body.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
      );
      expect(operations.length).toBeGreaterThanOrEqual(7);
      for (const { name, operation } of operations) {
        const statuses = Object.keys(operation.responses ?? {});
        expect({ name, summary: Boolean(operation.summary) }).toEqual({ name, summary: true });
        expect({ name, success: statuses.some((status) => status.startsWith('2')) }).toEqual({ name, success: true });
        expect({ name, errors: statuses.some((status) => status.startsWith('4')) }).toEqual({ name, errors: true });
        expect({ name, security: (operation.security ?? []).length > 0 }).toEqual({ name, security: true });
      }
    });
  });
});
