import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import { eventually } from '../tools/eventually';
import { customerRequest } from '../support/payload-factories';

type Account = { accountId: string; keys: { secretTest: string } };
type Backtest = { data: { evaluated: number } };
type Refusal = { message: string };
type Answer = { data: { scoreId?: string } };

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/**
 * Test-sized bounds (ADR-0016): the gateway waits 1,600 ms for scoring, so a backtest has
 * 1,100 ms (the wait less its 500 ms margin); a backtest may count 250 decisions; one decision's
 * rules may spend 5 ms. The time bound leaves a checkpoint sent beside the backtest most of a
 * second to be answered, on a loaded machine too (with 400 ms, a busy CI machine answered it
 * in the same millisecond the backtest stopped).
 */
const REQUEST_TIMEOUT_MS = 1_600;
const BACKTEST_DURATION_MS = 1_100;
const MAX_DECISIONS = 250;
const CHECKPOINT_RULES_BUDGET_MS = 5;

/** The data set's decisions, one per millisecond of payload time from `FIRST`: one more than the bound. */
const FIRST = Date.now() - 3_600_000;
const DECISIONS = MAX_DECISIONS + 1;

/**
 * Work that takes every decision its whole rules' budget on any machine: 50 drafts, each
 * building 200 strings of 3,000 characters and searching them (0.2–1 ms each), so 250
 * decisions cost at least 250 × 5 ms, past the 1,100 ms bound, in steps of about 5 ms between
 * which the event loop can turn.
 */
const HEAVY_RULES = Array.from({ length: 50 }, (_, index) => ({
  name: `heavy ${index}`,
  action: 'REVIEW',
  expression: `[${Array.from({ length: 200 }, (_, element) => element).join(',')}].map(x, '${'ab'.repeat(1_500)}' + string(x)).exists(s, s.contains(payload.customer.customerId) || s.contains(payload.customer.email))`,
}));
const CHEAP_RULES = [{ name: 'cheap', action: 'REVIEW', expression: 'has(payload.customer)' }];

/** ADR-0016, bounded backtests, tried from outside against the embedded app. */
describe('backtest bounds (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let tenant: Account;
  let other: Account;

  beforeAll(async () => {
    service = await startEmbeddedService({
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      BACKTEST_MAX_DECISIONS: String(MAX_DECISIONS),
      CHECKPOINT_RULES_BUDGET_MS: String(CHECKPOINT_RULES_BUDGET_MS),
    });
    [tenant, other] = await Promise.all(['tenant', 'other'].map(async (name) => (await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId(name) }, apiKey: TEST_ADMIN_KEY })).body));
    for (let batch = 0; batch < DECISIONS; batch += 10) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(10, DECISIONS - batch) }, (_, index) => send<Answer>(tenant, '/v2/customer', customerRequest({ timestamp: FIRST + batch + index }))),
      );
      for (const answer of answers) expect(answer.status).toBe(200);
    }
  }, 120_000);

  afterAll(async () => {
    await service?.close();
  });

  function send<T>(account: Account, path: string, body: unknown, timeoutMs?: number) {
    return service.client.send<T>({ method: 'POST', path, body, apiKey: account.keys.secretTest, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  }

  /** A backtest of the tenant's customer decisions with payload time in [FIRST, FIRST + decisions). */
  function backtest<T = Backtest>(rules: unknown[], decisions: number, timeoutMs?: number) {
    return send<T>(tenant, '/v2/rules/backtest', { checkpoint: 'customer', from: FIRST, to: FIRST + decisions, rules }, timeoutMs);
  }

  it('refuses a range holding more decisions than its bound with a 400 naming from, and answers the range narrowed to the bound', async () => {
    const refused = await backtest<Refusal>(CHEAP_RULES, DECISIONS);

    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`from: the range holds more than ${MAX_DECISIONS} decisions of the checkpoint; narrow from and to`);
    const narrowed = await backtest(CHEAP_RULES, MAX_DECISIONS);
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.data.evaluated).toBe(MAX_DECISIONS);
  });

  it("stops at its time bound with a 400 naming from, before the gateway's timeout; meanwhile another account decides and a second backtest of the data set is a 429", async () => {
    const started = Date.now();
    const heavy = backtest<Refusal>(HEAVY_RULES, MAX_DECISIONS).then((answer) => ({ answer, at: Date.now() }));
    // Once the heavy backtest has begun (its body read, its rules compiled), two requests beside it.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const [second, otherCheckpoint] = await Promise.all([
      backtest<Refusal>(CHEAP_RULES, 1),
      send<Answer>(other, '/v2/customer', customerRequest()).then((answer) => ({ answer, at: Date.now() })),
    ]);
    const { answer: stopped, at: stoppedAt } = await heavy;

    expect(second.status).toBe(429);
    expect(second.body.message).toMatch(/a backtest of this data set is already running/);
    // A real decision, answered while the backtest was still evaluating: it lets the event loop turn.
    expect(otherCheckpoint.answer.status).toBe(200);
    expect(otherCheckpoint.answer.body.data.scoreId).toMatch(/^scr/);
    expect(otherCheckpoint.at).toBeLessThan(stoppedAt);
    expect(otherCheckpoint.at - started).toBeLessThan(750);
    expect(stopped.status).toBe(400);
    expect(stopped.body.message).toMatch(/^from: the backtest ran out of time after \d+ decisions; narrow from and to/);
    expect(stoppedAt - started).toBeGreaterThanOrEqual(BACKTEST_DURATION_MS);
    expect(stoppedAt - started).toBeLessThan(REQUEST_TIMEOUT_MS);
    // Its data set is free again at once.
    expect((await backtest(CHEAP_RULES, 1)).status).toBe(200);
  });

  it('stops when its client goes away: the data set is free for the next backtest at once, long before the time bound', async () => {
    const started = Date.now();
    const abandoned = backtest(HEAVY_RULES, MAX_DECISIONS, 300);
    // Running: a second one is refused. Polled, as asynchronous by design: the first request is
    // unanswered, so nothing tells when the server began it (on a busy machine, after a fixed
    // 100 ms wait the second could arrive first and run). A cheap one that does is answered at once.
    const refused = await eventually(async () => {
      const answer = await backtest<Refusal>(CHEAP_RULES, 1);
      return answer.status === 429 ? answer : null;
    }, 250);
    expect(refused.body.message).toMatch(/a backtest of this data set is already running/);

    await expect(abandoned).rejects.toThrow(/no answer within 300 ms/);
    const next = await backtest(CHEAP_RULES, 1);

    expect(next.status).toBe(200);
    expect(next.body.data.evaluated).toBe(1);
    expect(Date.now() - started).toBeLessThan(BACKTEST_DURATION_MS);
  });
});
