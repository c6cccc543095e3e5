import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The first schema: tenants and keys, entity documents, and the embedded event log.
 * Explicit SQL, run by `runMigrations` in both modes; the entities mirror it exactly (a test
 * checks that TypeORM finds nothing to change after it ran).
 */
export class InitialSchema1763800000000 implements MigrationInterface {
  readonly name = 'InitialSchema1763800000000';

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
    await queryRunner.query(`
      CREATE TABLE entity_documents (
        account_id text NOT NULL,
        environment text NOT NULL,
        kind text NOT NULL,
        entity_id text NOT NULL,
        fields jsonb NOT NULL,
        field_timestamps jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_entity_documents PRIMARY KEY (account_id, environment, kind, entity_id),
        CONSTRAINT chk_entity_documents_environment CHECK (environment IN ('test', 'live'))
      )`);
    // Event ids are unique per topic, not globally: one envelope may legitimately be published
    // on two topics, and a duplicate on one topic must never swallow the other.
    await queryRunner.query(`
      CREATE TABLE event_log (
        sequence bigserial NOT NULL,
        topic text NOT NULL,
        key text NOT NULL,
        event_id text NOT NULL,
        envelope jsonb NOT NULL,
        appended_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_event_log PRIMARY KEY (sequence),
        CONSTRAINT uq_event_log_topic_event_id UNIQUE (topic, event_id)
      )`);
    await queryRunner.query(`CREATE INDEX idx_event_log_topic_sequence ON event_log (topic, sequence)`);
    await queryRunner.query(`
      CREATE TABLE consumer_offsets (
        group_id text NOT NULL,
        topic text NOT NULL,
        sequence bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_consumer_offsets PRIMARY KEY (group_id, topic)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE consumer_offsets`);
    await queryRunner.query(`DROP TABLE event_log`);
    await queryRunner.query(`DROP TABLE entity_documents`);
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE accounts`);
  }
}
