import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Breached credentials (ADR-0006): a global table of username → password SHA-256 pairs.
 * The primary key (username, password_sha256) makes each pair unique, so imports are
 * `ON CONFLICT DO NOTHING`, and serves as the index on username the check reads by (a second
 * index on username alone would only slow the imports down).
 */
export class BreachedCredentials1764210000000 implements MigrationInterface {
  readonly name = 'BreachedCredentials1764210000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE breached_credentials (
        username text NOT NULL,
        password_sha256 text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_breached_credentials PRIMARY KEY (username, password_sha256),
        CONSTRAINT chk_breached_credentials_password_sha256 CHECK (password_sha256 ~ '^[0-9a-f]{64}$')
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE breached_credentials`);
  }
}
