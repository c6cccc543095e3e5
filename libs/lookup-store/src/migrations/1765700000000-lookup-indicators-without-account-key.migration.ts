import type { QueryRunner } from 'typeorm';
import type { SplitMigration } from '@ringfence/persistence';

/**
 * The lookup's indicators are no longer keyed to the gateway's `accounts` (the graph's
 * `ServiceTablesWithoutAccountKeys1765700000000` says why; this part is split from it, so a
 * database migrated by it has this part already). A new database's table never had the key.
 */
export class LookupIndicatorsWithoutAccountKey1765700000000 implements SplitMigration {
  readonly name = 'LookupIndicatorsWithoutAccountKey1765700000000';
  readonly splitFrom = 'ServiceTablesWithoutAccountKeys1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE lookup_indicators DROP CONSTRAINT IF EXISTS fk_lookup_indicators_account');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE lookup_indicators ADD CONSTRAINT fk_lookup_indicators_account FOREIGN KEY (account_id) REFERENCES accounts (id)');
  }
}
