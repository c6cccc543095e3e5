import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest, pspTransactionRequest } from '../support/payload-factories';

type Account = { accountId: string; keys: { secretTest: string; secretLive: string; publishableTest: string } };
type Rule = { ruleId: number; ruleVersion: number; name: string; description: string; checkpoint: string; expression: string; action: string; state: string; createdAt: string; createdBy: string; author: string };
type Envelope = { status: number; message: string; timestamp: number; traceId: string };
type Triggered = { ruleId: number; ruleVersion: number; ruleName?: string; state: string; action: string; description: string };
type BacktestMatch = { scoreId: string; subjectId: string | null; timestamp: number; amount?: number; currency?: string; before: string; after: string; outcome: string | null };
type BacktestResult = {
  from: number;
  to: number;
  evaluated: number;
  actions: { before: Record<string, number>; after: Record<string, number> };
  changed: Array<{ from: string; to: string; count: number }>;
  matches: BacktestMatch[];
};
type Recommendation = { action: string; source: string; score?: number; scoreId?: string; rules?: { passiveAction?: string; triggered: Triggered[] } };

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** ADR-0011 and ADR-0012 (rules, backtests, decisions by scoreId), through the embedded app over HTTPS. */
describe('rules API (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;

  beforeAll(async () => {
    service = await startEmbeddedService();
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('rules') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    account = created.body;
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = <T>(method: string, path: string, body?: unknown, apiKey = account.keys.secretTest) => service.client.send<T>({ method, path, body, apiKey });
  const createRule = (body: Record<string, unknown>, apiKey?: string) =>
    send<Rule>('POST', '/v2/rules', { name: 'rule', checkpoint: 'customer', action: 'REVIEW', state: 'active', ...body }, apiKey);
  const customerCheckpoint = (body: Record<string, unknown>) => send<{ status: number; data: Recommendation }>('POST', '/v2/customer', body);

  function expectEnvelope(response: { status: number; body: unknown }, status: number): Envelope {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ status, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
    return response.body as Envelope;
  }

  describe('managing rules', () => {
    it('creates version 1 with an integer id, the author key and the time', async () => {
      const created = await createRule({ name: 'Disposable', description: 'Throwaway e-mail', expression: 'score >= 0', checkpoint: 'payout' });

      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        ruleId: expect.any(Number),
        ruleVersion: 1,
        name: 'Disposable',
        description: 'Throwaway e-mail',
        checkpoint: 'payout',
        expression: 'score >= 0',
        action: 'REVIEW',
        state: 'active',
        createdAt: expect.stringMatching(/Z$/),
        createdBy: expect.stringMatching(/^key_/),
        author: `key ${created.body.createdBy}`,
      });
      expect(Number.isInteger(created.body.ruleId)).toBe(true);
    });

    it('refuses an invalid expression with a 400 naming expression and the position, and saves nothing', async () => {
      const before = await send<{ data: { rules: Rule[] } }>('GET', '/v2/rules?checkpoint=refund');

      const unknownName = await createRule({ checkpoint: 'refund', expression: 'scor >= 80' });
      const notBoolean = await createRule({ checkpoint: 'refund', expression: 'score + 1' });
      const syntax = await createRule({ checkpoint: 'refund', expression: 'score >=' });

      expect(expectEnvelope(unknownName, 400).message).toMatch(/^expression: .*scor.*\(at position 0\)$/);
      expect(expectEnvelope(notBoolean, 400).message).toMatch(/^expression: .*boolean/);
      expect(expectEnvelope(syntax, 400).message).toMatch(/^expression: .*position 8/);
      const after = await send<{ data: { rules: Rule[] } }>('GET', '/v2/rules?checkpoint=refund');
      expect(after.body.data.rules).toEqual(before.body.data.rules);
    });

    it('refuses fields the API fixes: checkpoint, action, state', async () => {
      expect(expectEnvelope(await createRule({ expression: 'true', checkpoint: 'login' }), 400).message).toMatch(/checkpoint/);
      expect(expectEnvelope(await createRule({ expression: 'true', action: 'BLOCK' }), 400).message).toMatch(/action/);
      expect(expectEnvelope(await createRule({ expression: 'true', state: 'on' }), 400).message).toMatch(/state/);
    });

    it('validates without saving: valid, or the errors with their positions', async () => {
      const valid = await send<{ valid: boolean; errors: unknown[] }>('POST', '/v2/rules/validate', { checkpoint: 'customer', expression: 'score > 10 && has(payload.customer.email)' });
      const invalid = await send<{ valid: boolean; errors: Array<{ message: string; position: number | null }> }>('POST', '/v2/rules/validate', { checkpoint: 'customer', expression: 'features.notAFeature' });

      expect(valid.body).toEqual({ valid: true, errors: [] });
      expect(invalid.status).toBe(200);
      expect(invalid.body).toEqual({ valid: false, errors: [{ message: expect.stringContaining('notAFeature'), position: expect.any(Number) }] });
    });

    it('edits as a new version, disables with DELETE, and keeps every version', async () => {
      const created = await createRule({ checkpoint: 'registration', expression: 'score >= 90', action: 'PREVENT' });
      const ruleId = created.body.ruleId;

      const edited = await send<Rule>('PUT', `/v2/rules/${ruleId}`, { name: 'Edited', checkpoint: 'registration', expression: 'score >= 95', action: 'PREVENT', state: 'passive' });
      const disabled = await send<Rule>('DELETE', `/v2/rules/${ruleId}`);
      const read = await send<{ data: { rule: Rule; versions: Rule[] } }>('GET', `/v2/rules/${ruleId}`);

      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ ruleId, ruleVersion: 2, name: 'Edited', state: 'passive' });
      expect(disabled.status).toBe(200);
      expect(disabled.body).toMatchObject({ ruleId, ruleVersion: 3, name: 'Edited', state: 'disabled' });
      expect(read.body.data.rule).toEqual({ ...disabled.body, hits: { last24h: 0, last30d: 0, total: 0 }, lastHitAt: null });
      expect(read.body.data.versions.map((version) => [version.ruleVersion, version.state])).toEqual([[1, 'active'], [2, 'passive'], [3, 'disabled']]);
    });

    it('answers 404 for a rule the data set does not have, and 400 for a ruleId that is not an integer', async () => {
      const created = await createRule({ expression: 'true', checkpoint: 'payout' });

      expectEnvelope(await send('GET', `/v2/rules/${created.body.ruleId}`, undefined, account.keys.secretLive), 404);
      expectEnvelope(await send('PUT', '/v2/rules/999999', { name: 'x', checkpoint: 'payout', expression: 'true', action: 'ALLOW', state: 'active' }), 404);
      expectEnvelope(await send('DELETE', '/v2/rules/999999'), 404);
      expect(expectEnvelope(await send('GET', '/v2/rules/abc'), 400).message).toMatch(/ruleId/);
    });

    it('is for secret keys only', async () => {
      expectEnvelope(await send('GET', '/v2/rules', undefined, account.keys.publishableTest), 403);
    });
  });

  describe('at checkpoints', () => {
    it('decides with an active rule on the very next checkpoint, and reports it', async () => {
      const marker = newId('rule-marker');
      const rule = await createRule({ name: 'Marked', description: 'Customers marked by the test', expression: `payload.customer.customerId.startsWith("${marker}")`, action: 'PREVENT' });

      const answer = await customerCheckpoint(customerRequest({ customer: { customerId: `${marker}-1` } }));

      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ action: 'PREVENT', source: 'RULE' });
      expect(answer.body.data.rules).toEqual({ triggered: [{ ruleId: rule.body.ruleId, ruleVersion: 1, state: 'active', action: 'PREVENT', description: 'Customers marked by the test' }] });
    });

    it('reports a passive rule and the action it would have given, without deciding', async () => {
      const marker = newId('passive-marker');
      const rule = await createRule({ expression: `payload.customer.customerId.startsWith("${marker}")`, action: 'PREVENT', state: 'passive' });

      const answer = await customerCheckpoint(customerRequest({ customer: { customerId: `${marker}-1` } }));

      expect(answer.body.data.source).not.toBe('RULE');
      expect(answer.body.data.action).not.toBe('PREVENT');
      expect(answer.body.data.rules).toEqual({ passiveAction: 'PREVENT', triggered: [expect.objectContaining({ ruleId: rule.body.ruleId, state: 'passive' })] });
    });

    it('says passiveAction whenever a passive rule triggered, also when it would not change the action', async () => {
      const marker = newId('same-action');
      const active = await createRule({ expression: `payload.customer.customerId.startsWith("${marker}")`, action: 'REVIEW' });
      const passive = await createRule({ expression: `payload.customer.customerId.startsWith("${marker}")`, action: 'ALLOW', state: 'passive' });

      const answer = await customerCheckpoint(customerRequest({ customer: { customerId: `${marker}-1` } }));

      expect(answer.body.data).toMatchObject({ action: 'REVIEW', source: 'RULE' });
      expect(answer.body.data.rules).toEqual({
        passiveAction: 'REVIEW',
        triggered: [expect.objectContaining({ ruleId: active.body.ruleId, state: 'active' }), expect.objectContaining({ ruleId: passive.body.ruleId, state: 'passive' })],
      });
    });

    it('counts each rule\'s hits and last hit on the very next read, in the list and on the rule', async () => {
      const marker = newId('hits');
      const rule = await createRule({ expression: `payload.customer.customerId.startsWith("${marker}")`, action: 'REVIEW', state: 'passive' });
      const idle = await createRule({ expression: `payload.customer.customerId.startsWith("${marker}-never")`, action: 'REVIEW' });
      const before = Date.now();
      await customerCheckpoint(customerRequest({ customer: { customerId: `${marker}-1` } }));
      await customerCheckpoint(customerRequest({ customer: { customerId: `${marker}-2` }, timestamp: Date.UTC(2020, 0, 1) }));

      const list = await send<{ data: { rules: Array<Rule & { hits: unknown; lastHitAt: number | null }> } }>('GET', '/v2/rules?checkpoint=customer');
      const read = await send<{ data: { rule: Rule & { hits: unknown; lastHitAt: number | null }; versions: Rule[] } }>('GET', `/v2/rules/${rule.body.ruleId}`);

      const listed = list.body.data.rules.find((listedRule) => listedRule.ruleId === rule.body.ruleId);
      // Counted by when the service decided, so history stamped long ago counts in the last 24 hours too.
      expect(listed).toMatchObject({ hits: { last24h: 2, last30d: 2, total: 2 }, lastHitAt: expect.any(Number) });
      expect(listed?.lastHitAt).toBeGreaterThanOrEqual(before);
      expect(list.body.data.rules.find((listedRule) => listedRule.ruleId === idle.body.ruleId)).toMatchObject({ hits: { last24h: 0, last30d: 0, total: 0 }, lastHitAt: null });
      expect(read.body.data.rule).toMatchObject({ hits: { last24h: 2, last30d: 2, total: 2 }, lastHitAt: listed?.lastHitAt });
      expect(read.body.data.versions.map((version) => version.author)).toEqual([`key ${rule.body.createdBy}`]);
    });

    it('never fails a checkpoint for a rule that fails at run time; the decision event reports it', async () => {
      const marker = newId('failing-marker');
      // `payload.customer.nickname` is absent: reading it fails at run time, not at save.
      const failing = await createRule({ expression: `payload.customer.customerId.startsWith("${marker}") && payload.customer.nickname == "x"`, action: 'PREVENT' });

      const answer = await customerCheckpoint(customerRequest({ customer: { customerId: `${marker}-1` } }));
      const decision = await send<{ data: { rules: { failed: Array<{ ruleId: number; error: string }> } } }>('GET', `/v2/decisions/${answer.body.data.scoreId}`);

      expect(answer.status).toBe(200);
      expect(answer.body.data.rules?.triggered.some((triggered) => triggered.ruleId === failing.body.ruleId)).toBe(false);
      expect(decision.status).toBe(200);
      expect(decision.body.data.rules.failed).toContainEqual({ ruleId: failing.body.ruleId, ruleVersion: 1, error: expect.stringContaining('nickname'), cause: 'error' });
    });

    it('stops deciding on the very next checkpoint once the rule is disabled', async () => {
      const marker = newId('disabled-marker');
      const rule = await createRule({ expression: `payload.customer.customerId.startsWith("${marker}")`, action: 'PREVENT' });
      await send('DELETE', `/v2/rules/${rule.body.ruleId}`);

      const answer = await customerCheckpoint(customerRequest({ customer: { customerId: `${marker}-1` } }));

      expect(answer.body.data.source).not.toBe('RULE');
      expect(answer.body.data.rules?.triggered ?? []).toEqual([]);
    });

    it('keeps data sets apart: a test rule does not apply to live checkpoints', async () => {
      const marker = newId('test-only');
      await createRule({ expression: `payload.customer.customerId.startsWith("${marker}")`, action: 'PREVENT' });

      const live = await send<{ data: Recommendation }>('POST', '/v2/customer', customerRequest({ customer: { customerId: `${marker}-1` } }), account.keys.secretLive);

      expect(live.body.data.source).not.toBe('RULE');
    });

    it('runs the PSP rules of the checkpoint the transaction was sent to, with ruleName absent outside payouts', async () => {
      const before = await createRule({ checkpoint: 'pspBeforeAuth', expression: 'payload.transaction.amount >= 500000', action: 'PREVENT', description: 'Large before auth' });
      await createRule({ checkpoint: 'pspAfterAuth', expression: 'payload.transaction.amount >= 500000', action: 'REVIEW' });

      const answer = await send<{ data: Recommendation }>('POST', '/psp/transaction?checkpoint=pspBeforeAuth', pspTransactionRequest({ transaction: { amount: 600000 } }));

      expect(answer.status).toBe(200);
      expect(answer.body.data.action).toBe('PREVENT');
      expect(answer.body.data.rules?.triggered).toEqual([{ ruleId: before.body.ruleId, ruleVersion: 1, state: 'active', action: 'PREVENT', description: 'Large before auth' }]);
    });

    it('names the rule at payouts', async () => {
      const rule = await createRule({ checkpoint: 'payout', name: 'Weekly payouts', expression: 'payload.payout.schedule == "WEEKLY"', action: 'REVIEW' });
      const supplierId = newId('sup');

      const answer = await send<{ data: Recommendation }>('POST', '/v2/payout', {
        timestamp: Date.now(),
        supplier: { supplierId },
        payout: { payoutId: newId('po'), schedule: 'WEEKLY' },
      });

      expect(answer.status).toBe(200);
      expect(answer.body.data.rules?.triggered).toContainEqual(expect.objectContaining({ ruleId: rule.body.ruleId, ruleName: 'Weekly payouts' }));
    });
  });

  describe('decisions and backtests', () => {
    it('reads a decision by scoreId on the very next request, with what it was decided from', async () => {
      const answer = await customerCheckpoint(customerRequest());

      const decision = await send<{ data: Record<string, unknown> }>('GET', `/v2/decisions/${answer.body.data.scoreId}`);

      expect(decision.status).toBe(200);
      expect(decision.body.data).toMatchObject({
        checkpoint: 'customer',
        ruleCheckpoint: 'customer',
        scoreId: answer.body.data.scoreId,
        recommendation: { action: answer.body.data.action },
        features: expect.any(Object),
        context: { payload: expect.any(Object), network: expect.anything(), labels: {}, lookup: expect.any(Object), score: expect.any(Number) },
        signals: expect.objectContaining({ model: expect.any(Object) }),
      });
      expectEnvelope(await send('GET', `/v2/decisions/${answer.body.data.scoreId}`, undefined, account.keys.secretLive), 404);
    });

    it('explains an answer on ?explain=true: the top contributions either way, the triggered rules, the reason', async () => {
      const marker = newId('explain');
      const rule = await createRule({ name: 'Explained', expression: `payload.customer.customerId.startsWith("${marker}")`, action: 'REVIEW', state: 'passive' });

      const plain = await customerCheckpoint(customerRequest({ customer: { customerId: `${marker}-1` } }));
      const explained = await send<{ data: Recommendation & { explanation: Record<string, unknown> } }>('POST', '/v2/customer?explain=true', customerRequest({ customer: { customerId: `${marker}-2`, email: 'x81726354@example.com' } }));

      expect(plain.body.data).not.toHaveProperty('explanation');
      expect(explained.body.data.explanation).toEqual({
        modelVersion: expect.any(String),
        // No learned model at this account's customer checkpoint: the built-in one scored, and says so.
        model: { id: explained.body.data.explanation.modelVersion, kind: 'built-in', algorithm: 'additive' },
        modelScore: expect.any(Number),
        baseScore: expect.any(Number),
        raised: expect.arrayContaining([expect.objectContaining({ feature: 'emailLocalPartDigitRatio', contribution: expect.any(Number) })]),
        lowered: expect.any(Array),
        others: expect.any(Number),
        rules: [{ ruleId: rule.body.ruleId, ruleVersion: 1, name: 'Explained', state: 'passive', action: 'REVIEW' }],
        reason: expect.any(String),
      });
      // One unit: the base and every contribution, listed or not, add up to the model's score.
      const { baseScore, modelScore, raised, lowered, others } = explained.body.data.explanation as { baseScore: number; modelScore: number; raised: Array<{ contribution: number }>; lowered: Array<{ contribution: number }>; others: number };
      expect(baseScore + [...raised, ...lowered].reduce((sum, item) => sum + item.contribution, 0) + others).toBeCloseTo(modelScore, 6);
      const decision = await send<{ data: { explanation: unknown } }>('GET', `/v2/decisions/${explained.body.data.scoreId}`);
      expect(decision.body.data.explanation).toEqual(explained.body.data.explanation);
      expect(expectEnvelope(await send('POST', '/v2/customer?explain=maybe', customerRequest()), 400).message).toMatch(/explain/);
    });

    it('gives every checkpoint answer a score and a scoreId that reads back its decision', async () => {
      const answer = await send<{ data: Recommendation }>('POST', '/v2/payout?explain=true', {
        timestamp: Date.now(),
        supplier: { supplierId: newId('sup') },
        payout: { payoutId: newId('po') },
      });

      expect(answer.body.data).toMatchObject({ score: expect.any(Number), scoreId: expect.stringMatching(/^scr_/), source: expect.any(String), explanation: expect.any(Object) });
      const decision = await send<{ data: { checkpoint: string } }>('GET', `/v2/decisions/${answer.body.data.scoreId}`);
      expect(decision.status).toBe(200);
      expect(decision.body.data.checkpoint).toBe('payout');
    });

    it('backtests drafts and stored rules over past decisions with labelled precision and recall, changing nothing', async () => {
      const from = Date.now() - 1_000;
      const marker = newId('bt');
      const fraudster = `${marker}-fraud`;
      const genuine = `${marker}-genuine`;
      await customerCheckpoint(customerRequest({ customer: { customerId: fraudster, email: 'x9182@fraud.example' } }));
      await customerCheckpoint(customerRequest({ customer: { customerId: genuine } }));
      await send('POST', `/v2/customer/${fraudster}/labels`, { review: 'FRAUDSTER' });
      await send('POST', `/v2/customer/${genuine}/labels`, { review: 'GENUINE' });
      const stored = await createRule({ expression: `payload.customer.customerId.startsWith("${marker}")`, action: 'REVIEW', state: 'passive' });
      const rulesBefore = await send<{ data: { rules: Rule[] } }>('GET', '/v2/rules?checkpoint=customer');

      const backtest = await send<{ data: Record<string, unknown> }>('POST', '/v2/rules/backtest', {
        checkpoint: 'customer',
        from,
        to: Date.now() + 1_000,
        rules: [{ name: 'fraud e-mail', expression: 'payload.customer.email.endsWith("@fraud.example")', action: 'PREVENT' }, { ruleId: stored.body.ruleId }],
      });

      expect(backtest.status).toBe(200);
      expect(backtest.body.data).toMatchObject({
        rules: [
          { name: 'fraud e-mail', triggered: 1, failed: 0 },
          { ruleId: stored.body.ruleId, triggered: 2, failed: 0 },
        ],
        labelled: { fraud: 1, fraudTriggered: 1, genuine: 1, genuineTriggered: 1, precision: 0.5, recall: 1 },
      });
      expect((backtest.body.data.changed as Array<{ to: string; count: number }>).some((change) => change.to === 'PREVENT' && change.count >= 1)).toBe(true);
      expect((await send<{ data: { rules: Rule[] } }>('GET', '/v2/rules?checkpoint=customer')).body.data.rules).toEqual(rulesBefore.body.data.rules);
    });

    it('keeps the other stored rules in force: an unchanged rule beside a stronger one changes nothing, an edit of the stronger one does', async () => {
      const marker = newId('beside');
      const matching = `payload.customer.customerId.startsWith("${marker}")`;
      const weaker = await createRule({ name: 'weaker', expression: matching, action: 'REVIEW' });
      const stronger = await createRule({ name: 'stronger', expression: matching, action: 'PREVENT' });
      const from = Date.now() - 1_000;
      const answers = [await customerCheckpoint(customerRequest({ customer: { customerId: `${marker}-1` } })), await customerCheckpoint(customerRequest({ customer: { customerId: `${marker}-2` } }))];
      expect(answers.map((answer) => answer.body.data.action)).toEqual(['PREVENT', 'PREVENT']);
      const backtest = (rules: unknown[]) => send<{ data: BacktestResult }>('POST', '/v2/rules/backtest', { checkpoint: 'customer', from, to: Date.now() + 1_000, rules });

      const unchanged = await backtest([{ ruleId: weaker.body.ruleId }]);
      const edited = await backtest([{ ruleId: stronger.body.ruleId, expression: 'false', action: 'PREVENT' }]);

      expect(unchanged.status).toBe(200);
      expect(unchanged.body.data.changed).toEqual([]);
      expect(unchanged.body.data.actions.after).toEqual(unchanged.body.data.actions.before);
      const scoreIds = answers.map((answer) => answer.body.data.scoreId).reverse();
      expect(unchanged.body.data.matches.filter((match) => scoreIds.includes(match.scoreId))).toEqual(
        scoreIds.map((scoreId, index) => ({ scoreId, subjectId: `${marker}-${2 - index}`, timestamp: expect.any(Number), before: 'PREVENT', after: 'PREVENT', outcome: null })),
      );
      expect(edited.body.data.changed).toEqual([{ from: 'PREVENT', to: 'REVIEW', count: 2 }]);
    });

    it('backtests the data set\'s period of the checkpoint when from and to are absent, however long ago it was stamped', async () => {
      const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('history') }, apiKey: TEST_ADMIN_KEY });
      const key = created.body.keys.secretTest;
      const first = Date.UTC(2021, 0, 4, 9);
      const last = Date.UTC(2021, 1, 15, 17);
      for (const timestamp of [first, Date.UTC(2021, 0, 20), last]) {
        expect((await send('POST', '/v2/customer', customerRequest({ timestamp }), key)).status).toBe(200);
      }

      const backtest = await send<{ data: BacktestResult }>('POST', '/v2/rules/backtest', { checkpoint: 'customer', rules: [{ expression: 'true', action: 'PREVENT' }] }, key);

      expect(backtest.status).toBe(200);
      expect(backtest.body.data).toMatchObject({ from: first, to: last + 1, evaluated: 3 });
      expect(backtest.body.data.matches.map((match) => match.timestamp)).toEqual([last, Date.UTC(2021, 0, 20), first]);
      expect(backtest.body.data.matches.every((match) => match.after === 'PREVENT')).toBe(true);
    });

    it('refuses an invalid draft naming it, and a stored rule of another checkpoint', async () => {
      const payoutRule = await createRule({ checkpoint: 'payout', expression: 'true' });
      const window = { checkpoint: 'customer', from: 0, to: Date.now() };

      expect(expectEnvelope(await send('POST', '/v2/rules/backtest', { ...window, rules: [{ expression: 'scor > 1', action: 'REVIEW' }] }), 400).message).toMatch(/^rules\[0\]\.expression/);
      expect(expectEnvelope(await send('POST', '/v2/rules/backtest', { ...window, rules: [{ ruleId: payoutRule.body.ruleId }] }), 400).message).toMatch(/payout/);
      expect(expectEnvelope(await send('POST', '/v2/rules/backtest', { ...window, to: 0, rules: [{ expression: 'true', action: 'REVIEW' }] }), 400).message).toMatch(/^to/);
    });
  });
});
