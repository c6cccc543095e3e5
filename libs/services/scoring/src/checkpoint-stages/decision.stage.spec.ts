import type { RuleAction } from '@ringfence/contracts';
import { NO_RULES, type RulesOutcome, type TriggeredRule } from '@ringfence/scoring-engine';
import { type SourceSignals, decideCheckpoint, passiveActionOf } from './decision.stage';

function signals(overrides: Partial<SourceSignals> = {}): SourceSignals {
  return { labels: [], unforgivenChargeback: false, lookup: null, hopsToFraud: -1, voucherNetwork: null, model: { score: 12, action: 'ALLOW' }, ...overrides };
}

function triggered(ruleId: number, state: 'active' | 'passive', action: RuleAction): TriggeredRule {
  return { ruleId, ruleVersion: 1, ruleName: `rule ${ruleId}`, state, action, description: '' };
}

/** An outcome as evaluateRules makes it: the strongest active action, and the strongest of all. */
function outcome(...rules: TriggeredRule[]): RulesOutcome {
  const severity: Record<RuleAction, number> = { ALLOW: 0, REVIEW: 1, PREVENT: 2 };
  const strongest = (of: TriggeredRule[]) => of.reduce<RuleAction | null>((best, rule) => (best === null || severity[rule.action] > severity[best] ? rule.action : best), null);
  return { evaluated: rules.length, triggered: rules, failed: [], activeAction: strongest(rules.filter((rule) => rule.state === 'active')), actionWithPassive: strongest(rules) };
}

describe('passiveActionOf', () => {
  it('is absent when no passive rule triggered', () => {
    expect(passiveActionOf(signals(), NO_RULES)).toBeUndefined();
    expect(passiveActionOf(signals(), outcome(triggered(1, 'active', 'PREVENT')))).toBeUndefined();
  });

  it('names the action given when a passive rule triggered without changing it (active REVIEW, passive ALLOW)', () => {
    const rules = outcome(triggered(1, 'active', 'REVIEW'), triggered(2, 'passive', 'ALLOW'));

    expect(decideCheckpoint(signals(), rules).action).toBe('REVIEW');
    expect(passiveActionOf(signals(), rules)).toBe('REVIEW');
  });

  it('names the action the passive rules would have given', () => {
    expect(passiveActionOf(signals(), outcome(triggered(1, 'active', 'REVIEW'), triggered(2, 'passive', 'PREVENT')))).toBe('PREVENT');
    expect(passiveActionOf(signals(), outcome(triggered(2, 'passive', 'REVIEW')))).toBe('REVIEW');
  });

  it('weighs the passive rules in the sources\' precedence: a label still comes first', () => {
    expect(passiveActionOf(signals({ labels: ['GENUINE'] }), outcome(triggered(2, 'passive', 'PREVENT')))).toBe('ALLOW');
  });

  it('says ALLOW for a passive ALLOW alone over a model ALLOW: fired, same action', () => {
    expect(passiveActionOf(signals(), outcome(triggered(2, 'passive', 'ALLOW')))).toBe('ALLOW');
  });
});
