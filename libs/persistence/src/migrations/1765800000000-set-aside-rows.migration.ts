import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rows a writer behind the request could not store, kept for an operator to read and replay
 * (ADR-0016, docs/architecture.md "One bad row never blocks the others"). Each process
 * writes the rows of its own writers into its own database. The row is JSON as text: jsonb
 * refuses `\u0000`, which is what some refused rows hold. `set_aside_at` is epoch ms, as the
 * application compares it exactly when a replay removes the entry. An entry is one per writer and
 * key, told by the key's SHA-256: a key is as long as the row made it (a graph change's key is
 * the change), and a btree entry holds at most about 2.7 KB, so a unique index on the key itself
 * would refuse the very rows that most need setting aside.
 */
export class SetAsideRows1765800000000 implements MigrationInterface {
  readonly name = 'SetAsideRows1765800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE set_aside_rows (
        sequence bigserial NOT NULL,
        id text NOT NULL,
        writer text NOT NULL,
        account_id text NULL,
        environment text NULL,
        row_key text NOT NULL,
        row_key_digest text NOT NULL,
        row_json text NOT NULL,
        error text NOT NULL,
        attempts integer NOT NULL,
        set_aside_at bigint NOT NULL,
        CONSTRAINT pk_set_aside_rows PRIMARY KEY (sequence),
        CONSTRAINT uq_set_aside_rows_id UNIQUE (id),
        CONSTRAINT uq_set_aside_rows_writer_key UNIQUE (writer, row_key_digest)
      )`);
    await queryRunner.query(`CREATE INDEX idx_set_aside_rows_account ON set_aside_rows (account_id, sequence)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE set_aside_rows`);
  }
}
