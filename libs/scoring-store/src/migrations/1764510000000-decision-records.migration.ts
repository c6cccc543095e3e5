import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Decision records, owned by scoring: every decision event with a scoreId, kept for
 * `GET /v2/decisions/:scoreId` and for rule backtests, which page through one tenant's
 * checkpoint by payload time. The event is kept whole (jsonb) with the columns those reads use.
 */
export class DecisionRecords1764510000000 implements MigrationInterface {
  readonly name = 'DecisionRecords1764510000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE decision_records (
        account_id text NOT NULL,
        environment text NOT NULL,
        score_id text NOT NULL,
        checkpoint text NOT NULL,
        event_time bigint NOT NULL,
        event jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_decision_records PRIMARY KEY (account_id, environment, score_id),
        CONSTRAINT chk_decision_records_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(
      'CREATE INDEX idx_decision_records_checkpoint_time ON decision_records (account_id, environment, checkpoint, event_time, score_id)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE decision_records');
  }
}
