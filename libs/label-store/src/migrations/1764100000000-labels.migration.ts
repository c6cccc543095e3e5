import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Manual-review labels (ADR-0008): `labels` holds each category's current label, one row
 * per (tenant, subject kind, subject, category), absent once cleared; `label_history` is the
 * append-only audit log, read back in `sequence` order (the order the reviews were applied).
 */
export class Labels1764100000000 implements MigrationInterface {
  readonly name = 'Labels1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE labels (
        account_id text NOT NULL,
        environment text NOT NULL,
        subject_kind text NOT NULL,
        subject_id text NOT NULL,
        category text NOT NULL,
        review text NOT NULL,
        event_time timestamptz NOT NULL,
        reviewer_name text NULL,
        reviewer_email text NULL,
        comment text NULL,
        CONSTRAINT pk_labels PRIMARY KEY (account_id, environment, subject_kind, subject_id, category),
        CONSTRAINT chk_labels_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_labels_subject_kind CHECK (subject_kind IN ('customer', 'supplier'))
      )`);
    await queryRunner.query(`
      CREATE TABLE label_history (
        sequence bigserial NOT NULL,
        account_id text NOT NULL,
        environment text NOT NULL,
        subject_kind text NOT NULL,
        subject_id text NOT NULL,
        category text NOT NULL,
        review text NOT NULL,
        previous_review text NULL,
        event_time timestamptz NOT NULL,
        reviewer_name text NULL,
        reviewer_email text NULL,
        comment text NULL,
        CONSTRAINT pk_label_history PRIMARY KEY (sequence),
        CONSTRAINT chk_label_history_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_label_history_subject_kind CHECK (subject_kind IN ('customer', 'supplier'))
      )`);
    await queryRunner.query(
      `CREATE INDEX idx_label_history_subject ON label_history (account_id, environment, subject_kind, subject_id, sequence)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE label_history`);
    await queryRunner.query(`DROP TABLE labels`);
  }
}
