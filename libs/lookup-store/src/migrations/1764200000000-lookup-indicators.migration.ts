import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Known-fraud indicators (ADR-0007): `lookup_indicators`, what each account reported, and
 * `lookup_evidence`, the chargebacks, reviews and bare reports behind them. Reads aggregate
 * every account's evidence of an indicator within a data set, so the evidence index leads with
 * (environment, kind, value) and ends with `seen_at` for the `ipFromTime` range.
 *
 * The tables' keys to the gateway's `accounts`, which this first declared, are left out: a
 * service's own database has no `accounts`, and `ServiceTablesWithoutAccountKeys1765700000000`
 * (and its split parts) dropped them from every database that had them.
 */
export class LookupIndicators1764200000000 implements MigrationInterface {
  readonly name = 'LookupIndicators1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE lookup_indicators (
        account_id text NOT NULL,
        environment text NOT NULL,
        kind text NOT NULL,
        value text NOT NULL,
        first_seen_at bigint NOT NULL,
        last_seen_at bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_lookup_indicators PRIMARY KEY (account_id, environment, kind, value),
        CONSTRAINT chk_lookup_indicators_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_lookup_indicators_kind CHECK (kind IN ('email', 'telephone', 'ipAddress', 'instrumentId', 'payerId', 'bankId'))
      )`);
    await queryRunner.query(`
      CREATE TABLE lookup_evidence (
        account_id text NOT NULL,
        environment text NOT NULL,
        kind text NOT NULL,
        value text NOT NULL,
        evidence_kind text NOT NULL,
        evidence_id text NOT NULL,
        seen_at bigint NOT NULL,
        details jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_lookup_evidence PRIMARY KEY (account_id, environment, kind, value, evidence_kind, evidence_id),
        CONSTRAINT fk_lookup_evidence_indicator FOREIGN KEY (account_id, environment, kind, value)
          REFERENCES lookup_indicators (account_id, environment, kind, value),
        CONSTRAINT chk_lookup_evidence_evidence_kind CHECK (evidence_kind IN ('chargeback', 'manualReview', 'report'))
      )`);
    await queryRunner.query(
      `CREATE INDEX idx_lookup_evidence_indicator_seen_at ON lookup_evidence (environment, kind, value, seen_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE lookup_evidence`);
    await queryRunner.query(`DROP TABLE lookup_indicators`);
  }
}
