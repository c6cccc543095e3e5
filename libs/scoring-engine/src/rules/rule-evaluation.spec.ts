import type { RuleVersion } from './rule';
import type { RuleInputs } from './rule-context';
import { RuleEnvironment } from './rule-environment';
import { NO_RULES, compileRules, evaluateRules } from './rule-evaluation';

const environment = new RuleEnvironment([{ name: 'emailDisposable', type: 'bool', description: 'd' }]);

function rule(overrides: Partial<RuleVersion>): RuleVersion {
  return { ruleId: 1, ruleVersion: 1, name: 'r', description: 'why', checkpoint: 'customer', expression: 'true', action: 'REVIEW', state: 'active', createdAt: 0, createdBy: 'key_a', ...overrides };
}

const inputs: RuleInputs = { payload: { customer: { customerId: 'c-1' } }, features: { emailDisposable: true }, network: null, labels: {}, lookup: {}, score: 60 };
const context = environment.context(inputs);

describe(evaluateRules.name, () => {
  it('reports every triggered rule and the strongest active action, passive ones apart', () => {
    const { compiled } = compileRules(environment, [
      rule({ ruleId: 1, expression: 'score >= 50', action: 'REVIEW' }),
      rule({ ruleId: 2, expression: 'features.emailDisposable', action: 'PREVENT', state: 'passive' }),
      rule({ ruleId: 3, expression: 'score >= 90', action: 'PREVENT' }),
    ]);

    const outcome = evaluateRules(compiled, context);

    expect(outcome.evaluated).toBe(3);
    expect(outcome.triggered).toEqual([
      { ruleId: 1, ruleVersion: 1, ruleName: 'r', state: 'active', action: 'REVIEW', description: 'why' },
      { ruleId: 2, ruleVersion: 1, ruleName: 'r', state: 'passive', action: 'PREVENT', description: 'why' },
    ]);
    expect(outcome.activeAction).toBe('REVIEW');
    expect(outcome.actionWithPassive).toBe('PREVENT');
    expect(outcome.failed).toEqual([]);
  });

  it('reports a rule that fails at run time as failed, not triggered, and goes on', () => {
    const { compiled } = compileRules(environment, [
      rule({ ruleId: 1, expression: 'network.hopsToFraud <= 2', action: 'PREVENT' }),
      rule({ ruleId: 2, expression: 'payload.customer.customerId == "c-1"', action: 'ALLOW' }),
    ]);

    const outcome = evaluateRules(compiled, context);

    expect(outcome.failed).toEqual([{ ruleId: 1, ruleVersion: 1, error: expect.any(String), cause: 'error' }]);
    expect(outcome.triggered.map((triggered) => triggered.ruleId)).toEqual([2]);
    expect(outcome.activeAction).toBe('ALLOW');
  });

  it('skips disabled rules and rules that no longer type-check', () => {
    const { compiled, invalid } = compileRules(environment, [rule({ ruleId: 1, state: 'disabled' }), rule({ ruleId: 2, expression: 'features.gone' }), rule({ ruleId: 3 })]);

    expect(compiled.map((entry) => entry.rule.ruleId)).toEqual([3]);
    expect(invalid.map((entry) => entry.ruleId)).toEqual([2]);
  });

  it('answers no rules without work when there are none', () => {
    expect(evaluateRules([], context)).toBe(NO_RULES);
  });

  describe('on a budget (decisions §16)', () => {
    const slowInputs: RuleInputs = { ...inputs, payload: { customer: { customerId: 'c-1', note: `${'a'.repeat(4_000)}!` } } };
    const slowContext = environment.context(slowInputs);

    it('reports a rule that ran past its budget as failed, not triggered, even when it was true', () => {
      const { compiled } = compileRules(environment, [rule({ ruleId: 1, expression: "payload.customer.note.matches('^(a+)+!$')", action: 'PREVENT' })]);

      const outcome = evaluateRules(compiled, slowContext, { ruleMs: 0, checkpointMs: 100 });

      expect(outcome.triggered).toEqual([]);
      expect(outcome.activeAction).toBeNull();
      expect(outcome.failed).toEqual([{ ruleId: 1, ruleVersion: 1, error: expect.stringMatching(/^over its time budget: [0-9.]+ ms of 0 ms$/), cause: 'budget' }]);
    });

    it('does not evaluate the rules after the checkpoint has spent its budget, and says so', () => {
      const { compiled } = compileRules(environment, [rule({ ruleId: 1, expression: "payload.customer.note.matches('^(a+)+!$')" }), rule({ ruleId: 2, expression: 'true' })]);

      const outcome = evaluateRules(compiled, slowContext, { ruleMs: 1_000, checkpointMs: 0 });

      expect(outcome.triggered.map((triggered) => triggered.ruleId)).toEqual([1]);
      expect(outcome.failed).toEqual([{ ruleId: 2, ruleVersion: 1, error: expect.stringContaining('not evaluated'), cause: 'notEvaluated' }]);
    });

    it('speaks of matches, as the author wrote it, in a run-time error', () => {
      const { compiled } = compileRules(environment, [rule({ ruleId: 1, expression: 'payload.customer.customerId.matches(payload.customer.note)' })]);

      const outcome = evaluateRules(compiled, environment.context({ ...inputs, payload: { customer: { customerId: 'c', note: '(?=x)' } } }));

      expect(outcome.failed).toEqual([{ ruleId: 1, ruleVersion: 1, error: expect.stringContaining('matches() takes RE2 syntax'), cause: 'error' }]);
    });
  });
});
