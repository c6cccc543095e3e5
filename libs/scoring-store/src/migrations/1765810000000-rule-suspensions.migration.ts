import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Suspended rule versions (ADR-0016), owned by scoring: a version that kept failing is not
 * evaluated until the rule is edited. A row per suspended version, apart from `rule_versions`,
 * which stays the unchanged audit trail; a new version has no row, so an edit lifts it.
 */
export class RuleSuspensions1765810000000 implements MigrationInterface {
  readonly name = 'RuleSuspensions1765810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE rule_suspensions (
        account_id text NOT NULL,
        environment text NOT NULL,
        rule_id integer NOT NULL,
        rule_version integer NOT NULL,
        suspended_at timestamptz NOT NULL DEFAULT now(),
        reason text NOT NULL,
        CONSTRAINT pk_rule_suspensions PRIMARY KEY (account_id, environment, rule_id, rule_version)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE rule_suspensions');
  }
}
