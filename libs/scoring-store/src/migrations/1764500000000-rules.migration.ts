import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rules (ADR-0011), owned by scoring: one row per saved version, never updated nor
 * deleted (DELETE saves a `disabled` version), so the table is the audit trail. ruleId and
 * ruleVersion are integers per tenant; `exemption` and `challenge_preference` are a pspBeforeAuth
 * rule's 3-D Secure advice; a save takes the next free one (the primary key makes
 * two concurrent saves of the same number fail, and the writer retries).
 */
export class Rules1764500000000 implements MigrationInterface {
  readonly name = 'Rules1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE rule_versions (
        account_id text NOT NULL,
        environment text NOT NULL,
        rule_id integer NOT NULL,
        rule_version integer NOT NULL,
        name text NOT NULL,
        description text NOT NULL,
        checkpoint text NOT NULL,
        expression text NOT NULL,
        action text NOT NULL,
        state text NOT NULL,
        exemption text NULL,
        challenge_preference text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        CONSTRAINT pk_rule_versions PRIMARY KEY (account_id, environment, rule_id, rule_version),
        CONSTRAINT chk_rule_versions_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_rule_versions_action CHECK (action IN ('ALLOW', 'REVIEW', 'PREVENT')),
        CONSTRAINT chk_rule_versions_state CHECK (state IN ('active', 'passive', 'disabled'))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE rule_versions');
  }
}
