import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * "Next case" (`POST /v2/cases/next`) asks for the oldest open, unassigned case of a data set.
 * On `idx_cases_tenant_opened` that walks every case of the data set, closed ones included, until
 * it meets one; this partial index holds only the open, unassigned cases in that order, so the
 * answer is its first entry however many cases were closed.
 */
export class OpenUnassignedCasesIndex1767071000000 implements MigrationInterface {
  readonly name = 'OpenUnassignedCasesIndex1767071000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX idx_cases_open_unassigned ON cases (account_id, environment, opened_at, case_id) WHERE status = 'open' AND assignee_email IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX idx_cases_open_unassigned');
  }
}
