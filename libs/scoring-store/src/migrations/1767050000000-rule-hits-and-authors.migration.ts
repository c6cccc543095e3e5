import type { MigrationInterface, QueryRunner } from 'typeorm';
import { hitRuleIdsOf } from '../typeorm/hit-rule-ids';

/** Records filled per statement while the hits are backfilled. */
const BACKFILL_BATCH = 1_000;

interface StoredRow {
  account_id: string;
  environment: string;
  score_id: string;
  event: string;
}

/**
 * Rules with their evidence (issue 37, ADR-0011):
 * - `rule_versions.author`: who saved the version, as audit trails name whoever acted (a signed-in
 *   person's e-mail address, or `key <keyId>` for an integration). Versions saved before were
 *   saved with a key: `key <created_by>`.
 * - `decision_records.hit_rule_ids`: the rules a decision recorded as true (active and
 *   passive), so that the rules list reads every rule's hits in one aggregate statement over the
 *   decisions that have any (a partial index), without reading any event's JSON. Existing
 *   records are filled by reading their JSON here, a batch at a time, like the listing columns
 *   (DecisionRecordListing1765100000000): text holds JSON that jsonb may refuse.
 */
export class RuleHitsAndAuthors1767050000000 implements MigrationInterface {
  readonly name = 'RuleHitsAndAuthors1767050000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE rule_versions ADD COLUMN author text NULL');
    await queryRunner.query(`UPDATE rule_versions SET author = 'key ' || created_by`);
    await queryRunner.query('ALTER TABLE rule_versions ALTER COLUMN author SET NOT NULL');
    await queryRunner.query(`ALTER TABLE decision_records ADD COLUMN hit_rule_ids integer[] NOT NULL DEFAULT '{}'`);
    await backfill(queryRunner);
    await queryRunner.query('CREATE INDEX idx_decision_records_rule_hits ON decision_records (account_id, environment) WHERE cardinality(hit_rule_ids) > 0');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX idx_decision_records_rule_hits');
    await queryRunner.query('ALTER TABLE decision_records DROP COLUMN hit_rule_ids');
    await queryRunner.query('ALTER TABLE rule_versions DROP COLUMN author');
  }
}

async function backfill(queryRunner: QueryRunner): Promise<void> {
  let after: [string, string, string] = ['', '', ''];
  for (;;) {
    const rows = (await queryRunner.query(
      `SELECT account_id, environment, score_id, event FROM decision_records
        WHERE (account_id, environment, score_id) > ($1, $2, $3)
        ORDER BY account_id, environment, score_id
        LIMIT ${BACKFILL_BATCH}`,
      after,
    )) as StoredRow[];
    if (rows.length === 0) return;
    const hit = rows.map((row) => ({ row, ruleIds: hitRuleIdsOfText(row.event) })).filter(({ ruleIds }) => ruleIds.length > 0);
    if (hit.length > 0) {
      await queryRunner.query(
        `UPDATE decision_records AS record SET hit_rule_ids = filled.rule_ids::integer[]
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS filled (account_id, environment, score_id, rule_ids)
          WHERE record.account_id = filled.account_id AND record.environment = filled.environment AND record.score_id = filled.score_id`,
        [hit.map(({ row }) => row.account_id), hit.map(({ row }) => row.environment), hit.map(({ row }) => row.score_id), hit.map(({ ruleIds }) => `{${ruleIds.join(',')}}`)],
      );
    }
    const last = rows[rows.length - 1];
    after = [last.account_id, last.environment, last.score_id];
    if (rows.length < BACKFILL_BATCH) return;
  }
}

function hitRuleIdsOfText(eventText: string): number[] {
  try {
    return hitRuleIdsOf(JSON.parse(eventText) as Record<string, unknown>);
  } catch {
    return [];
  }
}
