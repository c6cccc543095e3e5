import type { QueryRunner } from 'typeorm';
import type { SplitMigration } from '../owned-schema';

/**
 * The event log's envelopes become `text` holding JSON: written on every accepted request, read
 * back whole, never looked inside. Split from `StoredJsonAsText1764800000000` (scoring's), so a
 * database migrated by it has this part already.
 */
export class EventLogAsText1764800000000 implements SplitMigration {
  readonly name = 'EventLogAsText1764800000000';
  readonly splitFrom = 'StoredJsonAsText1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE event_log ALTER COLUMN envelope TYPE text USING envelope::text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE event_log ALTER COLUMN envelope TYPE jsonb USING envelope::jsonb');
  }
}
