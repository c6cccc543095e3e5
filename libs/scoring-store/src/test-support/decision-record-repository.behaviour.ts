import type { DecisionRecord, DecisionRecordRepository } from '@ringfence/scoring-engine';
import { randomUUID } from 'node:crypto';
import { buildRuleTenant } from './rule-repository.behaviour';
import { AWKWARD_TEXTS } from '@ringfence/persistence/testing';

function buildDecisionRecord(overrides: Partial<DecisionRecord> = {}): DecisionRecord {
  const scoreId = overrides.scoreId ?? `scr_${randomUUID()}`;
  return { scoreId, checkpoint: 'customer', timestamp: 1_764_000_000_000, event: { scoreId, recommendation: { action: 'ALLOW' } }, ...overrides };
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

  it('pages a checkpoint in [from, to) by time and scoreId, resuming after a cursor', async () => {
    const tenant = buildRuleTenant();
    const at = (timestamp: number, scoreId: string, checkpoint = 'customer') => buildDecisionRecord({ timestamp, scoreId, checkpoint });
    const records = [at(100, 'b'), at(100, 'a'), at(200, 'c'), at(300, 'd'), at(150, 'e', 'payout'), at(99, 'early'), at(400, 'late')];
    await repository().addAll(records.map((record) => ({ ...record, ...tenant })));

    const first = await repository().page(tenant, 'customer', 100, 400, null, 2);
    const last = first.at(-1) as DecisionRecord;
    const second = await repository().page(tenant, 'customer', 100, 400, { timestamp: last.timestamp, scoreId: last.scoreId }, 2);

    expect(first.map((record) => record.scoreId)).toEqual(['a', 'b']);
    expect(second.map((record) => record.scoreId)).toEqual(['c', 'd']);
  });
}
