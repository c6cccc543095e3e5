import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { RuleSuspensions1765810000000 } from './1765810000000-rule-suspensions.migration';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';

describe(RuleSuspensions1765810000000.name, () => {
  const database = useEmbeddedTestDatabase(SCORING_STORE_SCHEMA);

  it('keeps one suspension per rule version, and down drops the table', async () => {
    const queryRunner = database.dataSource().createQueryRunner();
    const migration = new RuleSuspensions1765810000000();
    try {
      await migration.down(queryRunner);
      await migration.up(queryRunner);
      const insert = `INSERT INTO rule_suspensions (account_id, environment, rule_id, rule_version, reason) VALUES ('acc_mig', 'test', 1, 1, 'over budget')`;
      await queryRunner.query(insert);

      await expect(queryRunner.query(insert)).rejects.toThrow();
      const rows = (await queryRunner.query(`SELECT rule_id, rule_version, reason FROM rule_suspensions WHERE account_id = 'acc_mig'`)) as Record<string, unknown>[];
      expect(rows).toEqual([{ rule_id: 1, rule_version: 1, reason: 'over budget' }]);
    } finally {
      await queryRunner.query(`DELETE FROM rule_suspensions WHERE account_id = 'acc_mig'`).catch(() => undefined);
      await queryRunner.release();
    }
  });
});
