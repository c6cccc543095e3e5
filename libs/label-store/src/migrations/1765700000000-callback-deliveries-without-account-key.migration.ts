import type { QueryRunner } from 'typeorm';
import type { SplitMigration } from '@ringfence/persistence';

/**
 * The review callbacks' deliveries are no longer keyed to the gateway's `accounts` (the graph's
 * `ServiceTablesWithoutAccountKeys1765700000000` says why; this part is split from it, so a
 * database migrated by it has this part already). A new database's table never had the key.
 */
export class CallbackDeliveriesWithoutAccountKey1765700000000 implements SplitMigration {
  readonly name = 'CallbackDeliveriesWithoutAccountKey1765700000000';
  readonly splitFrom = 'ServiceTablesWithoutAccountKeys1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE callback_deliveries DROP CONSTRAINT IF EXISTS fk_callback_deliveries_account');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE callback_deliveries ADD CONSTRAINT fk_callback_deliveries_account FOREIGN KEY (account_id) REFERENCES accounts (id)');
  }
}
