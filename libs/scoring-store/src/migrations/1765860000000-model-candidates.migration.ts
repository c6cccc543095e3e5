import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a training says about itself beyond its served model's metrics (docs/model.md): the
 * algorithm that serves (`algorithm`), the positives counted by the reason the labelling policy
 * gave (`positives_by_reason`), and every algorithm it fitted with its held-out metrics
 * (`candidates`: the trees and the logistic regression baseline), and the payments it left out as
 * not labelled yet (`label_maturity`, null when none). JSON read and written whole, so text.
 * Every model trained before was gradient-boosted trees alone: its ready rows say so, with that
 * one candidate; their reasons were not counted and stay null.
 */
export class ModelCandidates1765860000000 implements MigrationInterface {
  readonly name = 'ModelCandidates1765860000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE models ADD COLUMN algorithm text NULL, ADD COLUMN positives_by_reason text NULL, ADD COLUMN candidates text NULL, ADD COLUMN label_maturity text NULL`);
    await queryRunner.query(`
      UPDATE models
         SET algorithm = 'gradient-boosted-trees',
             candidates = '[{"algorithm":"gradient-boosted-trees","metrics":' || metrics || '}]'
       WHERE status = 'ready' AND metrics IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE models DROP COLUMN label_maturity, DROP COLUMN candidates, DROP COLUMN positives_by_reason, DROP COLUMN algorithm');
  }
}
