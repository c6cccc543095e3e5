import { customerRequest, pspTransactionRequest } from '../support/payload-factories';
import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import type { TestResponse } from '../support/https-client';

type Keys = { secretTest: string; secretLive: string; publishableTest: string; publishableLive: string };
type Account = { accountId: string; keys: Keys };
type Envelope = { status: number; message: string; timestamp: number; traceId: string };
type Device = {
  deviceId: string;
  firstSeen: number;
  lastSeen: number;
  reported: Record<string, unknown> | null;
  fingerprints: string[];
  eventCounts: Record<string, number>;
  sessions: Array<{ sessionId: string; eventCounts: Record<string, number> }>;
  ipAddresses: Array<{ ipAddress: string }>;
  customers: Array<{ customerId: string }>;
  cards: Array<{ instrumentId?: string; cardBin?: string; cardLastFour?: string }>;
};

const SHOP = 'https://shop.example';
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** A batch as the web SDK sends it; `overrides` replace top-level fields. */
function clientBatch(deviceId: string, overrides: Record<string, unknown> = {}) {
  return {
    timestamp: Math.floor(Date.now() / 1000),
    deviceId,
    sessionId: 'session-1',
    device: { userAgent: 'Mozilla/5.0 HeadlessChrome/131.0', languages: ['en-GB'], timeZone: 'Europe/London', screen: { width: 1280, height: 720 }, platform: 'Linux x86_64', webdriver: true, fingerprint: 'fp-1' },
    events: [
      { type: 'pageview', time: Date.now(), page: { url: `${SHOP}/checkout`, referrer: `${SHOP}/cart` } },
      { type: 'paste', time: Date.now(), element: { name: 'card-number', kind: 'input' } },
      { type: 'form-submit', time: Date.now(), element: { name: 'checkout', kind: 'form' } },
    ],
    ...overrides,
  };
}

/** The client SDKs' endpoints and the device read (ADR-0015), through the embedded app over HTTPS. */
describe('client SDK endpoints (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;

  beforeAll(async () => {
    service = await startEmbeddedService();
    account = await newAccount();
    const allowed = await service.client.send({ method: 'PATCH', path: `/admin/accounts/${account.accountId}/settings`, body: { testAllowedOrigins: [SHOP] }, apiKey: TEST_ADMIN_KEY });
    expect(allowed.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  async function newAccount(): Promise<Account> {
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: unique('sdk') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    return created.body;
  }

  /** A beacon: the key in the query, the body as text/plain. */
  const beacon = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    service.client.send<{ status: number; data: { deviceId: string } } & Envelope>({
      method: 'POST',
      path: `/v2/client/events?key=${encodeURIComponent(key)}`,
      rawBody: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
    });
  const readDevice = (deviceId: string, apiKey = account.keys.secretTest) => service.client.send<{ status: number; data: Device } & Envelope>({ path: `/v2/devices/${encodeURIComponent(deviceId)}`, apiKey });

  function expectEnvelope(response: TestResponse<unknown>, status: number): Envelope {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ status, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
    return response.body as Envelope;
  }

  it('takes a beacon (key in the query, text/plain body) and shows the device on the very next request', async () => {
    const deviceId = unique('dev');
    // No proxy is trusted here: a forwarded address is anybody's to write, and is not read.
    const accepted = await beacon(account.keys.publishableTest, clientBatch(deviceId, { customerId: 'cus-sdk-1' }), { 'x-forwarded-for': '198.51.100.23' });

    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ status: 202, timestamp: expect.any(Number), data: { deviceId } });
    const read = await readDevice(deviceId);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      deviceId,
      reported: { webdriver: true, timeZone: 'Europe/London', fingerprint: 'fp-1', screen: { width: 1280, height: 720 } },
      fingerprints: ['fp-1'],
      eventCounts: { pageview: 1, paste: 1, 'form-submit': 1 },
      sessions: [{ sessionId: 'session-1', eventCounts: { pageview: 1, paste: 1, 'form-submit': 1 } }],
      ipAddresses: [{ ipAddress: expect.stringMatching(/127\.0\.0\.1|::1/) }],
      customers: [{ customerId: 'cus-sdk-1' }],
    });
  });

  it('adds the customers and cards of checkpoints that name the device, and counts each session apart', async () => {
    const deviceId = unique('dev');
    expect((await beacon(account.keys.publishableTest, clientBatch(deviceId))).status).toBe(202);
    expect((await beacon(account.keys.publishableTest, clientBatch(deviceId, { sessionId: 'session-2', events: [{ type: 'checkout', time: Date.now() }] }))).status).toBe(202);
    const customer = customerRequest({ device: { deviceId } });
    expect((await service.client.send({ method: 'POST', path: '/v2/customer', body: customer, apiKey: account.keys.secretTest })).status).toBe(200);
    const payment = pspTransactionRequest({ device: { deviceId }, paymentMethod: { methodType: 'card', instrumentId: 'ins-sdk-1', iin: '411111', lastFour: '1111' } });
    expect((await service.client.send({ method: 'POST', path: '/psp/transaction', body: payment, apiKey: account.keys.secretTest })).status).toBe(200);

    const device = (await readDevice(deviceId)).body.data;
    expect(device.sessions.map((session) => [session.sessionId, session.eventCounts])).toEqual([
      ['session-1', { pageview: 1, paste: 1, 'form-submit': 1 }],
      ['session-2', { checkout: 1 }],
    ]);
    expect(device.customers.map((seen) => seen.customerId)).toEqual([customer.customer.customerId, payment.customer.customerId]);
    expect(device.cards).toEqual([expect.objectContaining({ instrumentId: 'ins-sdk-1', cardBin: '411111', cardLastFour: '1111' })]);
  });

  it("gives the data set's card-encryption public key to a publishable key, from an allowed origin with its CORS headers", async () => {
    const key = await service.client.send<{ status: number; data: { keyIndex: number; algorithm: string; publicKey: string } }>({
      path: `/v2/client/encryption-key?key=${account.keys.publishableTest}`,
      headers: { origin: SHOP },
    });

    expect(key.status).toBe(200);
    expect(key.body.data).toEqual({ keyIndex: expect.any(Number), algorithm: 'RSA_OAEP_SHA256_AES_256_GCM', publicKey: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) });
    expect(key.headers['access-control-allow-origin']).toBe(SHOP);
    expectEnvelope(await service.client.send({ path: '/v2/client/encryption-key', apiKey: account.keys.secretTest }), 403);
  });

  it('keeps devices apart per data set and account: 404 in the envelope elsewhere', async () => {
    const deviceId = unique('dev');
    expect((await beacon(account.keys.publishableTest, clientBatch(deviceId))).status).toBe(202);
    const other = await newAccount();

    expectEnvelope(await readDevice(deviceId, other.keys.secretTest), 404);
    expectEnvelope(await readDevice(deviceId, account.keys.secretLive), 404);
    expectEnvelope(await readDevice(unique('never-seen')), 404);
  });

  it('refuses a publishable key on the secret routes (403) and a secret key on the client routes (403)', async () => {
    expectEnvelope(await readDevice('any-device', account.keys.publishableTest), 403);
    expectEnvelope(await service.client.send({ method: 'POST', path: '/v2/customer', body: customerRequest(), apiKey: account.keys.publishableTest }), 403);
    expectEnvelope(await beacon(account.keys.secretTest, clientBatch(unique('dev'))), 403);
    expectEnvelope(await service.client.send({ method: 'POST', path: '/v2/client/events', body: clientBatch(unique('dev')) }), 401);
  });

  describe('origins', () => {
    it('refuses a request whose Origin its data set does not allow (403), keeping nothing', async () => {
      const deviceId = unique('dev');
      const refused = await beacon(account.keys.publishableTest, clientBatch(deviceId), { origin: 'https://evil.example' });

      expectEnvelope(refused, 403);
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
      expectEnvelope(await readDevice(deviceId), 404);
      // The live data set lists no origin: the same shop is refused there.
      expectEnvelope(await beacon(account.keys.publishableLive, clientBatch(deviceId), { origin: SHOP }), 403);
    });

    it('answers an allowed origin with its CORS headers, errors included', async () => {
      const accepted = await beacon(account.keys.publishableTest, clientBatch(unique('dev')), { origin: SHOP });
      expect(accepted.status).toBe(202);
      expect(accepted.headers).toMatchObject({ 'access-control-allow-origin': SHOP, vary: expect.stringMatching(/Origin/) });

      const invalid = await beacon(account.keys.publishableTest, { deviceId: 'x' }, { origin: SHOP });
      expectEnvelope(invalid, 400);
      expect(invalid.headers['access-control-allow-origin']).toBe(SHOP);
    });

    it('answers a preflight for an origin some data set allows, and refuses others', async () => {
      const preflight = (origin: string) =>
        service.client.send({ method: 'OPTIONS', path: '/v2/client/events', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
      const answered = await preflight(SHOP);

      expect(answered.status).toBe(204);
      expect(answered.headers).toMatchObject({ 'access-control-allow-origin': SHOP, 'access-control-allow-methods': expect.stringContaining('POST'), 'access-control-allow-headers': expect.stringContaining('content-type') });
      expectEnvelope(await preflight('https://evil.example'), 403);
    });

    it('takes a change of the allowed origins on the next request, from PATCH /v2/account/settings', async () => {
      const origin = `https://${unique('shop')}.example`;
      const change = await service.client.send<{ data: { settings: Record<string, unknown> } }>({
        method: 'PATCH',
        path: '/v2/account/settings',
        body: { allowedOrigins: [origin] },
        apiKey: account.keys.secretLive,
      });
      expect(change.status).toBe(200);
      expect(change.body.data.settings).toMatchObject({ allowedOrigins: [origin], testAllowedOrigins: [SHOP] });

      expect((await service.client.send({ method: 'OPTIONS', path: '/v2/client/events', headers: { origin } })).status).toBe(204);
      expect((await beacon(account.keys.publishableLive, clientBatch(unique('dev')), { origin })).status).toBe(202);
      const invalid = await service.client.send({ method: 'PATCH', path: '/v2/account/settings', body: { allowedOrigins: ['https://shop.example/checkout'] }, apiKey: account.keys.secretLive });
      expect(expectEnvelope(invalid, 400).message).toMatch(/allowedOrigins: each item must be an exact origin/);
    });
  });

  describe('limits', () => {
    it('refuses more than 100 events (400) and a body over 32 KiB (413), in the envelope', async () => {
      const events = Array.from({ length: 101 }, () => ({ type: 'click', time: Date.now() }));
      expect(expectEnvelope(await beacon(account.keys.publishableTest, clientBatch(unique('dev'), { events })), 400).message).toMatch(/events: must contain no more than 100 elements/);
      const padded = clientBatch(unique('dev'), { events: [{ type: 'pageview', time: Date.now(), page: { url: `${SHOP}/${'a'.repeat(2000)}` } }], pad: 'x'.repeat(33 * 1024) });
      expect(expectEnvelope(await beacon(account.keys.publishableTest, padded), 413).message).toMatch(/32768 bytes/);
    });

    it('refuses an event type outside the eventType pattern (400 naming it)', async () => {
      const batch = clientBatch(unique('dev'), { events: [{ type: 'not a type', time: Date.now() }] });
      expect(expectEnvelope(await beacon(account.keys.publishableTest, batch), 400).message).toMatch(/events\.0\.type: must match/);
    });

    it('limits calls per device (429 with Retry-After), keeping nothing past the limit, and not other devices', async () => {
      const deviceId = unique('dev');
      for (let call = 0; call < 60; call += 1) expect((await beacon(account.keys.publishableTest, clientBatch(deviceId, { events: [{ type: 'click', time: Date.now() }] }))).status).toBe(202);

      const limited = await beacon(account.keys.publishableTest, clientBatch(deviceId, { events: [{ type: 'click', time: Date.now() }] }));
      expectEnvelope(limited, 429);
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      expect((await readDevice(deviceId)).body.data.eventCounts).toEqual({ click: 60 });
      expect((await beacon(account.keys.publishableTest, clientBatch(unique('dev')))).status).toBe(202);
    });
  });

  it('answers text/plain elsewhere with 415, as before', async () => {
    const response = await service.client.send({ method: 'POST', path: '/v2/customer', rawBody: JSON.stringify(customerRequest()), headers: { 'content-type': 'text/plain' }, apiKey: account.keys.secretTest });
    expectEnvelope(response, 415);
  });
});

/** TRUSTED_PROXIES: the client address of a trusted proxy's X-Forwarded-For, and nobody else's. */
describe('client addresses behind a trusted proxy (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;

  beforeAll(async () => {
    service = await startEmbeddedService({ TRUSTED_PROXIES: '127.0.0.1/32,::1/128' });
    account = (await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: unique('proxied') }, apiKey: TEST_ADMIN_KEY })).body;
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  it("keeps the address the trusted proxy's X-Forwarded-For names", async () => {
    const deviceId = unique('dev');
    const sent = await service.client.send({
      method: 'POST',
      path: '/v2/client/events',
      body: clientBatch(deviceId),
      apiKey: account.keys.publishableTest,
      headers: { 'x-forwarded-for': '198.51.100.23, 127.0.0.1' },
    });
    expect(sent.status).toBe(202);

    const device = await service.client.send<{ data: Device }>({ path: `/v2/devices/${deviceId}`, apiKey: account.keys.secretTest });
    expect(device.body.data.ipAddresses.map((seen) => seen.ipAddress)).toEqual(['198.51.100.23']);
  });
});
