import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { ModelCandidates1765860000000 } from './1765860000000-model-candidates.migration';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';

describe(ModelCandidates1765860000000.name, () => {
  const database = useEmbeddedTestDatabase(SCORING_STORE_SCHEMA);

  it('says that each ready model trained before it is gradient-boosted trees, its one candidate with its metrics; down drops the columns', async () => {
    const queryRunner = database.dataSource().createQueryRunner();
    const migration = new ModelCandidates1765860000000();
    const metrics = '{"auc":0.9,"averagePrecision":0.5,"precisionAtPrevent":0.8,"recallAtReview":0.7}';
    try {
      await migration.down(queryRunner);
      await queryRunner.query(`
        INSERT INTO models (account_id, environment, model_id, checkpoint, status, created_by, period_to, metrics)
        VALUES ('acc_mig', 'test', 'mdl_ready', 'customer', 'ready', 'key_a', 1, $1), ('acc_mig', 'test', 'mdl_failed', 'customer', 'failed', 'key_a', 1, NULL)`, [metrics]);

      await migration.up(queryRunner);

      const rows = (await queryRunner.query(`SELECT model_id, algorithm, positives_by_reason, candidates, label_maturity FROM models WHERE account_id = 'acc_mig' ORDER BY model_id`)) as Record<string, unknown>[];
      expect(rows).toEqual([
        { model_id: 'mdl_failed', algorithm: null, positives_by_reason: null, candidates: null, label_maturity: null },
        { model_id: 'mdl_ready', algorithm: 'gradient-boosted-trees', positives_by_reason: null, candidates: expect.any(String), label_maturity: null },
      ]);
      expect(JSON.parse(rows[1].candidates as string)).toEqual([{ algorithm: 'gradient-boosted-trees', metrics: JSON.parse(metrics) }]);
    } finally {
      await queryRunner.query(`DELETE FROM models WHERE account_id = 'acc_mig'`).catch(() => undefined);
      await queryRunner.release();
    }
  });
});
