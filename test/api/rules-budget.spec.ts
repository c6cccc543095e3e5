import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest } from '../support/payload-factories';

type Account = { accountId: string; keys: { secretTest: string } };
type Rule = { ruleId: number; ruleVersion: number; state: string; suspension?: { suspendedAt: string; reason: string } };
type Answer = { status: number; data: { action: string; source: string; scoreId?: string } };
type Decision = { data: { rules: { failed: Array<{ ruleId: number; cause: string; error: string }> } } };

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** What used to backtrack for hours on scoring's event loop (`^(a+)+$` over 30 a's and a '!'). */
const CATASTROPHIC = `'${'a'.repeat(30)}!'.matches('^(a+)+$')`;
/** Fails at every checkpoint: the request never has the field (a rule past its budget fails alike; rule-evaluation.spec.ts). */
const ALWAYS_FAILING = "payload.customer.nickname == 'x'";

/** ADR-0016, rules on a budget, tried from outside against the embedded app. */
describe('rules on a budget (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let attacker: Account;
  let other: Account;

  beforeAll(async () => {
    service = await startEmbeddedService();
    [attacker, other] = await Promise.all(['attacker', 'other'].map(async (name) => (await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId(name) }, apiKey: TEST_ADMIN_KEY })).body));
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = <T>(account: Account, method: string, path: string, body?: unknown) => service.client.send<T>({ method, path, body, apiKey: account.keys.secretTest });
  const saveRule = (account: Account, expression: string) => send<Rule>(account, 'POST', '/v2/rules', { name: 'hostile', checkpoint: 'customer', action: 'PREVENT', state: 'passive', expression });

  /** The other account's next checkpoint: 200 with a real decision (a scoreId: degraded answers have none), timed. */
  async function expectOtherAccountDecides(): Promise<void> {
    const started = Date.now();
    const answer = await send<Answer>(other, 'POST', '/v2/customer', customerRequest());
    expect(answer.status).toBe(200);
    expect(answer.body.data.scoreId).toEqual(expect.stringMatching(/^scr/));
    expect(Date.now() - started).toBeLessThan(750);
  }

  it('takes the catastrophic pattern as a saved rule and never blocks: the next checkpoints of both accounts decide at once', async () => {
    const saved = await saveRule(attacker, CATASTROPHIC);
    expect(saved.status).toBe(201);

    const started = Date.now();
    const attackersOwn = await send<Answer>(attacker, 'POST', '/v2/customer', customerRequest());
    expect(attackersOwn.status).toBe(200);
    expect(attackersOwn.body.data.scoreId).toBeDefined();
    expect(Date.now() - started).toBeLessThan(750);
    await expectOtherAccountDecides();
  });

  it('takes the catastrophic pattern as a draft in a backtest and never blocks', async () => {
    const backtest = await send<{ data: { evaluated: number } }>(attacker, 'POST', '/v2/rules/backtest', { checkpoint: 'customer', from: 0, to: Date.now() + 60_000, rules: [{ expression: CATASTROPHIC, action: 'PREVENT' }] });

    expect(backtest.status).toBe(200);
    expect(backtest.body.data.evaluated).toBeGreaterThan(0);
    await expectOtherAccountDecides();
  });

  it('refuses on save a pattern the linear engine cannot take, with a 400 naming expression', async () => {
    const refused = await saveRule(attacker, "payload.customer.email.matches('(a)\\\\1')");

    expect(refused.status).toBe(400);
    expect((refused.body as unknown as { message: string }).message).toMatch(/^expression: matches\(\) takes RE2 syntax/);
  });

  it('reports a rule that keeps failing, suspends it after 5 in a row, keeps it suspended across a restart, and lifts it on an edit', async () => {
    const saved = await saveRule(attacker, ALWAYS_FAILING);
    expect(saved.status).toBe(201);
    const ruleId = saved.body.ruleId;

    for (let failure = 1; failure <= 5; failure += 1) {
      const answer = await send<Answer>(attacker, 'POST', '/v2/customer', customerRequest());
      expect(answer.status).toBe(200);
      const decision = await send<Decision>(attacker, 'GET', `/v2/decisions/${answer.body.data.scoreId}`);
      expect(decision.body.data.rules.failed).toContainEqual({ ruleId, ruleVersion: 1, cause: 'error', error: expect.stringContaining('nickname') });
      await expectOtherAccountDecides();
    }

    const suspended = await send<{ data: { rule: Rule } }>(attacker, 'GET', `/v2/rules/${ruleId}`);
    expect(suspended.body.data.rule).toMatchObject({ ruleVersion: 1, state: 'suspended', suspension: { reason: expect.stringContaining('5 evaluations in a row') } });
    const notEvaluated = await send<Answer>(attacker, 'POST', '/v2/customer', customerRequest());
    const notEvaluatedDecision = await send<Decision>(attacker, 'GET', `/v2/decisions/${notEvaluated.body.data.scoreId}`);
    expect(notEvaluatedDecision.body.data.rules.failed.map((failed) => failed.ruleId)).not.toContain(ruleId);

    const dataDir = service.dataDir;
    await service.close();
    service = await startEmbeddedService({ DATA_DIR: dataDir });
    const afterRestart = await send<{ data: { rules: Rule[] } }>(attacker, 'GET', '/v2/rules?checkpoint=customer');
    expect(afterRestart.body.data.rules.find((rule) => rule.ruleId === ruleId)).toMatchObject({ state: 'suspended' });
    const stillNotEvaluated = await send<Answer>(attacker, 'POST', '/v2/customer', customerRequest());
    const stillNotEvaluatedDecision = await send<Decision>(attacker, 'GET', `/v2/decisions/${stillNotEvaluated.body.data.scoreId}`);
    expect(stillNotEvaluatedDecision.body.data.rules.failed.map((failed) => failed.ruleId)).not.toContain(ruleId);

    const edited = await send<Rule>(attacker, 'PUT', `/v2/rules/${ruleId}`, { name: 'fixed', checkpoint: 'customer', action: 'PREVENT', state: 'passive', expression: 'has(payload.customer)' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ ruleVersion: 2, state: 'passive' });
    expect(edited.body.suspension).toBeUndefined();
    const evaluatedAgain = await send<Answer & { data: { rules?: { triggered: Array<{ ruleId: number }> } } }>(attacker, 'POST', '/v2/customer', customerRequest());
    expect(evaluatedAgain.body.data.rules?.triggered.map((triggered) => triggered.ruleId)).toContain(ruleId);
  }, 60_000);
});
