import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { DecisionFacts1767060000000 } from './1767060000000-decision-facts.migration';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';

describe(DecisionFacts1767060000000.name, () => {
  const database = useEmbeddedTestDatabase(SCORING_STORE_SCHEMA);

  it('fills the facts of the decisions recorded before, leaving out events it cannot read', async () => {
    const queryRunner = database.dataSource().createQueryRunner();
    const migration = new DecisionFacts1767060000000();
    try {
      await migration.down(queryRunner);
      const record = (scoreId: string, event: string) =>
        queryRunner.query(
          `INSERT INTO decision_records (account_id, environment, score_id, checkpoint, event_time, event, decided_at) VALUES ('acc_mig_facts', 'test', $1, 'pspBeforeAuth', 5, $2, 1)`,
          [scoreId, event],
        );
      await record(
        'scr_payment',
        JSON.stringify({
          scoreId: 'scr_payment',
          ruleCheckpoint: 'pspBeforeAuth',
          timestamp: 5,
          recommendation: { action: 'REVIEW', source: 'RULE' },
          subject: { kind: 'customer', id: 'cus_1' },
          context: { payload: { transaction: { transactionId: 'tx_1', amount: 2500, currency: 'GBP' } } },
          signals: { model: { score: 42 } },
          rules: { triggered: [{ ruleId: 3 }] },
        }),
      );
      // A NUL escape: text holds it, jsonb would refuse it; the backfill reads it in JavaScript.
      await record('scr_nul', '{"scoreId":"scr_nul","ruleCheckpoint":"customer","timestamp":6,"subject":{"kind":"customer","id":"a\\u0000b"}}');
      await record('scr_bad', '{"scoreId": "scr_bad"');

      await migration.up(queryRunner);

      const facts = (await queryRunner.query(
        `SELECT score_id, event_time, checkpoint, action, source, model_score, subject_kind, subject_id, transaction_id, amount, currency, rule_ids
           FROM decision_facts WHERE account_id = 'acc_mig_facts' ORDER BY score_id`,
      )) as Array<Record<string, unknown>>;
      expect(facts).toEqual([
        expect.objectContaining({ score_id: 'scr_nul', checkpoint: 'customer', subject_id: null, action: null, rule_ids: [] }),
        expect.objectContaining({
          score_id: 'scr_payment',
          checkpoint: 'pspBeforeAuth',
          action: 'REVIEW',
          source: 'RULE',
          model_score: 42,
          subject_kind: 'customer',
          subject_id: 'cus_1',
          transaction_id: 'tx_1',
          currency: 'GBP',
          rule_ids: [3],
        }),
      ]);
      expect(Number(facts[1].amount)).toBe(2500);
      expect(Number(facts[1].event_time)).toBe(5);
    } finally {
      await queryRunner.query(`DELETE FROM decision_facts WHERE account_id = 'acc_mig_facts'`).catch(() => undefined);
      await queryRunner.query(`DELETE FROM decision_records WHERE account_id = 'acc_mig_facts'`).catch(() => undefined);
      await queryRunner.release();
    }
  });
});
