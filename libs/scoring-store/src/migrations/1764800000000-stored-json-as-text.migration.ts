import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event log's envelopes, the decision records' events, the entity documents' fields and
 * field times and the velocity counters' buckets become `text` holding JSON, no longer `jsonb`.
 * Each is written on every request or write-behind flush and read back whole (a replay, a
 * decision read, a backtest page, a document read, a start); no statement looks inside them.
 * As `jsonb` each write parsed the JSON into PostgreSQL's binary form and each read printed it again: the
 * largest share of the embedded database's time under load (docs/performance.md, "Stored
 * JSON as text"). `text` keeps the exact JSON the service wrote.
 *
 * Scoring's part (decision records, velocity); the event log's (`EventLogAsText1764800000000`,
 * shared) and the entity documents' (`EntityDocumentsAsText1764800000000`, ingestion) are split
 * from it under this name (`SplitMigration` of `@ringfence/persistence`).
 */
export class StoredJsonAsText1764800000000 implements MigrationInterface {
  readonly name = 'StoredJsonAsText1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE decision_records ALTER COLUMN event TYPE text USING event::text');
    await queryRunner.query('ALTER TABLE velocity_keys ALTER COLUMN older TYPE text USING older::text, ALTER COLUMN fresh TYPE text USING fresh::text');
    await queryRunner.query('ALTER TABLE velocity_recorded_events ALTER COLUMN event_ids TYPE text USING event_ids::text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE velocity_recorded_events ALTER COLUMN event_ids TYPE jsonb USING event_ids::jsonb');
    await queryRunner.query('ALTER TABLE velocity_keys ALTER COLUMN older TYPE jsonb USING older::jsonb, ALTER COLUMN fresh TYPE jsonb USING fresh::jsonb');
    await queryRunner.query('ALTER TABLE decision_records ALTER COLUMN event TYPE jsonb USING event::jsonb');
  }
}
