import type { RuleDefinition, RuleRepository, RuleTenant } from '@ringfence/scoring-engine';
import { randomUUID } from 'node:crypto';

export function buildRuleTenant(overrides: Partial<RuleTenant> = {}): RuleTenant {
  return { accountId: `acc_${randomUUID()}`, environment: 'test', ...overrides };
}

export function buildRuleDefinition(overrides: Partial<RuleDefinition> = {}): RuleDefinition {
  return { name: 'High score', description: 'The model is sure.', checkpoint: 'customer', expression: 'score >= 90', action: 'PREVENT', state: 'active', ...overrides };
}

/** What any RuleRepository adapter must do; run against each database by its spec files. */
export function itBehavesLikeARuleRepository(repository: () => RuleRepository): void {
  it('numbers a tenant\'s rules from 1 and starts each at version 1, with its author and time', async () => {
    const tenant = buildRuleTenant();
    const before = Date.now() - 1_000;

    const first = await repository().create(tenant, buildRuleDefinition(), 'key_a');
    const second = await repository().create(tenant, buildRuleDefinition({ name: 'Second' }), 'key_b');

    expect(first).toMatchObject({ ruleId: 1, ruleVersion: 1, ...buildRuleDefinition(), createdBy: 'key_a' });
    expect(second).toMatchObject({ ruleId: 2, ruleVersion: 1, name: 'Second', createdBy: 'key_b' });
    expect(first.createdAt).toBeGreaterThanOrEqual(before);
  });

  it('records who saved each version: the person named, else the key', async () => {
    const tenant = buildRuleTenant();
    const rule = await repository().create(tenant, buildRuleDefinition(), 'key_a', 'ada@example.com');
    const edited = await repository().addVersion(tenant, rule.ruleId, buildRuleDefinition({ state: 'passive' }), 'key_b');

    expect([rule.author, edited?.author]).toEqual(['ada@example.com', 'key key_b']);
    expect((await repository().versions(tenant, rule.ruleId)).map((version) => version.author)).toEqual(['ada@example.com', 'key key_b']);
  });

  it('keeps every version, oldest first, and lists the current one per rule', async () => {
    const tenant = buildRuleTenant();
    const rule = await repository().create(tenant, buildRuleDefinition(), 'key_a');
    const edited = await repository().addVersion(tenant, rule.ruleId, buildRuleDefinition({ expression: 'score >= 95', state: 'passive' }), 'key_b');
    const payout = await repository().create(tenant, buildRuleDefinition({ checkpoint: 'payout' }), 'key_a');

    expect(edited).toMatchObject({ ruleId: rule.ruleId, ruleVersion: 2, expression: 'score >= 95', state: 'passive', createdBy: 'key_b' });
    expect((await repository().versions(tenant, rule.ruleId)).map((version) => version.ruleVersion)).toEqual([1, 2]);
    expect(await repository().currentVersions(tenant)).toEqual([edited, payout]);
    expect(await repository().currentVersions(tenant, 'payout')).toEqual([payout]);
  });

  it('keeps a pspBeforeAuth rule\'s 3-D Secure advice, in part or whole', async () => {
    const tenant = buildRuleTenant();
    const whole = await repository().create(tenant, buildRuleDefinition({ checkpoint: 'pspBeforeAuth', transactionOptimisation: { exemption: 'TRANSACTION_RISK_ANALYSIS', threeDSChallengePreference: 'NO_CHALLENGE_REQUESTED' } }), 'key_a');
    const part = await repository().create(tenant, buildRuleDefinition({ checkpoint: 'pspBeforeAuth', transactionOptimisation: { threeDSChallengePreference: 'CHALLENGE_MANDATED' } }), 'key_a');

    expect(await repository().currentVersions(tenant)).toEqual([whole, part]);
    expect(whole.transactionOptimisation).toEqual({ exemption: 'TRANSACTION_RISK_ANALYSIS', threeDSChallengePreference: 'NO_CHALLENGE_REQUESTED' });
    expect(part.transactionOptimisation).toEqual({ threeDSChallengePreference: 'CHALLENGE_MANDATED' });
  });

  it('adds no version to a rule the tenant does not have', async () => {
    const tenant = buildRuleTenant();
    const other = buildRuleTenant();
    const rule = await repository().create(other, buildRuleDefinition(), 'key_a');

    await expect(repository().addVersion(tenant, rule.ruleId, buildRuleDefinition(), 'key_a')).resolves.toBeNull();
    await expect(repository().versions(tenant, rule.ruleId)).resolves.toEqual([]);
  });

  it('keeps data sets apart: a live rule is not a test rule', async () => {
    const test = buildRuleTenant();
    const live = { ...test, environment: 'live' };
    await repository().create(test, buildRuleDefinition(), 'key_a');

    await expect(repository().currentVersions(live)).resolves.toEqual([]);
    await expect(repository().create(live, buildRuleDefinition(), 'key_a')).resolves.toMatchObject({ ruleId: 1 });
  });

  it('lists the latest version of every rule that is not disabled, with its tenant', async () => {
    const tenant = buildRuleTenant();
    const kept = await repository().create(tenant, buildRuleDefinition(), 'key_a');
    const dropped = await repository().create(tenant, buildRuleDefinition(), 'key_a');
    await repository().addVersion(tenant, dropped.ruleId, buildRuleDefinition({ state: 'disabled' }), 'key_a');

    const live = (await repository().allLiveVersions()).filter((rule) => rule.accountId === tenant.accountId);
    expect(live).toEqual([{ ...kept, ...tenant }]);
  });

  it('gives concurrent creates distinct ids and concurrent edits distinct versions', async () => {
    const tenant = buildRuleTenant();
    const created = await Promise.all([1, 2, 3, 4].map(() => repository().create(tenant, buildRuleDefinition(), 'key_a')));
    expect(created.map((rule) => rule.ruleId).sort()).toEqual([1, 2, 3, 4]);

    const edits = await Promise.all([1, 2, 3].map(() => repository().addVersion(tenant, 1, buildRuleDefinition(), 'key_a')));
    expect(edits.map((rule) => rule?.ruleVersion).sort()).toEqual([2, 3, 4]);
  });
}
