import fc from 'fast-check';
import { type OpenApiDocument, OpenApiArbitraries } from '../support/openapi-arbitrary';
import { customerRequest } from '../support/payload-factories';
import { type EmbeddedService, TEST_ADMIN_KEY, eventually, startEmbeddedService } from '../support/embedded-service';
import type { TestResponse } from '../support/https-client';

// Training runs on a worker thread from the built output (models.spec.ts); here it runs in
// process, with few trees, so that "trainable" is tested without a build. Everything before the
// trees (reading the decisions, their labels and features from the store) is the real thing.
jest.mock('@ringfence/learning', () => {
  const learning = jest.requireActual<typeof import('@ringfence/learning')>('@ringfence/learning');
  return {
    ...learning,
    trainInWorker: async (request: Parameters<typeof learning.trainScoringModel>[0], options: { onProgress?: Parameters<typeof learning.trainScoringModel>[1] } = {}) =>
      learning.trainScoringModel({ ...request, boosting: { trees: 10 } }, options.onProgress),
  };
});

type Account = { accountId: string; keys: { secretTest: string } };
type Recommendation = { status: number; data: { scoreId: string; action: string } };
type Model = { modelId: string; status: string; examples: number; positives: number; error?: string };

/** Generated bodies per route: enough that each route stores some (optional fields that exclude each other make some 400s). */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 20);
/**
 * The checkpoint whose hostile bodies must have been stored at least once. About one in eight of
 * its generated bodies is valid (the rest carry values just past a limit), so 20 runs stored none
 * about once in fourteen test runs (measured: 2 or 3 of 20, before and after issue 34); five times as
 * many leave that to chance about once in half a million.
 */
const STORED_AT_LEAST_ONCE = '/v2/customer';
/** 201: a rule saved; 202: a training accepted; 403/404/409: a route's own refusals; 413: a body past 1 MiB. */
const ANSWERED = new Set([200, 201, 202, 400, 403, 404, 409, 413]);
/** The public sign-in (issue 37): a generated body is nobody's credentials (401), and its failures are throttled per address (429). */
const SIGN_IN = '/v2/sessions';
const SIGN_IN_ANSWERED = new Set([...ANSWERED, 401, 429]);
/** Decisions per class for a training (MIN_EXAMPLES_PER_CLASS is 20; the time split needs both classes in each part). */
const EXAMPLES_PER_CLASS = 24;

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/**
 * ADR-0016, "nothing accepted may fail later for its size", from outside: generated
 * hostile-but-valid bodies (and values just past the bounds) at every POST route, from one
 * account; then an ordinary checkpoint of that account and of another is decided, read back by
 * scoreId on the very next request, counted by a backtest, and trained on. A value that
 * validation accepts and a writer cannot store (a `1e30` timestamp once wedged the decision
 * records' writer for every account) breaks the reads, the backtest or the training here.
 */
describe('hostile-but-valid input at every route', () => {
  let service: EmbeddedService;
  let attacker: Account;
  let victim: Account;
  let document: OpenApiDocument;

  beforeAll(async () => {
    service = await startEmbeddedService({ CUSTOMER_RATE_LIMIT_PER_MINUTE: '1000000', ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
    const createAccount = async (name: string) => (await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId(name) }, apiKey: TEST_ADMIN_KEY })).body;
    attacker = await createAccount('attacker');
    victim = await createAccount('victim');
    document = (await service.client.send<OpenApiDocument>({ path: '/openapi.json' })).body;
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = <T>(account: Account, method: string, path: string, body?: unknown) => service.client.send<T>({ method, path, body, apiKey: account.keys.secretTest });
  const postRaw = (account: Account, path: string, rawBody: string) =>
    service.client.send<{ message: string }>({ method: 'POST', path, rawBody, apiKey: account.keys.secretTest, headers: { 'content-type': 'application/json' } });

  function expectAnswered(response: TestResponse<unknown>, context: string): void {
    const answered = context.startsWith(`${SIGN_IN} `) ? SIGN_IN_ANSWERED : ANSWERED;
    if (!answered.has(response.status)) throw new Error(`${context}: answered ${response.status} ${response.text.slice(0, 300)}`);
  }

  /** A customer checkpoint of `account`, its decision read back by scoreId on the very next request. */
  async function decideAndReadBack(account: Account, body = customerRequest()): Promise<string> {
    const answer = await send<Recommendation>(account, 'POST', '/v2/customer', body);
    expect(answer.status).toBe(200);
    const decision = await send<{ data: { scoreId: string; checkpoint: string } }>(account, 'GET', `/v2/decisions/${answer.body.data.scoreId}`);
    expect(decision.status).toBe(200);
    expect(decision.body.data).toMatchObject({ scoreId: answer.body.data.scoreId, checkpoint: 'customer' });
    return answer.body.data.scoreId;
  }

  it('refuses, naming the field, what no store can hold: a 1e30 timestamp, a 2100 time in any unit, an integer past 2^53 − 1, a key named constructor', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['/v2/customer', '{"timestamp":1e30,"customer":{"customerId":"c-1e30"}}', /^timestamp: must be a Unix time from 1970-01-01 to before 2100-01-01/],
      ['/v2/customer', '{"timestamp":4102444800,"customer":{"customerId":"c-2100"}}', /^timestamp: must be a Unix time/],
      ['/v2/customer', '{"timestamp":1763800000,"customer":{"customerId":"c-ns","registrationTime":4102444800000000000}}', /^customer\.registrationTime: must be a Unix time/],
      ['/psp/transaction', '{"timestamp":1763800000,"transaction":{"transactionId":"t-2^53","amount":9007199254740992}}', /^transaction\.amount: must be from -9007199254740991 to 9007199254740991/],
      ['/v2/voucher', '{"timestamp":1763800000,"voucher":{"voucherCode":"v-1e30","value":-1e30}}', /^voucher\.value: must be from -9007199254740991/],
      ['/v2/lookup', '{"timestamp":1e30,"email":{"address":"x@example.com"}}', /^timestamp: must be a Unix time/],
      // class-transformer reads an object's own `constructor` as its class (a 500, before this was refused).
      ['/v2/registration', '{"timestamp":1763800000,"registration":{},"customer":{"customerId":"c-ctor","tags":{"constructor":true}}}', /^customer\.tags\.constructor: must not be a key named constructor$/],
    ];
    for (const [path, body, message] of cases) {
      const response = await postRaw(attacker, path, body);
      expect([path, response.status]).toEqual([path, 400]);
      expect(response.body.message).toMatch(message);
    }
    expect((await send(attacker, 'GET', '/v2/lookup?email=x@example.com&ipFromTime=1000000000000000000000')).status).toBe(400);
    // The next decision, of either account, is recorded and read back.
    await decideAndReadBack(attacker);
    await decideAndReadBack(victim);
  });

  it('accepts the edges themselves and -0, and the decisions made from them are read back', async () => {
    const edges = [0, 4_102_444_799, 1e11, Date.UTC(2100, 0, 1) - 1, 1e14, 4_102_444_799_998_000_000];
    for (const timestamp of edges) {
      await decideAndReadBack(attacker, customerRequest({ timestamp, customer: { customerId: newId('edge'), registrationTime: timestamp } }));
    }
    const negativeZero = await postRaw(attacker, '/psp/transaction?checkpoint=pspBeforeAuth', `{"timestamp":-0,"transaction":{"transactionId":"${newId('t')}","amount":-0},"customer":{"customerId":"${newId('c')}"}}`);
    expect(negativeZero.status).toBe(200);
    await decideAndReadBack(attacker);
  });

  /** Every decision answered from here on, hostile ones included, with its account: each must read back, after a restart too. */
  const answered: Array<{ account: Account; scoreId: string }> = [];
  let victimCustomer = '';

  it('answers every generated hostile body (no 5xx), records every decision it answered, then decides, reads back, backtests and trains on ordinary checkpoints of both accounts', async () => {
    const arbitraries = new OpenApiArbitraries(document, { hostile: true, justPast: true });
    const routes = Object.entries(document.paths)
      .filter(([template, operations]) => 'post' in operations && /^\/(v2|psp)\//.test(template))
      // A training is no data to store, and it holds the account's one training slot (ADR-0016) that this test's own training needs.
      .filter(([template]) => template !== '/v2/models/train')
      .map(([template]) => ({ template, path: template.replace(/\{[^}]+\}/g, 'hostile-subject') }));
    const accepted = new Map<string, number>();
    for (const route of routes) {
      const schema = arbitraries.requestSchema(route.template, 'post');
      if (!schema) continue;
      await fc.assert(
        fc.asyncProperty(arbitraries.of(schema), async (body) => {
          const response = await send<{ data?: { scoreId?: string } }>(attacker, 'POST', route.path, body);
          expectAnswered(response, `${route.template} ${JSON.stringify(body).slice(0, 300)}`);
          if (response.status >= 300) return;
          accepted.set(route.template, (accepted.get(route.template) ?? 0) + 1);
          const scoreId = response.body.data?.scoreId;
          if (typeof scoreId === 'string') answered.push({ account: attacker, scoreId });
        }),
        { numRuns: route.template === STORED_AT_LEAST_ONCE ? RUNS * 5 : RUNS },
      );
    }
    // The property means something only if hostile bodies were stored, at the checkpoints above all.
    expect(accepted.get(STORED_AT_LEAST_ONCE)).toBeGreaterThan(0);
    expect([...accepted.keys()].length).toBeGreaterThan(routes.length / 2);

    // The very next requests: a decision of each account read back, and a backtest over all time
    // (every hostile decision included) answered.
    answered.push({ account: attacker, scoreId: await decideAndReadBack(attacker) });
    answered.push({ account: victim, scoreId: await decideAndReadBack(victim) });
    const everything = { checkpoint: 'customer', from: 0, to: Number.MAX_SAFE_INTEGER, rules: [{ expression: 'true', action: 'REVIEW' }] };
    expect((await send(attacker, 'POST', '/v2/rules/backtest', everything)).status).toBe(200);

    // Ordinary traffic after it: every decision is recorded and read back on the next request.
    const start = Date.now() - 2 * EXAMPLES_PER_CLASS * 60_000;
    const fraudsters: string[] = [];
    for (let index = 0; index < 2 * EXAMPLES_PER_CLASS; index += 1) {
      const fraudster = index % 2 === 0;
      const customerId = newId(fraudster ? 'fraud' : 'genuine');
      const timestamp = start + index * 60_000;
      answered.push({ account: attacker, scoreId: await decideAndReadBack(attacker, customerRequest({ timestamp, customer: { customerId, email: `${customerId}@${fraudster ? 'mailinator.com' : 'example.com'}` } })) });
      if (fraudster) fraudsters.push(customerId);
    }
    for (const customerId of fraudsters) {
      expect((await send(attacker, 'POST', `/v2/customer/${customerId}/labels`, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' })).status).toBe(200);
    }
    victimCustomer = newId('victim');
    answered.push({ account: victim, scoreId: await decideAndReadBack(victim, customerRequest({ customer: { customerId: victimCustomer } })) });

    // Backtestable: over all time, the hostile decisions included, the ordinary ones are counted.
    const backtest = await send<{ data: { rules: Array<{ triggered: number; failed: number }>; evaluated: number } }>(attacker, 'POST', '/v2/rules/backtest', {
      checkpoint: 'customer',
      from: 0,
      to: Number.MAX_SAFE_INTEGER,
      rules: [{ name: 'fraudsters', expression: 'payload.customer.email.endsWith("@mailinator.com")', action: 'REVIEW' }],
    });
    expect(backtest.status).toBe(200);
    expect(backtest.body.data.rules[0].triggered).toBe(EXAMPLES_PER_CLASS);
    const victimBacktest = await send<{ data: { rules: Array<{ triggered: number }> } }>(victim, 'POST', '/v2/rules/backtest', {
      checkpoint: 'customer',
      from: 0,
      to: Number.MAX_SAFE_INTEGER,
      rules: [{ expression: `payload.customer.customerId == "${victimCustomer}"`, action: 'REVIEW' }],
    });
    expect(victimBacktest.status).toBe(200);
    expect(victimBacktest.body.data.rules[0].triggered).toBe(1);

    // Trainable: the ordinary period's decisions and labels are read back and a model is trained.
    const started = await send<{ modelId: string }>(attacker, 'POST', '/v2/models/train', { checkpoint: 'customer', from: start, to: Date.now() + 60_000 });
    expect(started.status).toBe(202);
    // Training runs off the request path (asynchronous by design): its end is polled for.
    const model = await eventually(async () => {
      const current = (await send<Model>(attacker, 'GET', `/v2/models/${started.body.modelId}`)).body;
      return current.status === 'training' ? null : current;
    }, 30_000);
    expect(model).toMatchObject({ status: 'ready', positives: EXAMPLES_PER_CLASS });
    expect(model.examples).toBeGreaterThanOrEqual(2 * EXAMPLES_PER_CLASS);

    // Every decision answered, the hostile ones included, is recorded: none was refused by its store.
    for (const { account, scoreId } of answered) expect([scoreId, (await send(account, 'GET', `/v2/decisions/${scoreId}`)).status]).toEqual([scoreId, 200]);
  }, 120_000);

  it('has stored everything it accepted: after a restart nothing was set aside, and every decision and the victim reads back', async () => {
    // A row a store refuses is set aside after its attempts, or at shutdown at the latest
    // (ADR-0016): after a restart the set-aside rows are all there is to see.
    const { dataDir } = service;
    await service.close();
    service = await startEmbeddedService({ DATA_DIR: dataDir });
    const setAside = await service.client.send<{ rows: Array<{ writer: string; error: string }> }>({ path: '/admin/set-aside-rows?limit=500', apiKey: TEST_ADMIN_KEY });
    expect(setAside.status).toBe(200);
    expect(setAside.body.rows.map(({ writer, error }) => `${writer}: ${error}`)).toEqual([]);
    for (const { account, scoreId } of answered) expect([scoreId, (await send(account, 'GET', `/v2/decisions/${scoreId}`)).status]).toEqual([scoreId, 200]);
    const stored = await send<{ data: { customerId: string } }>(victim, 'GET', `/v2/customer/${victimCustomer}`);
    expect(stored.status).toBe(200);
    expect(stored.body.data.customerId).toBe(victimCustomer);
  }, 60_000);
});
