import { type EmbeddedService, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest } from '../support/payload-factories';

// Bodies are free-form JSON here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

let sequence = 0;
const unique = (name: string) => `${name}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Read your writes, as an integrator meets it: once a write is answered 2xx, the very next
 * request of the account sees it. No test here polls or retries: a read that misses a write
 * answered before it fails the test. Other clients load the service meanwhile, so the graph and
 * ingestion consumers have a backlog to work through.
 */
describe('consistency (embedded): every answered write is visible to the next request, also under load', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const post = (path: string, body: unknown) => service.client.send<Body>({ method: 'POST', path, body, apiKey: TEST_BOOTSTRAP_KEY });
  /** A customer with contacts of its own (the factory's default e-mail and phone are shared by every customer). */
  const person = (customerId: string, fields: Body = {}, extra: Body = {}) =>
    customerRequest({ customer: { customerId, email: `${customerId}@example.com`, telephone: `+4477009${String(++sequence).padStart(5, '0')}`, ...fields }, ...extra });

  /** Another client ingesting a large network while the test runs. */
  async function backgroundLoad(stop: { done: boolean }): Promise<number> {
    let sent = 0;
    const ring = unique('ring-device');
    const worker = async () => {
      while (!stop.done) {
        await post('/v2/customer', person(unique('load'), {}, { deviceId: ring }));
        sent += 1;
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return sent;
  }

  it('connect, voucher check and labels see every write answered before them, while other clients load the service', async () => {
    const stop = { done: false };
    const load = backgroundLoad(stop);
    try {
      const [ada, grace] = [unique('ada'), unique('grace')];
      const email = `${unique('shared')}@example.com`;
      expect((await post('/v2/customer', person(ada, { email }))).status).toBe(200);
      expect((await post('/v2/customer', person(grace, { email: `  ${email.toUpperCase()} ` }))).status).toBe(200);
      // Grace's spaced, upper-case e-mail links once normalised.
      expect(await connect(ada)).toMatchObject({ customerCount: 2, emailCount: 1, hopsToFraud: -1 });

      // A label answered 200 marks the fraudster for the next connect.
      expect((await post(`/v2/customer/${encodeURIComponent(grace)}/labels`, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' })).status).toBe(200);
      expect(await connect(ada)).toMatchObject({ hopsToFraud: 2, reviewedFraudsterCount: 1 });

      // Vouchers redeemed across the ring count at once.
      const code = unique('CODE');
      for (const customerId of [ada, grace]) {
        const redemption = { timestamp: Date.now(), customerId, voucherRedemption: { voucherCode: code, redemptionTime: Date.now(), success: true } };
        expect((await post('/v2/paymentmethod/voucher', redemption)).status).toBe(200);
      }
      const check = await post('/v2/voucher/check', { timestamp: Date.now(), customerId: ada, voucherCode: code, threshold: 2 });
      expect(check.body.recommendation).toBe('ABUSE');

    } finally {
      stop.done = true;
      expect(await load).toBeGreaterThan(0);
    }
  }, 60_000);

  it('links what a connect body carries (identifications, device, payment methods, vehicles) through the one consumer path', async () => {
    const [first, second] = [unique('first'), unique('second')];
    const shared = {
      paymentMethods: [{ card: { instrumentId: unique('ins'), cardBin: '424242', cardLastFour: '4242' } }],
      nationalIdentifications: [{ passport: { idNumber: unique('P'), jurisdictionCountry: 'GBR' } }],
      vehicles: [{ vin: unique('VIN') }],
      device: { deviceId: unique('dev') },
    };
    expect((await post('/v2/connect', { timestamp: Date.now(), customerId: first, ...shared })).status).toBe(200);
    expect((await post('/v2/connect', { timestamp: Date.now(), customerId: second, ...shared })).status).toBe(200);

    expect(await connect(first)).toMatchObject({ customerCount: 2, cardCount: 1, identificationCount: 1, vehicleCount: 1, deviceCount: 1 });
  });

  it('answers a burst of 200 simultaneous scored checkpoints with 200 each, and every one of their writes is visible afterwards', async () => {
    const device = unique('burst-device');
    const customers = Array.from({ length: 200 }, () => unique('burst'));
    const answers = await Promise.all(customers.map((customerId) => post('/v2/customer', person(customerId, {}, { deviceId: device }))));

    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // Degraded answers are allowed under a burst (the data was kept); they say so.
    for (const answer of answers.filter((candidate) => candidate.body.data.warnings?.some((warning: Body) => warning.class === 'degraded'))) {
      expect(answer.body.data).toMatchObject({ source: 'RINGFENCE' });
    }
    expect(await connect(customers[0])).toMatchObject({ customerCount: 200, deviceCount: 1 });
  }, 60_000);

  async function connect(customerId: string): Promise<Body> {
    const response = await post('/v2/connect?features=true', { timestamp: Date.now(), customerId });
    expect(response.status).toBe(200);
    return response.body;
  }
});
