import type { QueryRunner } from 'typeorm';
import type { SplitMigration } from '@ringfence/persistence';

/**
 * The entity documents' fields and field times become `text` holding JSON: read and written
 * whole, never looked inside. Split from `StoredJsonAsText1764800000000` (scoring's), so a
 * database migrated by it has this part already.
 */
export class EntityDocumentsAsText1764800000000 implements SplitMigration {
  readonly name = 'EntityDocumentsAsText1764800000000';
  readonly splitFrom = 'StoredJsonAsText1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE entity_documents ALTER COLUMN fields TYPE text USING fields::text, ALTER COLUMN field_timestamps TYPE text USING field_timestamps::text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE entity_documents ALTER COLUMN fields TYPE jsonb USING fields::jsonb, ALTER COLUMN field_timestamps TYPE jsonb USING field_timestamps::jsonb');
  }
}
