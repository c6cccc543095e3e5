import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { Environment } from '@ringfence/contracts';
import { decisionFactOf } from '../stats/decision-fact';
import { ADD_DECISION_FACTS, decisionFactParameters } from '../stats/decision-fact-statements';

/** Records read per statement while the facts are backfilled. */
const BACKFILL_BATCH = 1_000;

interface StoredRow {
  account_id: string;
  environment: Environment;
  score_id: string;
  event: string;
}

/**
 * The overview's facts of each decision (`GET /v2/stats/overview`, issue 37): `decision_facts`
 * holds, per tenant and scoreId, the few values its aggregates group and count (payload time,
 * checkpoint, action, source, the model's score, subject, PSP transaction, amount and currency,
 * the rules recorded as true), taken from the decision event when it is recorded, so that an
 * overview over a window reads narrow rows through `idx_decision_facts_time` and never an event's
 * JSON (grouping over the events' JSON took seconds for 50,000 decisions). Existing records are
 * filled here by reading their JSON in batches, as RuleHitsAndAuthors1767050000000 does: text
 * holds JSON that jsonb may refuse.
 */
export class DecisionFacts1767060000000 implements MigrationInterface {
  readonly name = 'DecisionFacts1767060000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE decision_facts (
        account_id text NOT NULL,
        environment text NOT NULL,
        score_id text NOT NULL,
        event_time bigint NOT NULL,
        checkpoint text NOT NULL,
        action text NULL,
        source text NULL,
        model_score double precision NULL,
        subject_kind text NULL,
        subject_id text NULL,
        transaction_id text NULL,
        amount bigint NULL,
        currency text NULL,
        rule_ids integer[] NOT NULL DEFAULT '{}',
        CONSTRAINT pk_decision_facts PRIMARY KEY (account_id, environment, score_id),
        CONSTRAINT chk_decision_facts_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query('CREATE INDEX idx_decision_facts_time ON decision_facts (account_id, environment, event_time)');
    await backfill(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE decision_facts');
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
    const facts = rows.flatMap((row) => {
      const fact = factOfText(row);
      return fact === null ? [] : [fact];
    });
    if (facts.length > 0) await queryRunner.query(ADD_DECISION_FACTS, decisionFactParameters(facts));
    const last = rows[rows.length - 1];
    after = [last.account_id, last.environment, last.score_id];
    if (rows.length < BACKFILL_BATCH) return;
  }
}

function factOfText(row: StoredRow) {
  try {
    return decisionFactOf({ accountId: row.account_id, environment: row.environment }, JSON.parse(row.event) as Record<string, unknown>);
  } catch {
    return null;
  }
}
