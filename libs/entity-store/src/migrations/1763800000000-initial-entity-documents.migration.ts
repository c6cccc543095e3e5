import type { QueryRunner } from 'typeorm';
import type { SplitMigration } from '@ringfence/persistence';

/**
 * Ingestion's entity documents. Split from the first schema (`InitialSchema1763800000000`, now
 * the shared tables' part), so a database migrated by it has this part already.
 */
export class InitialEntityDocuments1763800000000 implements SplitMigration {
  readonly name = 'InitialEntityDocuments1763800000000';
  readonly splitFrom = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
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
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE entity_documents`);
  }
}
