import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scoring's velocity counters, written behind its consumer (`TypeOrmVelocitySnapshotStore`): one
 * row per key (its buckets as JSON, the older ones apart from the fresh ones, so that a busy
 * key's write rewrites only the few fresh buckets), the occurrences (transactions, refunds…) counted in the last
 * days, so a later update of one counts nothing twice, and the ids of the events each write
 * covered, so the replay after a crash skips them. Key columns `COLLATE "C"` for the same keyset
 * page order on every locale. No foreign key to `accounts`: scoring does not own that table.
 */
export class Velocity1764710000000 implements MigrationInterface {
  readonly name = 'Velocity1764710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE velocity_keys (
        account_id text COLLATE "C" NOT NULL,
        environment text COLLATE "C" NOT NULL,
        dimension text COLLATE "C" NOT NULL,
        key_value text COLLATE "C" NOT NULL,
        older jsonb NOT NULL,
        fresh jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_velocity_keys PRIMARY KEY (account_id, environment, dimension, key_value),
        CONSTRAINT chk_velocity_keys_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(`
      CREATE TABLE velocity_occurrences (
        account_id text COLLATE "C" NOT NULL,
        environment text COLLATE "C" NOT NULL,
        occurrence text COLLATE "C" NOT NULL,
        flags smallint NOT NULL,
        day integer NOT NULL,
        CONSTRAINT pk_velocity_occurrences PRIMARY KEY (account_id, environment, occurrence),
        CONSTRAINT chk_velocity_occurrences_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(`CREATE INDEX ix_velocity_occurrences_day ON velocity_occurrences (account_id, environment, day)`);
    await queryRunner.query(`
      CREATE TABLE velocity_recorded_events (
        sequence bigserial NOT NULL,
        account_id text NOT NULL,
        environment text NOT NULL,
        written_at_ms bigint NOT NULL,
        event_ids jsonb NOT NULL,
        CONSTRAINT pk_velocity_recorded_events PRIMARY KEY (sequence),
        CONSTRAINT chk_velocity_recorded_events_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(`CREATE INDEX ix_velocity_recorded_events_written ON velocity_recorded_events (written_at_ms)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE velocity_recorded_events`);
    await queryRunner.query(`DROP TABLE velocity_occurrences`);
    await queryRunner.query(`DROP TABLE velocity_keys`);
  }
}
