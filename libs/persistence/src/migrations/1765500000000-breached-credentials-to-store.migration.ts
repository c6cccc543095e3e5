import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The table the start-up conversion reads and then drops (breached-credentials-conversion.ts). */
export const LEGACY_BREACHED_CREDENTIALS_TABLE = 'breached_credentials_legacy';

/**
 * Breached credentials leave the database for the on-disk store (docs/credentials.md): one row
 * a pair cost 200–250 bytes, the store 16. A migration cannot write the store (it lives under
 * DATA_DIR or the lookup service's volume and is keyed with CREDENTIALS_KEY), so an empty table
 * is dropped here and a table with pairs is renamed; the process that holds the store converts
 * its rows at start and drops it then.
 */
export class BreachedCredentialsToStore1765500000000 implements MigrationInterface {
  readonly name = 'BreachedCredentialsToStore1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const rows = (await queryRunner.query(`SELECT EXISTS (SELECT 1 FROM breached_credentials) AS "any"`)) as { any: boolean }[];
    if (rows[0]?.any) await queryRunner.query(`ALTER TABLE breached_credentials RENAME TO ${LEGACY_BREACHED_CREDENTIALS_TABLE}`);
    else await queryRunner.query(`DROP TABLE breached_credentials`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The pairs are in the store now; down only restores the (empty) table's shape.
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS breached_credentials (
        username text NOT NULL,
        password_sha256 text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_breached_credentials PRIMARY KEY (username, password_sha256),
        CONSTRAINT chk_breached_credentials_password_sha256 CHECK (password_sha256 ~ '^[0-9a-f]{64}$')
      )`);
  }
}
