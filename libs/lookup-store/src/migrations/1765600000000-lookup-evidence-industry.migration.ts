import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each piece of lookup evidence records the industry of the account that reported it, so the
 * lookup's `limitIndustry` compares it with the asking account's industry (which comes with the
 * request) without reading the gateway's `accounts` table (docs/architecture.md, "Each service
 * owns its data"). An account's industry is set when it is opened and never changes, so the
 * copy cannot go stale; the rows stored before are filled from `accounts` once, here, in a
 * database that has it (one the single chain of migrations made, with every owner's tables); a
 * lookup database of its own has no `accounts`, and had no evidence before this.
 */
export class LookupEvidenceIndustry1765600000000 implements MigrationInterface {
  readonly name = 'LookupEvidenceIndustry1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE lookup_evidence ADD COLUMN reporter_industry text`);
    if (!(await queryRunner.hasTable('accounts'))) return;
    await queryRunner.query(`UPDATE lookup_evidence e SET reporter_industry = a.industry FROM accounts a WHERE a.id = e.account_id AND a.industry IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE lookup_evidence DROP COLUMN reporter_industry`);
  }
}
