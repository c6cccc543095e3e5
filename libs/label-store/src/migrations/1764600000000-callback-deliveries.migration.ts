import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Review callbacks (ADR-0013): `callback_deliveries`, one row per label change to deliver,
 * with every attempt (`attempts`, a JSON array appended to in the statement that records the
 * attempt). Read back per tenant newest first (`sequence`); the dispatcher finds the due ones
 * of every account through the partial index on `next_attempt_at` of pending rows.
 *
 * The tables' keys to the gateway's `accounts`, which this first declared, are left out: a
 * service's own database has no `accounts`, and `ServiceTablesWithoutAccountKeys1765700000000`
 * (and its split parts) dropped them from every database that had them.
 */
export class CallbackDeliveries1764600000000 implements MigrationInterface {
  readonly name = 'CallbackDeliveries1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE callback_deliveries (
        sequence bigserial NOT NULL,
        delivery_id text NOT NULL,
        account_id text NOT NULL,
        environment text NOT NULL,
        source_event_id text NOT NULL,
        url text NOT NULL,
        body text NOT NULL,
        status text NOT NULL,
        attempts jsonb NOT NULL,
        next_attempt_at timestamptz NULL,
        changed_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT pk_callback_deliveries PRIMARY KEY (sequence),
        CONSTRAINT uq_callback_deliveries_delivery_id UNIQUE (delivery_id),
        CONSTRAINT uq_callback_deliveries_source_event UNIQUE (account_id, environment, source_event_id),
        CONSTRAINT chk_callback_deliveries_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_callback_deliveries_status CHECK (status IN ('pending', 'delivered', 'failed'))
      )`);
    await queryRunner.query(`CREATE INDEX idx_callback_deliveries_tenant ON callback_deliveries (account_id, environment, sequence)`);
    await queryRunner.query(`CREATE INDEX idx_callback_deliveries_due ON callback_deliveries (next_attempt_at) WHERE status = 'pending'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE callback_deliveries`);
  }
}
