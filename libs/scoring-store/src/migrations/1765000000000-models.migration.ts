import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The learned models of ADR-0012, owned by scoring: one row per training asked for, updated
 * as it progresses (`progress`), then `ready` with its held-out `metrics` and the model itself
 * (`artifact`, its JSON, read whole by scoring at start and on activation) or `failed` with
 * `error`. At most one model per tenant and checkpoint is active (the partial unique index).
 * `metrics` and `progress` are JSON read and written whole, so text.
 */
export class Models1765000000000 implements MigrationInterface {
  readonly name = 'Models1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE models (
        account_id text NOT NULL,
        environment text NOT NULL,
        model_id text NOT NULL,
        checkpoint text NOT NULL,
        status text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        period_from bigint NULL,
        period_to bigint NOT NULL,
        examples integer NOT NULL DEFAULT 0,
        positives integer NOT NULL DEFAULT 0,
        metrics text NULL,
        progress text NULL,
        error text NULL,
        active boolean NOT NULL DEFAULT false,
        artifact text NULL,
        CONSTRAINT pk_models PRIMARY KEY (account_id, environment, model_id),
        CONSTRAINT chk_models_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_models_status CHECK (status IN ('training', 'ready', 'failed')),
        CONSTRAINT chk_models_active_ready CHECK (NOT active OR status = 'ready')
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX uq_models_active ON models (account_id, environment, checkpoint) WHERE active`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE models');
  }
}
