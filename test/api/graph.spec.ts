import { type EmbeddedService, defaultAccountId, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';

// Bodies are free-form JSON here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

const HOUR = 3_600_000;
let sequence = 0;
/** Identifiers unique to one test, so tests share the service without sharing networks. */
const unique = (name: string) => `${name}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

describe('the graph over HTTPS (embedded): connect, voucher check, network features, rebuild', () => {
  let service: EmbeddedService;
  let accountId: string;

  beforeAll(async () => {
    service = await startEmbeddedService();
    accountId = await defaultAccountId(service);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const post = (path: string, body: unknown) => service.client.send<Body>({ method: 'POST', path, body, apiKey: TEST_BOOTSTRAP_KEY });
  const connectFeatures = async (customerId: string, extra: Body = {}, query = '') => {
    const response = await post(`/v2/connect?features=true${query}`, { timestamp: Date.now(), customerId, ...extra });
    expect(response.status).toBe(200);
    return response.body;
  };
  /** The network on the very next request: every write answered before it counts (read your writes). */
  const networkOf = async (customerId: string, customers: number) => {
    const features = await connectFeatures(customerId);
    expect(features.customerCount).toBe(customers);
    return features;
  };
  const customer = (customerId: string, fields: Body = {}, deviceId?: string) =>
    post('/v2/customer', { timestamp: Date.now(), customer: { customerId, ...fields }, ...(deviceId ? { deviceId } : {}) });

  it('connect: the request\'s own links count, and the answer has every statistic', async () => {
    const [ada, grace] = [unique('ada'), unique('grace')];
    const email = `${unique('shared')}@Example.COM`;
    expect((await customer(grace, { email: email.toLowerCase() })).status).toBe(200);
    await networkOf(grace, 1);
    // A bare request about an unknown customer answers (and creates) a graph of one.
    expect(await connectFeatures(ada)).toMatchObject({ count: 1, customerCount: 1, hopsToFraud: -1 });
    // Ada's e-mail arrives with the connect request itself, and is lower-cased.
    const linked = await post('/v2/connect?features=true&depth=2', { timestamp: Date.now(), customer: { customerId: ada, email } });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({
      clientID: accountId,
      customerID: ada,
      count: 3,
      customerCount: 2,
      emailCount: 1,
      hopsToFraud: -1,
      maxDepthReached: false,
      maxNodesHit: false,
      maxDegreeHit: false,
      emailDegreeMin: 2,
      emailDegreeMax: 2,
      edgeLocalCount: 2,
    });
    expect(linked.body).not.toHaveProperty('status');
    expect(linked.body.timestamp).toEqual(expect.any(Number));
  });

  it('connect: a FRAUDSTER label two hops away sets hopsToFraud, and the customer checkpoint answers REVIEW from the network', async () => {
    const [honest, fraudster] = [unique('honest'), unique('fraudster')];
    const device = unique('device');
    expect((await customer(fraudster, {}, device)).status).toBe(200);
    expect((await post(`/v2/customer/${fraudster}/labels`, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' })).status).toBe(200);
    expect((await customer(honest, { email: `${honest}@example.com`, emailVerifiedTime: Date.now() - 1000, registrationTime: Date.now() - 400 * 24 * HOUR, name: 'Honest Person', telephone: '+447700900123', telephoneVerifiedTime: Date.now() - 1000 }, device)).status).toBe(200);
    const features = await connectFeatures(honest);
    expect(features).toMatchObject({ hopsToFraud: 2, reviewedFraudsterCount: 1, deviceCount: 1, customerCount: 2 });
    const checkpoint = await customer(honest, { email: `${honest}@example.com`, emailVerifiedTime: Date.now() - 1000, registrationTime: Date.now() - 400 * 24 * HOUR, name: 'Honest Person', telephone: '+447700900123', telephoneVerifiedTime: Date.now() - 1000 }, device);
    expect(checkpoint.body.data).toMatchObject({ action: 'REVIEW', source: 'NETWORK' });
  });

  it('connect: a PSP dispute on the customer\'s transaction makes them a fraudster (hopsToFraud 0) until the merchant wins it', async () => {
    const [buyer, transactionId, disputeId] = [unique('buyer'), unique('tx'), unique('dsp')];
    const transaction = { timestamp: Date.now(), transaction: { transactionId, amount: 1000, currency: 'GBP', type: 'auth', success: true }, customer: { customerId: buyer } };
    expect((await post('/psp/transaction', transaction)).status).toBe(200);
    // The dispute names only the transaction; either order reaches the customer (dispute-ordering.spec.ts).
    const dispute = (fields: Body) => post('/psp/dispute', { timestamp: Date.now(), dispute: { disputeId, transactionId, amount: 1000, currency: 'GBP', ...fields } });
    expect((await dispute({ stage: 'CHARGEBACK' })).status).toBe(200);
    expect((await connectFeatures(buyer)).hopsToFraud).toBe(0);
    expect((await dispute({ stage: 'CHARGEBACK', outcome: 'WON' })).status).toBe(200);
    const after = await connectFeatures(buyer);
    expect(after).toMatchObject({ hopsToFraud: -1, chargebackCount: 1 });
  });

  it('voucher check: counts successful uses across the network up to the depth, with the account\'s settings', async () => {
    const [first, second, checker] = [unique('first'), unique('second'), unique('checker')];
    const [device, code] = [unique('device'), unique('CODE')];
    for (const customerId of [first, second, checker]) expect((await customer(customerId, {}, device)).status).toBe(200);
    const redeem = (customerId: string, success: boolean) =>
      post('/v2/paymentmethod/voucher', { timestamp: Date.now(), customerId, voucherRedemption: { voucherCode: code, redemptionTime: Date.now(), success } });
    expect((await redeem(first, true)).status).toBe(200);
    expect((await redeem(second, true)).status).toBe(200);
    expect((await redeem(second, false)).status).toBe(200);
    await networkOf(checker, 3);
    const check = (body: Body) => post('/v2/voucher/check', { timestamp: Date.now(), customerId: checker, voucherCode: code, ...body });
    // Two successful uses (the failed one does not count): under the default threshold of 3 …
    expect((await check({ threshold: 2 })).body.recommendation).toBe('ABUSE');
    expect((await check({})).body).toEqual({ timestamp: expect.any(Number), recommendation: 'OK' });
    // … and the device is one hop away, the other customers two: depth 1 sees none of their uses.
    expect((await check({ threshold: 1, depth: 1 })).body.recommendation).toBe('OK');
    expect((await check({ depth: 11 })).status).toBe(400);

    const settings = (body: Body) => service.client.send<Body>({ method: 'PATCH', path: `/admin/accounts/${accountId}/settings`, body, apiKey: TEST_ADMIN_KEY });
    expect((await settings({ voucherTypes: { REFERRAL: { threshold: 2, comparison: 'gt' } } })).status).toBe(200);
    expect((await check({ voucherType: 'REFERRAL' })).body.recommendation).toBe('OK');
    expect((await settings({ voucherTypes: { REFERRAL: { threshold: 2 } } })).status).toBe(200);
    expect((await check({ voucherType: 'REFERRAL' })).body.recommendation).toBe('ABUSE');
    expect((await settings({ voucherTypes: { REFERRAL: { depth: 11 } } })).status).toBe(400);
    expect((await settings({ voucherAbuseEnabled: false })).status).toBe(200);
    expect((await check({})).status).toBe(403);
    expect((await settings({ voucherAbuseEnabled: true, voucherTypes: {} })).status).toBe(200);
  });

  it('shows the graph on /metrics: its size, the last rebuild and the query times', async () => {
    await connectFeatures(unique('metered'));
    const metrics = await service.client.send<string>({ path: '/metrics' });
    const text = String(metrics.body);
    expect(Number(/^ringfence_graph_nodes (\d+)/m.exec(text)?.[1])).toBeGreaterThan(0);
    expect(text).toMatch(/^ringfence_graph_rebuild_seconds \d/m);
    expect(Number(/^ringfence_graph_query_duration_seconds_count\{query="connect"\} (\d+)/m.exec(text)?.[1])).toBeGreaterThan(0);
  });

  it('keeps the graph across a restart: the index is rebuilt from the store of record', async () => {
    const [left, right] = [unique('left'), unique('right')];
    const number = String(100 + (sequence % 800));
    expect((await customer(left, { telephone: `+44 7700 900${number}`, telephoneCountry: 'GBR' })).status).toBe(200);
    expect((await customer(right, { telephone: `07700 900${number}`, telephoneCountry: 'GB' })).status).toBe(200);
    const before = await networkOf(left, 2);
    expect(before.phoneCount).toBe(1);
    // The index is written to the store behind it; stopping the service flushes what is left.
    const dataDir = service.dataDir;
    await service.close();
    service = await startEmbeddedService({ DATA_DIR: dataDir });
    const after = await connectFeatures(left);
    const counts = (features: Body) => Object.fromEntries(Object.entries(features).filter(([name]) => /Count$|Degree|hopsToFraud|max/.test(name)));
    expect(counts(after)).toEqual(counts(before));
  }, 60_000);
});
