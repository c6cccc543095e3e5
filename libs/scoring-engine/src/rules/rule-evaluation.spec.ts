import { performance } from 'node:perf_hooks';
import { linearMatches } from './linear-regex';
import type { RuleVersion } from './rule';
import type { RuleInputs } from './rule-context';
import { RuleEnvironment } from './rule-environment';
import { type CompiledRule, NO_RULES, compileRules, evaluateRules } from './rule-evaluation';

const environment = new RuleEnvironment([{ name: 'emailDisposable', type: 'bool', description: 'd' }]);

function rule(overrides: Partial<RuleVersion>): RuleVersion {
  return { ruleId: 1, ruleVersion: 1, name: 'r', description: 'why', checkpoint: 'customer', expression: 'true', action: 'REVIEW', state: 'active', createdAt: 0, createdBy: 'key_a', ...overrides };
}

/** Holds the thread for `ms`, as a pause of the garbage collector or the scheduler does. */
function pause(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * A compiled rule whose expression answers `answer()` after a pause of `pauseMs` at the
 * evaluations `pausedAt` names (1 for the first): the pause is injected, the rule itself is
 * cheap, as `payload.customer.email.endsWith(...)` is. Counts its evaluations.
 */
function pausedRule(options: { ruleId: number; pausedAt: (evaluation: number) => boolean; pauseMs: number; answer?: () => unknown }): { compiled: CompiledRule; evaluations: () => number } {
  let evaluations = 0;
  const expression = () => {
    evaluations += 1;
    if (options.pausedAt(evaluations)) pause(options.pauseMs);
    return (options.answer ?? (() => true))();
  };
  return { compiled: { rule: rule({ ruleId: options.ruleId }), expression }, evaluations: () => evaluations };
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

  describe('on a budget (ADR-0016)', () => {
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

    // The pause is four times the budget and the budget generous, so the second evaluation fits
    // it even on a loaded machine (a 5 ms budget, then a 25 ms one, was overrun there by the
    // evaluation itself: 75 ms with both cores busy).
    it('triggers a rule whose evaluation a pause pushed past its budget: the overrun is evaluated again, and that answer stands', () => {
      const paused = pausedRule({ ruleId: 1, pausedAt: (evaluation) => evaluation === 1, pauseMs: 250 });

      const outcome = evaluateRules([paused.compiled], context, { ruleMs: 60, checkpointMs: 1_000 });

      expect(outcome.failed).toEqual([]);
      expect(outcome.triggered.map((triggered) => triggered.ruleId)).toEqual([1]);
      expect(outcome.activeAction).toBe('REVIEW');
      expect(paused.evaluations()).toBe(2);
    });

    it('triggers a rule whose matches() a pause put past the deadline, once evaluated again', () => {
      const paused = pausedRule({ ruleId: 1, pausedAt: (evaluation) => evaluation === 1, pauseMs: 250, answer: () => linearMatches('someone@mailinator.com', '@mailinator[.]com$') });

      const outcome = evaluateRules([paused.compiled], context, { ruleMs: 60, checkpointMs: 1_000 });

      expect(outcome.failed).toEqual([]);
      expect(outcome.triggered.map((triggered) => triggered.ruleId)).toEqual([1]);
    });

    it('fails a rule that is slow at every evaluation after two evaluations, never more: its cost at most doubles', () => {
      const slow = pausedRule({ ruleId: 1, pausedAt: () => true, pauseMs: 10 });

      const outcome = evaluateRules([slow.compiled], context, { ruleMs: 5, checkpointMs: 100 });

      expect(outcome.triggered).toEqual([]);
      expect(outcome.failed).toEqual([{ ruleId: 1, ruleVersion: 1, error: expect.stringMatching(/^over its time budget: [0-9.]+ ms of 5 ms$/), cause: 'budget' }]);
      expect(slow.evaluations()).toBe(2);
    });

    it("charges the checkpoint's budget what a rule costs without the pause, so a pause leaves the later rules evaluated", () => {
      const paused = pausedRule({ ruleId: 1, pausedAt: (evaluation) => evaluation === 1, pauseMs: 40 });
      const { compiled: [later] } = compileRules(environment, [rule({ ruleId: 2, expression: 'true' })]);

      const outcome = evaluateRules([paused.compiled, later], context, { ruleMs: 5, checkpointMs: 25 });

      expect(outcome.failed).toEqual([]);
      expect(outcome.triggered.map((triggered) => triggered.ruleId)).toEqual([1, 2]);
    });

    it('speaks of matches, as the author wrote it, in a run-time error', () => {
      const { compiled } = compileRules(environment, [rule({ ruleId: 1, expression: 'payload.customer.customerId.matches(payload.customer.note)' })]);

      const outcome = evaluateRules(compiled, environment.context({ ...inputs, payload: { customer: { customerId: 'c', note: '(?=x)' } } }));

      expect(outcome.failed).toEqual([{ ruleId: 1, ruleVersion: 1, error: expect.stringContaining('matches() takes RE2 syntax'), cause: 'error' }]);
    });
  });
});
