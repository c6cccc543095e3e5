import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Ingestion's device read models (issue 36): `device_records`, one JSON text per device of a data set. */
export class DeviceRecords1766040000000 implements MigrationInterface {
  readonly name = 'DeviceRecords1766040000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE device_records (
        account_id text NOT NULL,
        environment text NOT NULL,
        device_id text NOT NULL,
        record text NOT NULL,
        revision bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_device_records PRIMARY KEY (account_id, environment, device_id),
        CONSTRAINT chk_device_records_environment CHECK (environment IN ('test', 'live'))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE device_records');
  }
}
