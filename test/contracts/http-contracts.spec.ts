import { type ContractFixture, fixtureSlugs, loadFixtures } from './fixture-loader';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';

/**
 * Every golden fixture through the real HTTP stack of the embedded app (TLS, auth, parsing,
 * validation, the bus, scoring): valid payloads are accepted in the specification's answer
 * shape, invalid ones are a 400 envelope naming each broken rule.
 */
const ROUTES: Record<string, { path: string; expectOk: (body: Record<string, unknown>) => void; status?: (fixture: ContractFixture) => number; publishableKey?: true }> = {
  customer: { path: '/v2/customer', expectOk: (body) => expect(body).toMatchObject({ status: 200, data: { action: expect.any(String) } }) },
  supplier: { path: '/v2/supplier', expectOk: (body) => expect(body).toEqual({ status: 200, success: 'true' }) },
  registration: {
    path: '/v2/registration',
    expectOk: (body) =>
      expect(body).toMatchObject({
        status: 200,
        data: { action: expect.any(String), registrationId: expect.any(String), rules: { triggered: [] }, credentialStatus: expect.any(Object) },
        credentialStatus: expect.any(Object),
      }),
  },
  payout: { path: '/v2/payout', expectOk: (body) => expect(body).toMatchObject({ status: 200, data: { payoutId: expect.any(String), rules: expect.any(Object) } }) },
  refund: { path: '/v2/refund', expectOk: (body) => expect(body).toMatchObject({ status: 200, data: { customerId: expect.any(String), source: expect.any(String) } }) },
  voucher: { path: '/v2/voucher', expectOk: (body) => expect(body).toEqual({ status: 200, timestamp: expect.any(Number) }) },
  'voucher-redemption': {
    path: '/v2/paymentmethod/voucher',
    expectOk: (body) => expect(body).toMatchObject({ status: 200, data: { action: expect.any(String), scoreId: expect.any(String) } }),
  },
  'voucher-check': { path: '/v2/voucher/check', expectOk: (body) => expect(body).toEqual({ timestamp: expect.any(Number), recommendation: expect.stringMatching(/^(OK|ABUSE)$/) }) },
  connect: {
    path: '/v2/connect',
    expectOk: (body) => {
      if ('success' in body) expect(body).toMatchObject({ status: 200, success: 'true', clientID: expect.any(String), customerID: expect.any(String) });
      else expect(body).toMatchObject({ clientID: expect.any(String), customerID: expect.any(String), count: expect.any(Number), hopsToFraud: expect.any(Number), tags: expect.any(Array) });
    },
  },
  'psp-transaction': { path: '/psp/transaction', expectOk: (body) => expect(body).toMatchObject({ status: 200, timestamp: expect.any(Number) }) },
  'psp-dispute': { path: '/psp/dispute', expectOk: (body) => expect(body).toMatchObject({ status: 200, data: { disputeId: expect.any(String) } }) },
  'client-events': {
    path: '/v2/client/events',
    publishableKey: true,
    status: () => 202,
    expectOk: (body) => expect(body).toEqual({ status: 202, timestamp: expect.any(Number), data: { deviceId: expect.any(String) } }),
  },
  'label-customer': { path: '/v2/customer/cus-golden-label/labels', expectOk: (body) => expect(body).toEqual({ eventTime: expect.stringMatching(/^\d{4}-.*\.\d{3}Z$/) }) },
  'label-supplier': { path: '/v2/supplier/sup-golden-label/labels', expectOk: (body) => expect(body).toEqual({ eventTime: expect.stringMatching(/^\d{4}-.*\.\d{3}Z$/) }) },
};

describe('request contracts through the HTTP stack', () => {
  let service: EmbeddedService;

  /** The client SDKs' routes take a publishable key: an account's own, made for this file. */
  let publishableKey: string;

  beforeAll(async () => {
    service = await startEmbeddedService({ CUSTOMER_RATE_LIMIT_PER_MINUTE: '100000' });
    const created = await service.client.send<{ keys: { publishableTest: string } }>({ method: 'POST', path: '/admin/accounts', body: { name: 'golden-client-sdk' }, apiKey: TEST_ADMIN_KEY });
    publishableKey = created.body.keys.publishableTest;
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = (path: string, fixture: ContractFixture, apiKey = TEST_BOOTSTRAP_KEY) => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(fixture.query ?? {})) for (const item of [value].flat()) query.append(name, item);
    const search = query.size > 0 ? `?${query}` : '';
    return service.client.send<Record<string, unknown>>({ method: 'POST', path: `${path}${search}`, body: fixture.body, apiKey });
  };

  it('has a route for every fixture folder', () => {
    expect(Object.keys(ROUTES).sort()).toEqual(fixtureSlugs().filter((slug) => slug in ROUTES || !slug.startsWith('lookup')).sort());
  });

  describe.each(Object.entries(ROUTES))('%s', (slug, route) => {
    const fixtures = loadFixtures(slug);

    it.each(fixtures.valid.map((fixture) => [fixture.name, fixture] as const))('accepts %s', async (_name, fixture) => {
      const response = await send(route.path, fixture, route.publishableKey ? publishableKey : undefined);
      const status = route.status?.(fixture) ?? 200;
      expect({ status: response.status, body: response.body }).toMatchObject({ status });
      if (status === 200 || status === 202) route.expectOk(response.body);
    });

    it.each(fixtures.invalid.map((fixture) => [fixture.name, fixture] as const))('refuses %s', async (_name, fixture) => {
      const response = await send(route.path, fixture, route.publishableKey ? publishableKey : undefined);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ status: 400, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
      for (const expected of fixture.expectErrors!) expect(String(response.body.message)).toContain(expected);
    });
  });
});
