import type { BucketCount, DecisionFactRow, DecisionStatsQueries, DecisionStatsWindow, FraudCount, KnownFraud, RuleHitCount, RuleTenant } from '@ringfence/scoring-engine';
import type { DataSource } from 'typeorm';
import { background, bigintToNumber, queryRows } from '@ringfence/persistence';
import { ADD_DECISION_FACTS, decisionFactParameters } from '../stats/decision-fact-statements';

// Every aggregate reads the window's rows of the tenant in `decision_facts` through
// idx_decision_facts_time ($1 account, $2 environment, $3 from, $4 to) and groups them in SQL:
// narrow rows, no JSON, and nothing per decision comes back.
const IN_WINDOW = 'account_id = $1 AND environment = $2 AND event_time >= $3::bigint AND event_time < $4::bigint';

const ADD_ALL = background(ADD_DECISION_FACTS);
const PERIOD = 'SELECT min(event_time) AS first, max(event_time) AS last FROM decision_facts WHERE account_id = $1 AND environment = $2';
const BUCKETS = `
  SELECT (floor((event_time - $5::bigint) / $6::numeric) * $6::bigint + $5::bigint)::bigint AS at, action, source, count(*)::integer AS count
    FROM decision_facts WHERE ${IN_WINDOW}
   GROUP BY 1, 2, 3`;
const CHECKPOINTS = `SELECT checkpoint, count(*)::integer AS count FROM decision_facts WHERE ${IN_WINDOW} GROUP BY checkpoint`;
// A decision on known fraud: its subject is among $5/$6 (kinds, ids) or its PSP transaction among $7.
const FRAUD = `
  SELECT action, currency, count(*)::integer AS decisions, COALESCE(sum(amount), 0)::bigint AS amount
    FROM decision_facts
   WHERE ${IN_WINDOW}
     AND ((subject_kind, subject_id) IN (SELECT * FROM unnest($5::text[], $6::text[])) OR transaction_id = ANY($7::text[]))
   GROUP BY 1, 2`;
// Each rule's hits per checkpoint, with its current name (its latest version's) from rule_versions.
const RULE_HITS = `
  SELECT hit.rule_id, hit.checkpoint, hit.hits, COALESCE(named.name, '') AS name
    FROM (SELECT rule_id, checkpoint, count(*)::integer AS hits
            FROM decision_facts CROSS JOIN LATERAL unnest(rule_ids) AS rule_id
           WHERE ${IN_WINDOW} AND cardinality(rule_ids) > 0
           GROUP BY rule_id, checkpoint
           ORDER BY hits DESC, rule_id, checkpoint
           LIMIT $5::integer) AS hit
    LEFT JOIN LATERAL (SELECT name FROM rule_versions
                        WHERE account_id = $1 AND environment = $2 AND rule_id = hit.rule_id
                        ORDER BY rule_version DESC LIMIT 1) AS named ON true
   ORDER BY hit.hits DESC, hit.rule_id, hit.checkpoint`;
const SCORE_BINS = `
  SELECT LEAST(9, GREATEST(0, floor(model_score / 10)))::integer AS bin, count(*)::integer AS count
    FROM decision_facts WHERE ${IN_WINDOW} AND model_score IS NOT NULL
   GROUP BY 1`;

/** The overview's facts of decisions in `decision_facts`, and its aggregates over them (both modes). */
export class TypeOrmDecisionStats implements DecisionStatsQueries {
  constructor(private readonly dataSource: DataSource) {}

  async addAll(rows: readonly DecisionFactRow[]): Promise<void> {
    if (rows.length === 0) return;
    await queryRows(this.dataSource, ADD_ALL, decisionFactParameters(rows));
  }

  async period(tenant: RuleTenant): Promise<{ first: number; last: number } | null> {
    const [row] = await queryRows<{ first: string | null; last: string | null }>(this.dataSource, PERIOD, [tenant.accountId, tenant.environment]);
    return row === undefined || row.first === null || row.last === null ? null : { first: bigintToNumber(row.first), last: bigintToNumber(row.last) };
  }

  async buckets(tenant: RuleTenant, window: DecisionStatsWindow): Promise<BucketCount[]> {
    const rows = await queryRows<{ at: string; action: string | null; source: string | null; count: number }>(this.dataSource, BUCKETS, [
      ...windowParameters(tenant, window),
      window.offsetMs,
      window.bucketMs,
    ]);
    return rows.map((row) => ({ at: bigintToNumber(row.at), action: row.action, source: row.source, count: row.count }));
  }

  checkpoints(tenant: RuleTenant, window: DecisionStatsWindow): Promise<Array<{ checkpoint: string; count: number }>> {
    return queryRows<{ checkpoint: string; count: number }>(this.dataSource, CHECKPOINTS, windowParameters(tenant, window));
  }

  async fraud(tenant: RuleTenant, window: DecisionStatsWindow, known: KnownFraud): Promise<FraudCount[]> {
    if (known.subjects.length === 0 && known.transactions.length === 0) return [];
    // `kind:id`: the kind never holds a colon, the id may.
    const subjects = known.subjects.map((key) => [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)]);
    const rows = await queryRows<{ action: string | null; currency: string | null; decisions: number; amount: string }>(this.dataSource, FRAUD, [
      ...windowParameters(tenant, window),
      subjects.map(([kind]) => kind),
      subjects.map(([, id]) => id),
      [...known.transactions],
    ]);
    return rows.map((row) => ({ action: row.action, currency: row.currency, decisions: row.decisions, amount: bigintToNumber(row.amount) }));
  }

  async ruleHits(tenant: RuleTenant, window: DecisionStatsWindow, limit: number): Promise<RuleHitCount[]> {
    const rows = await queryRows<{ rule_id: number; name: string; checkpoint: string; hits: number }>(this.dataSource, RULE_HITS, [...windowParameters(tenant, window), limit]);
    return rows.map((row) => ({ ruleId: Number(row.rule_id), name: row.name, checkpoint: row.checkpoint, hits: row.hits }));
  }

  scoreBins(tenant: RuleTenant, window: DecisionStatsWindow): Promise<Array<{ bin: number; count: number }>> {
    return queryRows<{ bin: number; count: number }>(this.dataSource, SCORE_BINS, windowParameters(tenant, window));
  }
}

const windowParameters = (tenant: RuleTenant, window: DecisionStatsWindow): unknown[] => [tenant.accountId, tenant.environment, window.from, window.to];
