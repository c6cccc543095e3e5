import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 37's named people: `users` (an e-mail address signs in to one account, so it is unique
 * over the server, stored lower-cased) and their console sessions (`user_sessions`, only the
 * token's hash, with an absolute expiry). The gateway's own tables, beside `api_keys`.
 */
export class UsersAndSessions1767037100000 implements MigrationInterface {
  readonly name = 'UsersAndSessions1767037100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE users (
        id text NOT NULL,
        account_id text NOT NULL,
        email text NOT NULL,
        name text NOT NULL,
        role text NOT NULL,
        password_hash text NOT NULL,
        disabled boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        CONSTRAINT pk_users PRIMARY KEY (id),
        CONSTRAINT uq_users_email UNIQUE (email),
        CONSTRAINT fk_users_account FOREIGN KEY (account_id) REFERENCES accounts (id),
        CONSTRAINT chk_users_role CHECK (role IN ('viewer', 'analyst', 'rule_author', 'admin')),
        CONSTRAINT chk_users_email_lower CHECK (email = lower(email))
      )`);
    await queryRunner.query(`CREATE INDEX idx_users_account_id ON users (account_id)`);
    await queryRunner.query(`
      CREATE TABLE user_sessions (
        id text NOT NULL,
        account_id text NOT NULL,
        user_id text NOT NULL,
        environment text NOT NULL,
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        ended_at timestamptz,
        CONSTRAINT pk_user_sessions PRIMARY KEY (id),
        CONSTRAINT uq_user_sessions_token_hash UNIQUE (token_hash),
        CONSTRAINT fk_user_sessions_user FOREIGN KEY (user_id) REFERENCES users (id),
        CONSTRAINT chk_user_sessions_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(`CREATE INDEX idx_user_sessions_user_id ON user_sessions (user_id) WHERE ended_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE user_sessions`);
    await queryRunner.query(`DROP TABLE users`);
  }
}
