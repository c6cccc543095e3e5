import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import type { DecisionFactRow } from '@ringfence/scoring-engine';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';
import { decisionFactOf } from '../stats/decision-fact';
import { TypeOrmDecisionStats } from './typeorm-decision-stats';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 0, 5);
const tenant = { accountId: 'acc-stats', environment: 'test' as const };
const other = { accountId: 'acc-other', environment: 'test' as const };

let sequence = 0;
function fact(overrides: Partial<DecisionFactRow> = {}): DecisionFactRow {
  sequence += 1;
  return {
    ...tenant,
    scoreId: `scr-${sequence}`,
    eventTime: START,
    checkpoint: 'pspBeforeAuth',
    action: 'ALLOW',
    source: 'RINGFENCE',
    modelScore: 12,
    subjectKind: 'customer',
    subjectId: `cus-${sequence}`,
    transactionId: `tx-${sequence}`,
    amount: 1000,
    currency: 'GBP',
    ruleIds: [],
    ...overrides,
  };
}

describe(TypeOrmDecisionStats.name, () => {
  const database = useEmbeddedTestDatabase(SCORING_STORE_SCHEMA);
  const stats = () => new TypeOrmDecisionStats(database.dataSource());
  const window = { from: START, to: START + 3 * HOUR, bucketMs: HOUR, offsetMs: 0 };

  it('groups a tenant\'s window by bucket, action and source, and answers its period', async () => {
    await stats().addAll([
      fact({ eventTime: START + 5 }),
      fact({ eventTime: START + 10, action: 'REVIEW', source: 'RULE' }),
      fact({ eventTime: START + HOUR + 1, action: 'REVIEW', source: 'RULE' }),
      fact({ eventTime: START + 2 * HOUR, source: null }),
      fact({ eventTime: START + 3 * HOUR }),
      fact({ ...other, eventTime: START + 7 }),
    ]);

    const buckets = await stats().buckets(tenant, window);

    expect(buckets.sort((a, b) => a.at - b.at || String(a.action).localeCompare(String(b.action)))).toEqual([
      { at: START, action: 'ALLOW', source: 'RINGFENCE', count: 1 },
      { at: START, action: 'REVIEW', source: 'RULE', count: 1 },
      { at: START + HOUR, action: 'REVIEW', source: 'RULE', count: 1 },
      { at: START + 2 * HOUR, action: 'ALLOW', source: null, count: 1 },
    ]);
    expect(await stats().period(tenant)).toEqual({ first: START + 5, last: START + 3 * HOUR });
    expect(await stats().period({ accountId: 'acc-none', environment: 'test' })).toBeNull();
    expect(await stats().checkpoints(tenant, window)).toEqual([{ checkpoint: 'pspBeforeAuth', count: 4 }]);
  });

  it('keeps the first facts of a decision recorded twice', async () => {
    const first = fact({ eventTime: START + 20, action: 'PREVENT' });
    await stats().addAll([first]);
    await stats().addAll([{ ...first, action: 'ALLOW' }]);

    const buckets = await stats().buckets(tenant, { ...window, from: START + 20, to: START + 21 });

    expect(buckets).toEqual([{ at: START, action: 'PREVENT', source: 'RINGFENCE', count: 1 }]);
  });

  it('counts decisions on known fraud subjects (ids with colons too) and transactions per action and currency, with amounts', async () => {
    const from = START + 10 * HOUR;
    await stats().addAll([
      fact({ eventTime: from, subjectId: 'fraud:1', action: 'REVIEW', amount: 700 }),
      fact({ eventTime: from + 1, subjectId: 'fraud:1', action: 'PREVENT', amount: null, currency: null }),
      fact({ eventTime: from + 2, transactionId: 'tx-disputed', action: 'ALLOW', amount: 300, currency: 'EUR' }),
      fact({ eventTime: from + 3, subjectId: 'fraud:1', subjectKind: 'supplier', action: 'ALLOW' }),
      fact({ eventTime: from + 4, action: 'ALLOW' }),
      fact({ ...other, eventTime: from + 5, subjectId: 'fraud:1', action: 'ALLOW' }),
    ]);
    const fraudWindow = { from, to: from + HOUR, bucketMs: HOUR, offsetMs: 0 };

    const counts = await stats().fraud(tenant, fraudWindow, { subjects: ['customer:fraud:1'], transactions: ['tx-disputed'] });

    expect(counts.sort((a, b) => String(a.action).localeCompare(String(b.action)))).toEqual([
      { action: 'ALLOW', currency: 'EUR', decisions: 1, amount: 300 },
      { action: 'PREVENT', currency: null, decisions: 1, amount: 0 },
      { action: 'REVIEW', currency: 'GBP', decisions: 1, amount: 700 },
    ]);
    expect(await stats().fraud(tenant, fraudWindow, { subjects: [], transactions: [] })).toEqual([]);
  });

  it('counts rule hits per checkpoint, most first, and model scores in ten bins', async () => {
    const from = START + 20 * HOUR;
    await stats().addAll([
      fact({ eventTime: from, ruleIds: [7, 9], modelScore: 0 }),
      fact({ eventTime: from + 1, ruleIds: [9], modelScore: 99.5 }),
      fact({ eventTime: from + 2, checkpoint: 'customer', ruleIds: [9], modelScore: 100 }),
      fact({ eventTime: from + 3, modelScore: null }),
      fact({ eventTime: from + 4, modelScore: 45 }),
    ]);
    const statsWindow = { from, to: from + HOUR, bucketMs: HOUR, offsetMs: 0 };

    expect(await stats().ruleHits(tenant, statsWindow, 10)).toEqual([
      { ruleId: 9, name: '', checkpoint: 'pspBeforeAuth', hits: 2 },
      { ruleId: 7, name: '', checkpoint: 'pspBeforeAuth', hits: 1 },
      { ruleId: 9, name: '', checkpoint: 'customer', hits: 1 },
    ]);
    expect(await stats().ruleHits(tenant, statsWindow, 1)).toHaveLength(1);
    expect((await stats().scoreBins(tenant, statsWindow)).sort((a, b) => a.bin - b.bin)).toEqual([
      { bin: 0, count: 1 },
      { bin: 4, count: 1 },
      { bin: 9, count: 2 },
    ]);
  });
});

describe('decisionFactOf', () => {
  const event = {
    scoreId: 'scr-1',
    ruleCheckpoint: 'pspBeforeAuth',
    timestamp: START,
    recommendation: { action: 'REVIEW', source: 'RULE', score: 100 },
    subject: { kind: 'customer', id: 'cus-1' },
    context: { payload: { transaction: { transactionId: 'tx-1', amount: 2500, currency: 'GBP' } } },
    signals: { model: { score: 31.5, action: 'ALLOW' } },
    rules: { triggered: [{ ruleId: 4 }, { ruleId: 4 }, { ruleId: 'x' }] },
  };

  it('takes what the overview counts from a recorded decision event', () => {
    expect(decisionFactOf(tenant, event)).toEqual({
      ...tenant,
      scoreId: 'scr-1',
      eventTime: START,
      checkpoint: 'pspBeforeAuth',
      action: 'REVIEW',
      source: 'RULE',
      modelScore: 31.5,
      subjectKind: 'customer',
      subjectId: 'cus-1',
      transactionId: 'tx-1',
      amount: 2500,
      currency: 'GBP',
      ruleIds: [4],
    });
  });

  it('reads an order\'s price, and leaves out what is missing or not storable', () => {
    const fact = decisionFactOf(tenant, { ...event, subject: { kind: 'customer', id: 'a\u0000b' }, signals: {}, context: { payload: { order: { price: 990, currency: 'EUR' } } } });
    expect(fact).toMatchObject({ subjectKind: null, subjectId: null, modelScore: null, transactionId: null, amount: 990, currency: 'EUR' });
    expect(decisionFactOf(tenant, { ...event, scoreId: undefined })).toBeNull();
    expect(decisionFactOf(tenant, { ...event, timestamp: 1.5 })).toBeNull();
  });
});
