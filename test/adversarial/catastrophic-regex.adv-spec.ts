import { customerRequest } from '../support/payload-factories';
import { AdversarialServer, REQUEST_TIMEOUT_MS, type Tenant } from './support/adversarial-server';
import { expectStillDeciding } from './support/still-deciding';

/**
 * 40 letters and a mismatch: on a backtracking engine `^(a+)+$` tries every way of splitting the
 * letters (2^40 of them, hours) before it fails; on a linear-time engine it is a few microseconds.
 */
const BACKTRACKING_SUBJECT = `${'a'.repeat(40)}!`;
/** The rule of issue 32, needing no data: the subject is in the expression. */
const LITERAL_EXPRESSION = `"${BACKTRACKING_SUBJECT}".matches("^(a+)+$")`;
/** The same pattern on what the attacker sends, so that its own checkpoints feed it the subject. */
const PAYLOAD_EXPRESSION = 'payload.customer.name.matches("^(a+)+$")';

type RuleAnswer = { ruleId?: number; message?: string };

/**
 * Issue 32, "One rule freezes scoring for everybody": a sandbox key saved a passive rule whose
 * regular expression backtracks for hours on scoring's event loop, and the embedded server
 * stopped answering every account, also after a restart (the rule persists); a draft rule in a
 * backtest did the same without saving anything. Each test gets a server of its own: a hang in
 * one must not fail the next. Bounded in time: every request times out after REQUEST_TIMEOUT_MS
 * and the server is killed when it does not stop.
 */
describe('attack: a catastrophically backtracking regular expression (issue 32)', () => {
  let server: AdversarialServer;
  let attacker: Tenant;
  let victim: Tenant;

  beforeEach(async () => {
    server = await AdversarialServer.start();
    attacker = await server.createTenant('attacker');
    victim = await server.createTenant('victim');
    await expectStillDeciding(server, victim, 'regex, before the attack', 3);
  }, 90_000);

  afterEach(() => server?.dispose(), 20_000);

  /** A customer checkpoint of the attacker whose name is the subject that makes the pattern backtrack. */
  const attackerCheckpoint = () =>
    server.send<{ data?: { scoreId?: string } }>({
      method: 'POST',
      path: '/v2/customer',
      body: customerRequest({ customer: { name: BACKTRACKING_SUBJECT } }),
      apiKey: attacker.secretTest,
    });

  it('as a draft in a backtest: answered within seconds (200 or a 4xx), and every account keeps deciding', async () => {
    const from = Date.now() - 60_000;
    for (let index = 0; index < 3; index += 1) expect((await attackerCheckpoint()).status).toBe(200);

    const started = performance.now();
    const backtest = await server
      .send<{ message?: string }>({
        method: 'POST',
        path: '/v2/rules/backtest',
        body: {
          checkpoint: 'customer',
          from,
          to: Date.now() + 60_000,
          rules: [
            { name: 'literal', expression: LITERAL_EXPRESSION, action: 'PREVENT' },
            { name: 'on the payload', expression: PAYLOAD_EXPRESSION, action: 'PREVENT' },
          ],
        },
        apiKey: attacker.secretTest,
      })
      .then(
        (answer) => ({ status: answer.status, text: answer.text }),
        (error: unknown) => ({ status: null, text: String(error) }),
      );
    const elapsedMs = Math.round(performance.now() - started);
    process.stdout.write(`adversarial: regex draft in a backtest answered ${backtest.status} in ${elapsedMs} ms\n`);

    await expectStillDeciding(server, victim, 'regex draft in a backtest, after the attack');
    await expectStillDeciding(server, attacker, "regex draft in a backtest, the attacker's own", 3);
    expect({ answered: backtest.status !== null && backtest.status < 500, backtest }).toEqual({ answered: true, backtest });
    expect(elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS);
  });

  it('as a passive rule: refused naming expression, or saved and run on a budget; every account keeps deciding, also after a restart', async () => {
    const saved: Array<{ status: number; body: RuleAnswer }> = [];
    for (const expression of [LITERAL_EXPRESSION, PAYLOAD_EXPRESSION]) {
      const answer = await server.send<RuleAnswer>({
        method: 'POST',
        path: '/v2/rules',
        body: { name: 'catastrophic', checkpoint: 'customer', expression, action: 'PREVENT', state: 'passive' },
        apiKey: attacker.secretTest,
      });
      saved.push({ status: answer.status, body: answer.body });
    }
    // The attacker's own checkpoint runs its rules: this is what used to wedge the event loop.
    const triggering = await attackerCheckpoint().then(
      (answer) => answer.status,
      (error: unknown) => String(error),
    );

    await expectStillDeciding(server, victim, 'regex as a passive rule, after the attack');
    await expectStillDeciding(server, attacker, "regex as a passive rule, the attacker's own", 3);
    await server.restart();
    await expectStillDeciding(server, victim, 'regex as a passive rule, after a restart');
    expect(triggering).toBe(200);
    for (const { status, body } of saved) {
      // Either answer is ADR-0016's: refused on save (400 naming expression), or saved (201) to run on a linear-time engine within its budget.
      if (status === 400) expect(body.message).toMatch(/^expression: /);
      else expect(status).toBe(201);
    }
  });
});
