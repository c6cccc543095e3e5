import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The first schema, of which this is the shared part: the embedded event log and the consumers'
 * offsets. It created the gateway's accounts and keys (`InitialAccounts1763800000000` of
 * `@ringfence/account-store`) and ingestion's entity documents
 * (`InitialEntityDocuments1763800000000` of `@ringfence/entity-store`) too, which are split from
 * it under this name (`SplitMigration`). Explicit SQL, run by `runMigrations` in both modes; the
 * entities mirror it exactly (a test checks that TypeORM finds nothing to change after it ran).
 */
export class InitialSchema1763800000000 implements MigrationInterface {
  readonly name = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
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
  }
}
