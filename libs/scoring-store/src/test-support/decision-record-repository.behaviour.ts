import type { DecisionRecordRepository, RuleTenant, StoredDecisionRecord } from '@ringfence/scoring-engine';
import { randomUUID } from 'node:crypto';
import { buildRuleTenant } from './rule-repository.behaviour';
import { AWKWARD_TEXTS } from '@ringfence/persistence/testing';

function buildDecisionRecord(overrides: Partial<StoredDecisionRecord> = {}): StoredDecisionRecord {
  const scoreId = overrides.scoreId ?? `scr_${randomUUID()}`;
  return {
    scoreId,
    checkpoint: 'customer',
    timestamp: 1_764_000_000_000,
    event: { scoreId, recommendation: { action: 'ALLOW' } },
    decidedAt: 1_764_000_000_123,
    subjectKind: 'customer',
    subjectId: 'cus-1',
    action: 'ALLOW',
    ...overrides,
  };
}

/** What any DecisionRecordRepository adapter must do; run against each database by its spec files. */
export function itBehavesLikeADecisionRecordRepository(repository: () => DecisionRecordRepository): void {
  it('finds a stored record by its scoreId, only for its tenant', async () => {
    const tenant = buildRuleTenant();
    const record = buildDecisionRecord();
    await repository().addAll([{ ...record, ...tenant }]);

    await expect(repository().find(tenant, record.scoreId)).resolves.toEqual(record);
    await expect(repository().find(buildRuleTenant(), record.scoreId)).resolves.toBeNull();
    await expect(repository().find({ ...tenant, environment: 'live' }, record.scoreId)).resolves.toBeNull();
  });

  it('keeps every character of the events of one batch', async () => {
    const tenant = buildRuleTenant();
    const records = AWKWARD_TEXTS.map((text) =>
      buildDecisionRecord({ event: { text, nested: [text, { text }] } }),
    );
    await repository().addAll(records.map((record) => ({ ...record, ...tenant })));

    for (const record of records) await expect(repository().find(tenant, record.scoreId)).resolves.toEqual(record);
  });

  it('keeps the first copy of a redelivered record', async () => {
    const tenant = buildRuleTenant();
    const record = buildDecisionRecord();
    await repository().addAll([{ ...record, ...tenant }]);
    await repository().addAll([{ ...record, event: { changed: true }, ...tenant }]);

    await expect(repository().find(tenant, record.scoreId)).resolves.toEqual(record);
  });

  it('spans a checkpoint\'s records from the first payload time to the last, only for its tenant', async () => {
    const tenant = buildRuleTenant();
    const at = (timestamp: number, checkpoint = 'customer') => buildDecisionRecord({ timestamp, checkpoint });
    await repository().addAll([at(500), at(120), at(330), at(50, 'payout'), at(900, 'payout')].map((record) => ({ ...record, ...tenant })));

    await expect(repository().period(tenant, 'customer')).resolves.toEqual({ first: 120, last: 500 });
    await expect(repository().period(tenant, 'refund')).resolves.toBeNull();
    await expect(repository().period(buildRuleTenant(), 'customer')).resolves.toBeNull();
  });

  it('counts each rule\'s hits by the service\'s time of deciding, in one read, only for its tenant', async () => {
    const tenant = buildRuleTenant();
    const now = 1_800_000_000_000;
    const hour = 3_600_000;
    const decided = (decidedAt: number, ...ruleIds: number[]) =>
      buildDecisionRecord({ decidedAt, event: { rules: { triggered: ruleIds.map((ruleId) => ({ ruleId, ruleVersion: 1, state: 'active', action: 'REVIEW' })) } } });
    const records = [decided(now - hour, 1, 2), decided(now - 3 * 24 * hour, 1), decided(now - 40 * 24 * hour, 1, 3), decided(now - 2 * hour), decided(now - 5 * hour, 2, 2)];
    await repository().addAll(records.map((record) => ({ ...record, ...tenant })));

    const hits = await repository().ruleHits(tenant, now);

    expect([...hits].sort((a, b) => a.ruleId - b.ruleId)).toEqual([
      { ruleId: 1, last24h: 1, last30d: 2, total: 3, lastHitAt: now - hour },
      { ruleId: 2, last24h: 2, last30d: 2, total: 2, lastHitAt: now - hour },
      { ruleId: 3, last24h: 0, last30d: 0, total: 1, lastHitAt: now - 40 * 24 * hour },
    ]);
    await expect(repository().ruleHits(buildRuleTenant(), now)).resolves.toEqual([]);
  });

  it('pages a checkpoint in [from, to) by time and scoreId, resuming after a cursor', async () => {
    const tenant = buildRuleTenant();
    const at = (timestamp: number, scoreId: string, checkpoint = 'customer') => buildDecisionRecord({ timestamp, scoreId, checkpoint });
    const records = [at(100, 'b'), at(100, 'a'), at(200, 'c'), at(300, 'd'), at(150, 'e', 'payout'), at(99, 'early'), at(400, 'late')];
    await repository().addAll(records.map((record) => ({ ...record, ...tenant })));

    const first = await repository().page(tenant, 'customer', 100, 400, null, 2);
    const last = first.at(-1) as StoredDecisionRecord;
    const second = await repository().page(tenant, 'customer', 100, 400, { timestamp: last.timestamp, scoreId: last.scoreId }, 2);

    expect(first.map((record) => record.scoreId)).toEqual(['a', 'b']);
    expect(second.map((record) => record.scoreId)).toEqual(['c', 'd']);
  });

  describe('list (newest first)', () => {
    const at = (timestamp: number, scoreId: string, overrides: Partial<StoredDecisionRecord> = {}) => buildDecisionRecord({ timestamp, scoreId, ...overrides });
    const ids = (records: StoredDecisionRecord[]) => records.map((record) => record.scoreId);
    async function stored(records: StoredDecisionRecord[]): Promise<RuleTenant> {
      const tenant = buildRuleTenant();
      await repository().addAll(records.map((record) => ({ ...record, ...tenant })));
      return tenant;
    }

    it('lists by time then scoreId, descending, and resumes strictly before a cursor', async () => {
      const tenant = await stored([at(100, 'a'), at(100, 'b'), at(300, 'c'), at(200, 'd', { checkpoint: 'payout' })]);

      const first = await repository().list(tenant, {}, null, 3);
      const last = first.at(-1) as StoredDecisionRecord;
      const rest = await repository().list(tenant, {}, { timestamp: last.timestamp, scoreId: last.scoreId }, 3);

      expect(ids(first)).toEqual(['c', 'd', 'b']);
      expect(ids(rest)).toEqual(['a']);
    });

    it('reads back the listing columns it stored', async () => {
      const record = at(100, 'x', { decidedAt: 1_764_000_000_999, subjectKind: 'supplier', subjectId: 'sup-1', action: 'REVIEW' });
      const tenant = await stored([record]);

      await expect(repository().list(tenant, {}, null, 10)).resolves.toEqual([record]);
      await expect(repository().find(tenant, 'x')).resolves.toEqual(record);
    });

    it('filters by checkpoint, action, subject and [from, to), each alone and together', async () => {
      const tenant = await stored([
        at(100, 'a', { action: 'REVIEW', subjectId: 'cus-1' }),
        at(200, 'b', { action: 'ALLOW', subjectId: 'cus-2' }),
        at(300, 'c', { action: 'REVIEW', subjectId: 'cus-2', checkpoint: 'refund' }),
        at(400, 'd', { action: 'PREVENT', subjectKind: 'supplier', subjectId: 'cus-1', checkpoint: 'payout' }),
      ]);
      const list = (filter: Parameters<DecisionRecordRepository['list']>[1]) => repository().list(tenant, filter, null, 10).then(ids);

      await expect(list({ checkpoint: 'customer' })).resolves.toEqual(['b', 'a']);
      await expect(list({ action: 'REVIEW' })).resolves.toEqual(['c', 'a']);
      await expect(list({ subjectKind: 'customer', subjectId: 'cus-1' })).resolves.toEqual(['a']);
      await expect(list({ subjectKind: 'supplier' })).resolves.toEqual(['d']);
      await expect(list({ from: 200, to: 400 })).resolves.toEqual(['c', 'b']);
      await expect(list({ action: 'REVIEW', subjectKind: 'customer', subjectId: 'cus-2', from: 300 })).resolves.toEqual(['c']);
    });

    it('lists only the tenant and data set asked', async () => {
      const tenant = await stored([at(100, 'mine')]);

      await expect(repository().list(buildRuleTenant(), {}, null, 10)).resolves.toEqual([]);
      await expect(repository().list({ ...tenant, environment: tenant.environment === 'test' ? 'live' : 'test' }, {}, null, 10)).resolves.toEqual([]);
    });

    it('keeps every character of a subject id it filters by', async () => {
      const records = AWKWARD_TEXTS.map((text, index) => at(index, `s${index}`, { subjectId: text }));
      const tenant = await stored(records);

      for (const record of records) {
        await expect(repository().list(tenant, { subjectKind: 'customer', subjectId: record.subjectId ?? '' }, null, 10).then(ids)).resolves.toEqual([record.scoreId]);
      }
    });
  });
}
