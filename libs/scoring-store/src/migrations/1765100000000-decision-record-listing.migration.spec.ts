import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { DecisionRecordListing1765100000000 } from './1765100000000-decision-record-listing.migration';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';

describe(DecisionRecordListing1765100000000.name, () => {
  const database = useEmbeddedTestDatabase(SCORING_STORE_SCHEMA);

  it('fills the listing columns of records stored before it from their events, and a record it cannot read with nulls', async () => {
    const queryRunner = database.dataSource().createQueryRunner();
    const migration = new DecisionRecordListing1765100000000();
    try {
      await migration.down(queryRunner);
      const insert = `INSERT INTO decision_records (account_id, environment, score_id, checkpoint, event_time, event, recorded_at) VALUES ($1, 'test', $2, 'customer', 1, $3, to_timestamp(1764000000.123))`;
      await queryRunner.query(insert, ['acc_1', 'scr_payout', JSON.stringify({ subject: { kind: 'supplier', id: 'sup-"1"' }, recommendation: { action: 'REVIEW' } })]);
      await queryRunner.query(insert, ['acc_1', 'scr_nul', JSON.stringify({ subject: { kind: 'customer', id: 'cus-\u0000' }, recommendation: { action: 'ALLOW' } })]);
      await queryRunner.query(insert, ['acc_1', 'scr_old', JSON.stringify({ recommendation: {} })]);
      await queryRunner.query(insert, ['acc_2', 'scr_broken', 'not json']);

      await migration.up(queryRunner);

      const rows = (await queryRunner.query('SELECT score_id, subject_kind, subject_id, action, decided_at FROM decision_records ORDER BY score_id')) as Record<string, unknown>[];
      expect(rows).toEqual([
        { score_id: 'scr_broken', subject_kind: null, subject_id: null, action: null, decided_at: '1764000000123' },
        { score_id: 'scr_nul', subject_kind: null, subject_id: null, action: 'ALLOW', decided_at: '1764000000123' },
        { score_id: 'scr_old', subject_kind: null, subject_id: null, action: null, decided_at: '1764000000123' },
        { score_id: 'scr_payout', subject_kind: 'supplier', subject_id: 'sup-"1"', action: 'REVIEW', decided_at: '1764000000123' },
      ]);
    } finally {
      await queryRunner.release();
    }
  });
});
