import type { BucketCount, DecisionStatsQueries, DecisionStatsWindow, FraudCount, KnownFraud, RuleHitCount, RuleTenant } from '@ringfence/scoring-engine';
import type { DataSource } from 'typeorm';
import { bigintToNumber, queryRows } from '@ringfence/persistence';

// Every statement reads the window's rows of the tenant through idx_decision_records_time
// ($1 account, $2 environment, $3 from, $4 to) and groups them in SQL: nothing per record
// comes back. The event is JSON stored as text; what is grouped on is read from it here.
const IN_WINDOW = 'account_id = $1 AND environment = $2 AND event_time >= $3::bigint AND event_time < $4::bigint';
/** A number field of a jsonb value, or null when it is absent or not a number. */
const numberAt = (json: string) => `CASE WHEN jsonb_typeof(${json}) = 'number' THEN (${json})::numeric END`;
/** The payment's amount and currency on the payload: a PSP transaction's, an order's, a payout's or a refund's. */
const PAYLOAD_AMOUNT = `COALESCE(${numberAt("p->'transaction'->'amount'")}, ${numberAt("p->'order'->'price'")}, ${numberAt("p->'payout'->'amount'")}, ${numberAt("p->'refund'->'amount'")})`;
const PAYLOAD_CURRENCY = `COALESCE(p->'transaction'->>'currency', p->'order'->>'currency', p->'payout'->>'currency', p->'refund'->>'currency')`;

const PERIOD = 'SELECT min(event_time) AS first, max(event_time) AS last FROM decision_records WHERE account_id = $1 AND environment = $2';
const BUCKETS = `
  SELECT (floor((event_time - $5::bigint) / $6::numeric) * $6::bigint + $5::bigint)::bigint AS at, action,
         (event::jsonb)->'recommendation'->>'source' AS source, count(*)::integer AS count
    FROM decision_records WHERE ${IN_WINDOW}
   GROUP BY 1, 2, 3`;
const CHECKPOINTS = `SELECT checkpoint, count(*)::integer AS count FROM decision_records WHERE ${IN_WINDOW} GROUP BY checkpoint`;
// A decision on known fraud: its subject is among $5/$6 (kinds, ids) or its PSP transaction among $7.
const FRAUD = `
  SELECT action, ${PAYLOAD_CURRENCY} AS currency, count(*)::integer AS decisions, COALESCE(sum(${PAYLOAD_AMOUNT}), 0)::bigint AS amount
    FROM (SELECT action, (event::jsonb)->'context'->'payload' AS p, subject_kind, subject_id FROM decision_records WHERE ${IN_WINDOW}) AS d
   WHERE (subject_kind, subject_id) IN (SELECT * FROM unnest($5::text[], $6::text[]))
      OR p->'transaction'->>'transactionId' = ANY($7::text[])
   GROUP BY 1, 2`;
const RULE_HITS = `
  SELECT (r->>'ruleId')::bigint AS rule_id, max(r->>'ruleName') AS name, checkpoint, count(*)::integer AS hits
    FROM (SELECT checkpoint, (event::jsonb)->'rules'->'triggered' AS triggered FROM decision_records WHERE ${IN_WINDOW}) AS d
   CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(triggered) = 'array' THEN triggered ELSE '[]'::jsonb END) AS r
   WHERE jsonb_typeof(r->'ruleId') = 'number'
   GROUP BY 1, 3
   ORDER BY hits DESC, rule_id, checkpoint
   LIMIT $5::integer`;
const SCORE_BINS = `
  SELECT LEAST(9, GREATEST(0, floor(score / 10)))::integer AS bin, count(*)::integer AS count
    FROM (SELECT ${numberAt("(event::jsonb)->'signals'->'model'->'score'")} AS score FROM decision_records WHERE ${IN_WINDOW}) AS d
   WHERE score IS NOT NULL
   GROUP BY 1`;

/** The overview's aggregates over `decision_records` (both modes). */
export class TypeOrmDecisionStats implements DecisionStatsQueries {
  constructor(private readonly dataSource: DataSource) {}

  async period(tenant: RuleTenant): Promise<{ first: number; last: number } | null> {
    const [row] = await queryRows<{ first: string | null; last: string | null }>(this.dataSource, PERIOD, [tenant.accountId, tenant.environment]);
    return row?.first === null || row?.last === null || row === undefined ? null : { first: bigintToNumber(row.first), last: bigintToNumber(row.last) };
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
    const subjects = known.subjects.map((key) => key.split(':')).map(([kind, ...id]) => [kind, id.join(':')]);
    const rows = await queryRows<{ action: string | null; currency: string | null; decisions: number; amount: string }>(this.dataSource, FRAUD, [
      ...windowParameters(tenant, window),
      subjects.map(([kind]) => kind),
      subjects.map(([, id]) => id),
      [...known.transactions],
    ]);
    return rows.map((row) => ({ action: row.action, currency: row.currency, decisions: row.decisions, amount: bigintToNumber(row.amount) }));
  }

  async ruleHits(tenant: RuleTenant, window: DecisionStatsWindow, limit: number): Promise<RuleHitCount[]> {
    const rows = await queryRows<{ rule_id: string; name: string | null; checkpoint: string; hits: number }>(this.dataSource, RULE_HITS, [...windowParameters(tenant, window), limit]);
    return rows.map((row) => ({ ruleId: bigintToNumber(row.rule_id), name: row.name ?? '', checkpoint: row.checkpoint, hits: row.hits }));
  }

  scoreBins(tenant: RuleTenant, window: DecisionStatsWindow): Promise<Array<{ bin: number; count: number }>> {
    return queryRows<{ bin: number; count: number }>(this.dataSource, SCORE_BINS, windowParameters(tenant, window));
  }
}

const windowParameters = (tenant: RuleTenant, window: DecisionStatsWindow): unknown[] => [tenant.accountId, tenant.environment, window.from, window.to];
