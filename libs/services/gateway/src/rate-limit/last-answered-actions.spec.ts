import type { Principal } from '@ringfence/accounts';
import { LastAnsweredActions } from './last-answered-actions';

const principal = (accountId: string, environment: 'test' | 'live' = 'test') => ({ account: { id: accountId }, environment }) as Principal;

describe(LastAnsweredActions.name, () => {
  it('answers the last action recorded for the subject, and ALLOW for a subject never answered or last answered ALLOW', () => {
    const actions = new LastAnsweredActions();
    actions.record(principal('acc_1'), 'cus-1', 'PREVENT');
    actions.record(principal('acc_1'), 'cus-2', 'REVIEW');
    actions.record(principal('acc_1'), 'cus-2', 'ALLOW');

    expect(actions.lastAction(principal('acc_1'), 'cus-1')).toBe('PREVENT');
    expect(actions.lastAction(principal('acc_1'), 'cus-2')).toBe('ALLOW');
    expect(actions.lastAction(principal('acc_1'), 'cus-3')).toBe('ALLOW');
  });

  it('keeps data sets apart: the same customerId of another account or environment is another subject', () => {
    const actions = new LastAnsweredActions();
    actions.record(principal('acc_1'), 'cus-1', 'PREVENT');

    expect(actions.lastAction(principal('acc_2'), 'cus-1')).toBe('ALLOW');
    expect(actions.lastAction(principal('acc_1', 'live'), 'cus-1')).toBe('ALLOW');
  });

  it("bounds each data set on its own: one account's many subjects forget only its own oldest, never another account's", () => {
    const actions = new LastAnsweredActions(3);
    actions.record(principal('acc_victim'), 'cus-v', 'PREVENT');
    for (let i = 0; i < 100; i += 1) actions.record(principal('acc_flood'), `cus-${i}`, 'REVIEW');

    expect(actions.lastAction(principal('acc_victim'), 'cus-v')).toBe('PREVENT');
    expect(actions.lastAction(principal('acc_flood'), 'cus-99')).toBe('REVIEW');
    expect(actions.lastAction(principal('acc_flood'), 'cus-0')).toBe('ALLOW');
  });
});
