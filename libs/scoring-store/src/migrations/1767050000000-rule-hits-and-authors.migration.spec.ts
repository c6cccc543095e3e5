import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { RuleHitsAndAuthors1767050000000 } from './1767050000000-rule-hits-and-authors.migration';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';

describe(RuleHitsAndAuthors1767050000000.name, () => {
  const database = useEmbeddedTestDatabase(SCORING_STORE_SCHEMA);

  it('names the key as author of the versions saved before, and fills the hits of the decisions recorded before', async () => {
    const queryRunner = database.dataSource().createQueryRunner();
    const migration = new RuleHitsAndAuthors1767050000000();
    try {
      await migration.down(queryRunner);
      await queryRunner.query(
        `INSERT INTO rule_versions (account_id, environment, rule_id, rule_version, name, description, checkpoint, expression, action, state, created_by)
         VALUES ('acc_mig', 'test', 1, 1, 'r', '', 'customer', 'true', 'REVIEW', 'active', 'key_old')`,
      );
      const record = (scoreId: string, event: string) =>
        queryRunner.query(
          `INSERT INTO decision_records (account_id, environment, score_id, checkpoint, event_time, event, decided_at) VALUES ('acc_mig', 'test', $1, 'customer', 1, $2, 1)`,
          [scoreId, event],
        );
      await record('scr_hit', JSON.stringify({ rules: { triggered: [{ ruleId: 4 }, { ruleId: 9 }, { ruleId: 4 }] } }));
      await record('scr_none', JSON.stringify({ rules: { triggered: [] } }));
      await record('scr_bad', '{"rules": "not an object"');

      await migration.up(queryRunner);

      expect(await queryRunner.query(`SELECT author FROM rule_versions WHERE account_id = 'acc_mig'`)).toEqual([{ author: 'key key_old' }]);
      const hits = (await queryRunner.query(`SELECT score_id, hit_rule_ids FROM decision_records WHERE account_id = 'acc_mig' ORDER BY score_id`)) as Array<{ score_id: string; hit_rule_ids: number[] }>;
      expect(hits).toEqual([
        { score_id: 'scr_bad', hit_rule_ids: [] },
        { score_id: 'scr_hit', hit_rule_ids: [4, 9] },
        { score_id: 'scr_none', hit_rule_ids: [] },
      ]);
    } finally {
      await queryRunner.query(`DELETE FROM rule_versions WHERE account_id = 'acc_mig'`).catch(() => undefined);
      await queryRunner.query(`DELETE FROM decision_records WHERE account_id = 'acc_mig'`).catch(() => undefined);
      await queryRunner.release();
    }
  });
});
