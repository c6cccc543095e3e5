import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest } from '../support/payload-factories';

type Envelope = { status: number; message: string; timestamp: number; traceId: string };
type RecordAnswer = { status: number; timestamp: number; data: { customerId?: string; supplierId?: string; fields: Record<string, unknown>; updatedAt: number | null } };
type NetworkNode = { id: string; type: string; value: string; depth: number; subject?: true; fraudster?: true; score?: number | null; labels?: Record<string, string> };
type NetworkAnswer = {
  status: number;
  timestamp: number;
  data: {
    nodes: NetworkNode[];
    edges: { source: string; target: string; firstSeen: number; attribute: { kind: string; value: string } }[];
    truncated: boolean;
    pathToFraudster: string[] | null;
    statistics: Record<string, unknown>;
  };
};
type Account = { accountId: string; keys: { secretTest: string; secretLive: string; publishableTest: string } };

const PASSWORD_HASH = '03ac674216f3e15c761ee1a5e255f067953623c8b388b4459e13f978d7c846f4';

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** The stored record and graph neighbourhood of customers and suppliers (ADR-0014), through the embedded app over HTTPS. */
describe('subject record and network API (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;

  beforeAll(async () => {
    service = await startEmbeddedService();
    account = await createAccount();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  async function createAccount(): Promise<Account> {
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('subjects') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    return created.body;
  }

  const post = (path: string, body: unknown, apiKey = account.keys.secretTest) => service.client.send<Record<string, unknown>>({ method: 'POST', path, body, apiKey });
  const get = <T>(path: string, apiKey = account.keys.secretTest) => service.client.send<T>({ path, apiKey });
  const recordOf = (kind: 'customer' | 'supplier', id: string, apiKey?: string) => get<RecordAnswer>(`/v2/${kind}/${encodeURIComponent(id)}`, apiKey);
  const networkOf = (kind: 'customer' | 'supplier', id: string, query = '', apiKey?: string) => get<NetworkAnswer>(`/v2/${kind}/${encodeURIComponent(id)}/network${query}`, apiKey);
  const label = (customerId: string, review: string) => post(`/v2/customer/${encodeURIComponent(customerId)}/labels`, { category: 'PAYMENT_FRAUD', review });

  function expectEnvelope(response: { status: number; body: unknown }, status: number): Envelope {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ status, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
    return response.body as Envelope;
  }

  /** Ada and Eve share a device (customer checkpoint) and a card (connect); Eve also has an e-mail. */
  async function adaAndEve(): Promise<{ ada: string; eve: string; device: string; instrument: string; email: string }> {
    const [ada, eve, device, instrument] = [newId('ada'), newId('eve'), newId('dev'), newId('ins')];
    const email = `${eve}@example.com`;
    const card = (owner: string) => ({ timestamp: Date.now(), customerId: owner, paymentMethods: [{ card: { paymentMethodId: `pm-${owner}`, instrumentId: instrument } }] });
    expect((await post('/v2/customer', { timestamp: Date.now(), customer: { customerId: ada }, deviceId: device })).status).toBe(200);
    expect((await post('/v2/connect', card(ada))).status).toBe(200);
    expect((await post('/v2/customer', { timestamp: Date.now(), customer: { customerId: eve, email }, deviceId: device })).status).toBe(200);
    expect((await post('/v2/connect', card(eve))).status).toBe(200);
    return { ada, eve, device, instrument, email };
  }

  describe('GET /v2/customer/:customerId', () => {
    it('answers the customer as stored on the very next request, with its newest field time', async () => {
      const deviceId = newId('dev');
      const body = { ...customerRequest({ timestamp: Date.now() - 60_000 }), deviceId };
      const { customerId } = body.customer;
      expect((await post('/v2/customer', body)).status).toBe(200);

      const first = await recordOf('customer', customerId);

      expect(first.status).toBe(200);
      expect(first.body).toEqual({ status: 200, timestamp: expect.any(Number), data: { customerId, fields: expect.any(Object), updatedAt: body.timestamp } });
      const { customerId: _id, ...sent } = body.customer;
      expect(first.body.data.fields).toEqual({ ...sent, lastDeviceId: deviceId });

      // A newer payload changes one field (the others keep theirs) and moves updatedAt.
      const later = Date.now();
      expect((await post('/v2/customer', { timestamp: later, customer: { customerId, name: 'Ada King' } })).status).toBe(200);
      const second = await recordOf('customer', customerId);
      expect(second.body.data.fields).toMatchObject({ name: 'Ada King', email: body.customer.email });
      expect(second.body.data.updatedAt).toBe(later);
    });

    it('answers 404 (error envelope) for a customer never stored, also when it only has a label', async () => {
      expect(expectEnvelope(await recordOf('customer', newId('nobody')), 404).message).toMatch(/^no customer /);

      const labelled = newId('labelled');
      expect((await label(labelled, 'FRAUDSTER')).status).toBe(200);
      expectEnvelope(await recordOf('customer', labelled), 404);
    });

    it('never stores a registration\'s password hash: the customer read back carries no trace of it', async () => {
      const customerId = newId('registered');
      const registration = await post('/v2/registration', {
        timestamp: Date.now(),
        registration: { username: `${customerId}@example.com`, registrationMechanism: { password: { passwordHashed: PASSWORD_HASH, success: true } }, success: true },
        customer: { customerId, email: `${customerId}@example.com` },
      });
      expect(registration.status).toBe(200);

      const read = await recordOf('customer', customerId);

      expect(read.status).toBe(200);
      expect(read.body.data.fields).toEqual({ email: `${customerId}@example.com` });
      expect(JSON.stringify(read.body)).not.toContain(PASSWORD_HASH);
    });

    it('percent-decodes the identifier, so ids that look like the sub-routes stay ids', async () => {
      const customerId = `${newId('cus')}/labels`;
      expect((await post('/v2/customer', { timestamp: Date.now(), customer: { customerId, name: 'Slash' } })).status).toBe(200);

      const read = await get<RecordAnswer>(`/v2/customer/${encodeURIComponent(customerId)}`);
      expect(read.body.data).toMatchObject({ customerId, fields: { name: 'Slash' } });
      // …while the label route of the same prefix is still the label route.
      const labels = await get<{ data: { labels: object; history: unknown[] } }>(`/v2/customer/${encodeURIComponent(customerId)}/labels`);
      expect(labels.status).toBe(200);
      expect(labels.body.data).toEqual({ labels: {}, history: [] });
    });

    it('refuses an identifier longer than 300 characters with a 400 naming it', async () => {
      const message = expectEnvelope(await recordOf('customer', 'x'.repeat(301)), 400).message;
      expect(message).toMatch(/^customerId: /);
      expect(expectEnvelope(await networkOf('supplier', 'x'.repeat(301)), 400).message).toMatch(/^supplierId: /);
    });
  });

  describe('GET /v2/supplier/:supplierId', () => {
    it('answers the supplier as stored on the very next request, and 404 for one never stored', async () => {
      const supplierId = newId('sup');
      const timestamp = Date.now();
      expect((await post('/v2/supplier', { timestamp, supplier: { supplierId, name: 'Babbage Engines', email: `${supplierId}@example.com` } })).status).toBe(200);

      const read = await recordOf('supplier', supplierId);

      expect(read.body).toEqual({ status: 200, timestamp: expect.any(Number), data: { supplierId, fields: { name: 'Babbage Engines', email: `${supplierId}@example.com` }, updatedAt: timestamp } });
      expect(expectEnvelope(await recordOf('supplier', newId('nobody')), 404).message).toMatch(/^no supplier /);
      // A customer of the same id is another record.
      expectEnvelope(await recordOf('customer', supplierId), 404);
    });
  });

  describe('GET /v2/customer/:customerId/network', () => {
    it('draws the customer, its device and card and the customer sharing them; a FRAUDSTER label shows on the next request', async () => {
      const { ada, eve, device, instrument, email } = await adaAndEve();

      const before = await networkOf('customer', ada);

      expect(before.status).toBe(200);
      expect(before.body.data.nodes).toEqual([
        { id: `customer:${ada}`, type: 'customer', value: ada, depth: 0, subject: true, score: expect.any(Number), labels: {} },
        { id: `device:${device}`, type: 'device', value: device, depth: 1 },
        { id: `card:instrument:${instrument}`, type: 'card', value: `instrument:${instrument}`, depth: 1 },
        { id: `customer:${eve}`, type: 'customer', value: eve, depth: 2, score: expect.any(Number), labels: {} },
      ]);
      expect(before.body.data.edges.map(({ source, target }) => `${source} -> ${target}`).sort()).toEqual(
        [`customer:${ada} -> device:${device}`, `customer:${ada} -> card:instrument:${instrument}`, `device:${device} -> customer:${eve}`, `card:instrument:${instrument} -> customer:${eve}`].sort(),
      );
      for (const edge of before.body.data.edges) expect(edge.firstSeen).toEqual(expect.any(Number));
      // Each edge names the attribute it stands for; no decision saw the card's BIN, so it is its instrument id.
      expect(before.body.data.edges.map((edge) => edge.attribute)).toEqual(
        expect.arrayContaining([{ kind: 'device', value: device }, { kind: 'card', value: instrument }]),
      );
      expect(before.body.data.truncated).toBe(false);
      expect(before.body.data.pathToFraudster).toBeNull();

      expect((await label(eve, 'FRAUDSTER')).status).toBe(200);
      const after = await networkOf('customer', ada);
      expect(after.body.data.nodes.find((node) => node.value === eve)).toMatchObject({ fraudster: true });
      expect(after.body.data.nodes.filter((node) => node.fraudster).map((node) => node.value)).toEqual([eve]);
      expect(after.body.data.statistics).toMatchObject({ hopsToFraud: 2, reviewedFraudsterCount: 1 });
      expect(after.body.data.nodes.find((node) => node.value === eve)).toMatchObject({ labels: { PAYMENT_FRAUD: 'FRAUDSTER' } });
      expect(after.body.data.pathToFraudster).toEqual([`customer:${ada}`, `device:${device}`, `customer:${eve}`]);

      // Depth 3 reaches Eve's e-mail, as the graph keys it (lower-cased, not hashed).
      const deeper = await networkOf('customer', ada, '?depth=3');
      expect(deeper.body.data.nodes.at(-1)).toEqual({ id: `email:${email}`, type: 'email', value: email, depth: 3 });
    });

    it('honours depth and limit, and says truncated only when a node within the depth was left out', async () => {
      const { ada, eve } = await adaAndEve();

      const oneHop = (await networkOf('customer', ada, '?depth=1')).body.data;
      expect(oneHop.nodes.map((node) => node.type)).toEqual(['customer', 'device', 'card']);
      expect(oneHop.edges).toHaveLength(2);
      expect(oneHop.truncated).toBe(false);

      const cut = (await networkOf('customer', ada, '?depth=2&limit=3')).body.data;
      expect(cut.nodes).toHaveLength(3);
      expect(cut.nodes.some((node) => node.value === eve)).toBe(false);
      expect(cut.truncated).toBe(true);

      const exact = (await networkOf('customer', ada, '?limit=4')).body.data;
      expect(exact.nodes).toHaveLength(4);
      expect(exact.truncated).toBe(false);
    });

    it('answers the statistics POST /v2/connect?features=true answers for the same customer', async () => {
      const { ada } = await adaAndEve();
      const connectedAt = Date.now();
      const connect = await post('/v2/connect?features=true', { timestamp: connectedAt, customerId: ada });
      expect(connect.status).toBe(200);

      const network = await networkOf('customer', ada);
      const elapsedSeconds = (Date.now() - connectedAt) / 1000;

      const { timestamp: _t, clientID: _c, customerID: _id, ...expected } = connect.body;
      const actual = network.body.data.statistics;
      expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
      // "Now" is each request's own time: edge ages differ by the time between the two requests.
      const ages = ['edgeGeneralMeanAge', 'edgeLocalMeanAge'];
      for (const name of ages) {
        expect(actual[name] as number).toBeGreaterThanOrEqual((expected[name] as number) - 0.001);
        expect(actual[name] as number).toBeLessThanOrEqual((expected[name] as number) + elapsedSeconds + 0.001);
      }
      expect(Object.fromEntries(Object.entries(actual).filter(([name]) => !ages.includes(name)))).toEqual(Object.fromEntries(Object.entries(expected).filter(([name]) => !ages.includes(name))));
      expect(actual).toMatchObject({ count: 5, customerCount: 2, deviceCount: 1, cardCount: 1, emailCount: 1, hopsToFraud: -1 });
    });

    it('answers a customer the graph does not know as itself alone, without creating it', async () => {
      const customerId = newId('unknown');

      const network = await networkOf('customer', customerId);

      expect(network.body.data).toMatchObject({ nodes: [{ id: `customer:${customerId}`, type: 'customer', value: customerId, depth: 0, subject: true }], edges: [], truncated: false });
      expect(network.body.data.statistics).toMatchObject({ count: 1, customerCount: 1, hopsToFraud: -1 });
      expectEnvelope(await recordOf('customer', customerId), 404);
    });

    it('refuses a depth or limit out of range or not an integer with a 400 naming each parameter', async () => {
      const customerId = newId('cus');
      for (const query of ['?depth=0', '?depth=4', '?depth=1.5', '?depth=two', '?depth=1&depth=2']) {
        expect({ query, message: expectEnvelope(await networkOf('customer', customerId, query), 400).message }).toEqual({ query, message: expect.stringMatching(/^depth: /) });
      }
      for (const query of ['?limit=0', '?limit=501', '?limit=1e2']) {
        expect({ query, message: expectEnvelope(await networkOf('customer', customerId, query), 400).message }).toEqual({ query, message: expect.stringMatching(/^limit: /) });
      }
      const both = expectEnvelope(await networkOf('supplier', customerId, '?depth=9&limit=-1'), 400).message;
      expect(both).toContain('depth: ');
      expect(both).toContain('limit: ');
      expect((await networkOf('customer', customerId, '?depth=3&limit=500')).status).toBe(200);
    });
  });

  describe('GET /v2/supplier/:supplierId/network', () => {
    it('starts from the supplier: its e-mail and the customer sharing it, with connect\'s statistics from the supplier', async () => {
      const [supplierId, customerId] = [newId('sup'), newId('cus')];
      const email = `${supplierId}@example.com`;
      expect((await post('/v2/supplier', { timestamp: Date.now(), supplier: { supplierId, email } })).status).toBe(200);
      expect((await post('/v2/customer', { timestamp: Date.now(), customer: { customerId, email: email.toUpperCase() } })).status).toBe(200);
      expect((await label(customerId, 'FRAUDSTER')).status).toBe(200);

      const network = (await networkOf('supplier', supplierId)).body.data;

      expect(network.nodes).toEqual([
        { id: `supplier:${supplierId}`, type: 'supplier', value: supplierId, depth: 0, subject: true },
        { id: `email:${email}`, type: 'email', value: email, depth: 1 },
        { id: `customer:${customerId}`, type: 'customer', value: customerId, depth: 2, fraudster: true, score: expect.any(Number), labels: { PAYMENT_FRAUD: 'FRAUDSTER' } },
      ]);
      expect(network.statistics).toMatchObject({ count: 3, supplierCount: 1, emailCount: 1, customerCount: 1, hopsToFraud: 2 });
      expect(network.pathToFraudster).toEqual([`supplier:${supplierId}`, `email:${email}`, `customer:${customerId}`]);
    });
  });

  describe('access', () => {
    it('keeps every account and data set to itself', async () => {
      const customerId = newId('own');
      const device = newId('dev');
      expect((await post('/v2/customer', { timestamp: Date.now(), customer: { customerId, name: 'Mine' }, deviceId: device })).status).toBe(200);
      const other = await createAccount();

      for (const apiKey of [other.keys.secretTest, account.keys.secretLive]) {
        expectEnvelope(await recordOf('customer', customerId, apiKey), 404);
        const network = await networkOf('customer', customerId, '', apiKey);
        // Nor its score: the other data set has no decision of this customer.
        expect(network.body.data.nodes).toEqual([{ id: `customer:${customerId}`, type: 'customer', value: customerId, depth: 0, subject: true, score: null, labels: {} }]);
      }
      expect((await networkOf('customer', customerId)).body.data.nodes).toHaveLength(2);
    });

    it('refuses publishable keys (403) on every route', async () => {
      for (const path of ['/v2/customer/c1', '/v2/supplier/s1', '/v2/customer/c1/network', '/v2/supplier/s1/network?depth=1']) {
        expect({ path, status: expectEnvelope(await get(path, account.keys.publishableTest), 403).status }).toEqual({ path, status: 403 });
      }
    });

    it('refuses requests without a valid key (401)', async () => {
      expectEnvelope(await service.client.send({ path: '/v2/customer/c1/network' }), 401);
      expectEnvelope(await get('/v2/supplier/s1', 'sk_test_unknownkeyunknownkey00'), 401);
    });
  });
});
