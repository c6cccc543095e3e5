import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cases (issue 37, ADR-0017): `cases` (one open or in-review case per subject, enforced by a
 * partial unique index), `case_decisions` (each REVIEW decision once per data set: a replayed
 * event adds nothing), `case_events` (the audit trail, notes included) and `payment_reviews`
 * (every review of a payment, withdrawn ones kept).
 */
export class Cases1766100000000 implements MigrationInterface {
  readonly name = 'Cases1766100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE cases (
        case_id text NOT NULL,
        account_id text NOT NULL,
        environment text NOT NULL,
        subject_kind text NOT NULL,
        subject_id text NOT NULL,
        status text NOT NULL,
        outcome text NULL,
        assignee_email text NULL,
        assignee_name text NULL,
        checkpoints jsonb NOT NULL,
        decision_count integer NOT NULL,
        max_score double precision NOT NULL,
        total_amount bigint NULL,
        total_currency text NULL,
        opened_at timestamptz NOT NULL,
        last_decision_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        closed_at timestamptz NULL,
        version integer NOT NULL,
        CONSTRAINT pk_cases PRIMARY KEY (case_id),
        CONSTRAINT chk_cases_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_cases_status CHECK (status IN ('open', 'in_review', 'closed')),
        CONSTRAINT chk_cases_subject_kind CHECK (subject_kind IN ('customer', 'supplier'))
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX uq_cases_active_subject ON cases (account_id, environment, subject_kind, subject_id) WHERE status IN ('open', 'in_review')`,
    );
    await queryRunner.query(`CREATE INDEX idx_cases_tenant_opened ON cases (account_id, environment, opened_at)`);
    await queryRunner.query(`CREATE INDEX idx_cases_tenant_subject ON cases (account_id, environment, subject_kind, subject_id, opened_at)`);
    await queryRunner.query(`
      CREATE TABLE case_decisions (
        account_id text NOT NULL,
        environment text NOT NULL,
        decision_key text NOT NULL,
        case_id text NOT NULL,
        score_id text NOT NULL,
        checkpoint text NOT NULL,
        action text NOT NULL,
        score double precision NOT NULL,
        decided_at timestamptz NOT NULL,
        transaction_id text NULL,
        order_id text NULL,
        amount bigint NULL,
        currency text NULL,
        CONSTRAINT pk_case_decisions PRIMARY KEY (account_id, environment, decision_key),
        CONSTRAINT chk_case_decisions_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(`CREATE INDEX idx_case_decisions_case ON case_decisions (case_id, decided_at)`);
    await queryRunner.query(`
      CREATE TABLE case_events (
        sequence bigserial NOT NULL,
        account_id text NOT NULL,
        environment text NOT NULL,
        case_id text NOT NULL,
        at timestamptz NOT NULL,
        actor text NOT NULL,
        action text NOT NULL,
        detail text NOT NULL,
        CONSTRAINT pk_case_events PRIMARY KEY (sequence),
        CONSTRAINT chk_case_events_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(`CREATE INDEX idx_case_events_case ON case_events (case_id, sequence)`);
    await queryRunner.query(`
      CREATE TABLE payment_reviews (
        sequence bigserial NOT NULL,
        account_id text NOT NULL,
        environment text NOT NULL,
        transaction_id text NOT NULL,
        customer_id text NULL,
        decision text NOT NULL,
        actor text NOT NULL,
        at timestamptz NOT NULL,
        comment text NULL,
        withdrawn_at timestamptz NULL,
        withdrawn_by text NULL,
        CONSTRAINT pk_payment_reviews PRIMARY KEY (sequence),
        CONSTRAINT chk_payment_reviews_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_payment_reviews_decision CHECK (decision IN ('approve', 'decline', 'fraud', 'not_fraud'))
      )`);
    await queryRunner.query(`CREATE INDEX idx_payment_reviews_transaction ON payment_reviews (account_id, environment, transaction_id, sequence)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE payment_reviews`);
    await queryRunner.query(`DROP TABLE case_events`);
    await queryRunner.query(`DROP TABLE case_decisions`);
    await queryRunner.query(`DROP TABLE cases`);
  }
}
