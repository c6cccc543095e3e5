import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest } from '../support/payload-factories';

type Answer = { status: number; message?: string; retryAfter?: unknown; data: { scoreId: string; action: string; score: number; source: string } };
type Decision = { data: { features: Record<string, unknown>; context: { network: unknown }; recommendation: { action: string; score: number } } };

/** 10 % of 1,000 velocity keys and of 1,000 graph nodes: 100 each per account. */
const SHARE_ENV = { VELOCITY_MAX_KEYS: '1000', GRAPH_MAX_NODES: '1000', ACCOUNT_SHARE_PERCENT: '10' };
const HOUR = 3_600_000;
let sequence = 0;

/**
 * ADR-0016, "Tenants share fairly", through the embedded app: an account that floods new
 * customers past its share of the velocity keys and of the graph's index gets 429 for what it
 * cannot add, keeps what it had (its known customers are still decided), and another account's
 * counters and links are untouched: its next checkpoint has exactly the features it would have
 * had without the flood.
 */
describe('tenant shares (embedded app over HTTPS)', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService(SHARE_ENV);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  async function newAccount(): Promise<string> {
    sequence += 1;
    const created = await service.client.send<{ keys: { secretTest: string } }>({ method: 'POST', path: '/admin/accounts', body: { name: `share-${Date.now()}-${sequence}` }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    return created.body.keys.secretTest;
  }

  const checkpoint = (key: string, body: unknown) => service.client.send<Answer>({ method: 'POST', path: '/v2/customer', body, apiKey: key });
  const decision = async (key: string, scoreId: string) => (await service.client.send<Decision>({ path: `/v2/decisions/${scoreId}`, apiKey: key })).body.data;

  /** A customer update with every time fixed, so that two accounts sending it get the same features from the same state. */
  const fixedCustomer = (at: number, customerId: string, deviceId: string) =>
    customerRequest({
      timestamp: at,
      deviceId,
      customer: { customerId, email: `${customerId}@example.com`, telephone: '+447700900123', registrationTime: at - 400 * 24 * HOUR, emailVerifiedTime: at - 300 * 24 * HOUR, telephoneVerifiedTime: at - 300 * 24 * HOUR },
    });

  it("refuses (429) the customers an account cannot add past its share, keeps deciding its known ones, and leaves another account's next decision exactly as it would have been", async () => {
    const [flooder, neighbour, control] = [await newAccount(), await newAccount(), await newAccount()];
    const start = Date.now() - HOUR;
    // The neighbour's and the control's customers share a device: velocity and graph state both.
    const history = [fixedCustomer(start, 'cus-shared-1', 'dev-shared'), fixedCustomer(start + 1_000, 'cus-shared-2', 'dev-shared')];
    const next = fixedCustomer(start + 2_000, 'cus-shared-1', 'dev-shared');
    for (const key of [neighbour, control]) for (const body of history) expect((await checkpoint(key, body)).status).toBe(200);
    const controlAnswer = await checkpoint(control, next);
    expect(controlAnswer.status).toBe(200);

    // The flood: new customers, each with a new e-mail and device, until the share is held.
    const answers: Answer[] = [];
    const known: unknown[] = [];
    for (let i = 0; i < 200 && answers.at(-1)?.status !== 429; i += 1) {
      const body = fixedCustomer(start + 10_000 + i, `cus-flood-${i}`, `dev-flood-${i}`);
      const answer = await checkpoint(flooder, body);
      answers.push({ ...answer.body, status: answer.status, retryAfter: answer.headers['retry-after'] });
      if (answer.status === 200) known.push(body);
    }
    const refused = answers.at(-1) as Answer;
    expect(refused.status).toBe(429);
    expect(refused.message).toMatch(/^the account holds its share of (velocity keys|the graph's nodes) \(100: ACCOUNT_SHARE_PERCENT of (VELOCITY_MAX_KEYS|GRAPH_MAX_NODES)\); this (checkpoint|request) names .* new to the account, which it cannot add\. The data was accepted/);
    expect(known.length).toBeGreaterThan(5);
    expect(refused.retryAfter).toBe('60');

    // Past its share: the next new customer is refused too, a known one is still decided.
    expect((await checkpoint(flooder, fixedCustomer(start + 20_000, 'cus-flood-more', 'dev-flood-more'))).status).toBe(429);
    const knownAgain = await checkpoint(flooder, known[0]);
    expect(knownAgain.status).toBe(200);
    expect(knownAgain.body.data.source).not.toBe('RATE_LIMIT');
    // The refused customer's data was accepted and stored.
    expect((await service.client.send({ path: '/v2/customer/cus-flood-more', apiKey: flooder })).status).toBe(200);

    // The neighbour's next checkpoint: the same answer and features as the control's, which saw no flood in between.
    const neighbourAnswer = await checkpoint(neighbour, next);
    expect(neighbourAnswer.status).toBe(200);
    expect({ action: neighbourAnswer.body.data.action, score: neighbourAnswer.body.data.score }).toEqual({ action: controlAnswer.body.data.action, score: controlAnswer.body.data.score });
    const [neighbourDecision, controlDecision] = [await decision(neighbour, neighbourAnswer.body.data.scoreId), await decision(control, controlAnswer.body.data.scoreId)];
    expect(neighbourDecision.features).toEqual(controlDecision.features);
    expect(neighbourDecision.context.network).toEqual(controlDecision.context.network);
    expect(neighbourDecision.features).toMatchObject({ customerDistinctDevices24h: 1, deviceDistinctCustomers24h: 2 });
  }, 60_000);

  it("refuses (429) the links an account cannot add past its share of the graph, keeps answering about its known customers, and leaves another account's network whole", async () => {
    const [flooder, neighbour] = [await newAccount(), await newAccount()];
    const connect = (key: string, body: object) => service.client.send<{ status: number; message?: string; customerCount?: number; count?: number }>({ method: 'POST', path: '/v2/connect?features=true', body: { timestamp: Date.now(), ...body }, apiKey: key });
    for (const customerId of ['cus-n1', 'cus-n2']) expect((await connect(neighbour, { customer: { customerId, email: 'shared@neighbour.example' } })).status).toBe(200);

    // Each new customer with a new e-mail is two nodes: the share of 100 is held after 50.
    let refused: Awaited<ReturnType<typeof connect>> | undefined;
    for (let i = 0; i < 80 && refused === undefined; i += 1) {
      const answer = await connect(flooder, { customer: { customerId: `cus-flood-${i}`, email: `flood-${i}@flood.example` } });
      if (answer.status !== 200) refused = answer;
    }

    expect(refused?.status).toBe(429);
    expect(refused?.body.message).toMatch(/^the account holds its share of the graph's nodes \(100: ACCOUNT_SHARE_PERCENT of GRAPH_MAX_NODES\); this request names .* new to the account, which it cannot add\. The data was accepted/);
    expect((await connect(flooder, { customer: { customerId: 'cus-flood-new', email: 'flood-new@flood.example' } })).status).toBe(429);
    // A known customer linked to a known e-mail adds nothing: answered.
    const known = await connect(flooder, { customer: { customerId: 'cus-flood-0', email: 'flood-1@flood.example' } });
    expect(known.status).toBe(200);
    expect(known.body).toMatchObject({ customerCount: 2 });
    // The neighbour's network is whole, and it still links new customers.
    expect((await connect(neighbour, { customer: { customerId: 'cus-n3', email: 'shared@neighbour.example' } })).body).toMatchObject({ customerCount: 3 });
  }, 60_000);
});
