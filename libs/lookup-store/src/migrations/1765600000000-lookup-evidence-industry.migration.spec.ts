import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { LookupEvidenceIndustry1765600000000 } from './1765600000000-lookup-evidence-industry.migration';
import { LOOKUP_STORE_SCHEMA } from '../lookup-store.schema';

describe(LookupEvidenceIndustry1765600000000.name, () => {
  const database = useEmbeddedTestDatabase(LOOKUP_STORE_SCHEMA);

  it("fills the reporter's industry of the evidence stored before it from the reporting account", async () => {
    const queryRunner = database.dataSource().createQueryRunner();
    const migration = new LookupEvidenceIndustry1765600000000();
    try {
      await migration.down(queryRunner);
      // A database of the single chain had the gateway's registry beside the lookup's tables.
      await queryRunner.query('CREATE TABLE accounts (id text PRIMARY KEY, name text NOT NULL, industry text NULL, settings jsonb NOT NULL)');
      await queryRunner.query(`INSERT INTO accounts (id, name, industry, settings) VALUES ('acc_mig_travel', 'travel co', 'travel', '{}'), ('acc_mig_none', 'no industry co', NULL, '{}')`);
      for (const accountId of ['acc_mig_travel', 'acc_mig_none']) {
        await queryRunner.query(`INSERT INTO lookup_indicators (account_id, environment, kind, value, first_seen_at, last_seen_at) VALUES ($1, 'test', 'email', 'a@b.example', 1, 1)`, [accountId]);
        await queryRunner.query(
          `INSERT INTO lookup_evidence (account_id, environment, kind, value, evidence_kind, evidence_id, seen_at, details) VALUES ($1, 'test', 'email', 'a@b.example', 'report', 'r1', 1, '{}')`,
          [accountId],
        );
      }

      await migration.up(queryRunner);

      const rows = (await queryRunner.query(`SELECT account_id, reporter_industry FROM lookup_evidence WHERE account_id LIKE 'acc_mig_%' ORDER BY account_id`)) as Record<string, unknown>[];
      expect(rows).toEqual([
        { account_id: 'acc_mig_none', reporter_industry: null },
        { account_id: 'acc_mig_travel', reporter_industry: 'travel' },
      ]);
    } finally {
      await queryRunner.query('DROP TABLE IF EXISTS accounts');
      await queryRunner.release();
    }
  });
});
