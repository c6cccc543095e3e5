import type { QueryRunner } from 'typeorm';
import type { SplitMigration } from '@ringfence/persistence';

/**
 * The gateway's account registry: tenants and their API keys. Split from the first schema
 * (`InitialSchema1763800000000`, now the shared tables' part), so a database migrated by it has
 * this part already.
 */
export class InitialAccounts1763800000000 implements SplitMigration {
  readonly name = 'InitialAccounts1763800000000';
  readonly splitFrom = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE accounts (
        id text NOT NULL,
        name text NOT NULL,
        industry text NULL,
        settings jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_accounts PRIMARY KEY (id),
        CONSTRAINT uq_accounts_name UNIQUE (name)
      )`);
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id text NOT NULL,
        account_id text NOT NULL,
        kind text NOT NULL,
        environment text NOT NULL,
        key_hash text NOT NULL,
        display_prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz NULL,
        CONSTRAINT pk_api_keys PRIMARY KEY (id),
        CONSTRAINT uq_api_keys_key_hash UNIQUE (key_hash),
        CONSTRAINT fk_api_keys_account FOREIGN KEY (account_id) REFERENCES accounts (id),
        CONSTRAINT chk_api_keys_kind CHECK (kind IN ('secret', 'publishable')),
        CONSTRAINT chk_api_keys_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(`CREATE INDEX idx_api_keys_account_id ON api_keys (account_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE accounts`);
  }
}
