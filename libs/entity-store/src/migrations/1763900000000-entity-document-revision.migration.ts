import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A revision per entity document, bumped by every write, so updates are compare-and-set on
 * one column: two statements per update (read, conditional write) instead of a locking
 * transaction's four, which matters on the embedded database where statements are serial.
 */
export class EntityDocumentRevision1763900000000 implements MigrationInterface {
  readonly name = 'EntityDocumentRevision1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE entity_documents ADD COLUMN revision bigint NOT NULL DEFAULT 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE entity_documents DROP COLUMN revision`);
  }
}
