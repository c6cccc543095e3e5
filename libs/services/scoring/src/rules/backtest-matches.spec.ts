import type { StoredDecisionRecord } from '@ringfence/scoring-engine';
import type { RecordedDecision } from '../decisions/recorded-decision';
import { BacktestMatches, MAX_BACKTEST_MATCHES } from './backtest-matches';
import { othersInForce } from './rule-backtest';

function record(timestamp: number, overrides: Partial<StoredDecisionRecord> = {}): StoredDecisionRecord {
  return { scoreId: `scr_${timestamp}`, checkpoint: 'pspBeforeAuth', timestamp, event: {}, decidedAt: timestamp, subjectKind: 'customer', subjectId: 'cus-1', action: 'ALLOW', ...overrides };
}

describe(BacktestMatches.name, () => {
  it('lists the decisions newest first with the amount decided on and what is known now', () => {
    const matches = new BacktestMatches();
    matches.add(record(1), { amountMajorUnits: 19.99, currency: 'GBP' }, 'ALLOW', 'PREVENT', 'fraud');
    matches.add(record(2), {}, 'REVIEW', 'REVIEW', 'unknown');

    expect(matches.list()).toEqual([
      { scoreId: 'scr_2', subjectId: 'cus-1', timestamp: 2, before: 'REVIEW', after: 'REVIEW', outcome: null },
      { scoreId: 'scr_1', subjectId: 'cus-1', timestamp: 1, amount: 19.99, currency: 'GBP', before: 'ALLOW', after: 'PREVENT', outcome: 'fraud' },
    ]);
  });

  it('keeps only the newest matches', () => {
    const matches = new BacktestMatches();
    for (let timestamp = 1; timestamp <= MAX_BACKTEST_MATCHES + 5; timestamp += 1) matches.add(record(timestamp), {}, 'ALLOW', 'REVIEW', 'genuine');

    const listed = matches.list();
    expect(listed).toHaveLength(MAX_BACKTEST_MATCHES);
    expect([listed[0].timestamp, listed.at(-1)?.timestamp]).toEqual([MAX_BACKTEST_MATCHES + 5, 6]);
  });
});

describe('othersInForce', () => {
  const triggered = (ruleId: number, state: string, action: 'ALLOW' | 'REVIEW' | 'PREVENT') => ({ ruleId, ruleVersion: 1, state, action });
  const event = (...rules: Array<ReturnType<typeof triggered>>): RecordedDecision => ({ rules: { triggered: rules } });

  it('is the strongest active rule the decision recorded as true', () => {
    expect(othersInForce(event(triggered(1, 'active', 'REVIEW'), triggered(2, 'active', 'PREVENT'), triggered(3, 'passive', 'ALLOW')), new Set())).toBe('PREVENT');
  });

  it('leaves out the rules the backtest tries, which take their own place, and passive rules', () => {
    expect(othersInForce(event(triggered(1, 'active', 'REVIEW'), triggered(2, 'active', 'PREVENT')), new Set([2]))).toBe('REVIEW');
    expect(othersInForce(event(triggered(3, 'passive', 'PREVENT')), new Set())).toBeNull();
  });

  it('is null for a decision that recorded no rule', () => {
    expect(othersInForce({}, new Set())).toBeNull();
  });
});
