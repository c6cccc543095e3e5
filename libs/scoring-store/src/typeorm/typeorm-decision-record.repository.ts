import type { DecisionCursor, DecisionListFilter, DecisionPeriod, DecisionRecordRepository, RuleHits, RuleTenant, StoredDecisionRecord } from '@ringfence/scoring-engine';
import { payloadText } from '@ringfence/contracts';
import type { DataSource } from 'typeorm';
import { background, bigintToNumber, jsonTextSequence, jsonTexts, queryRows } from '@ringfence/persistence';
import { hitRuleIdsOf } from './hit-rule-ids';

interface DecisionRecordRow {
  score_id: string;
  checkpoint: string;
  event_time: string;
  /** The decision event's JSON, as written (`text`: nothing reads inside it in SQL). */
  event: string;
  decided_at: string;
  subject_kind: string | null;
  subject_id: string | null;
  action: string | null;
}

const COLUMNS = 'score_id, checkpoint, event_time, event, decided_at, subject_kind, subject_id, action';
// One statement per batch, written behind (background); a redelivered record (same scoreId) is kept as first stored.
const ADD_ALL = background(`
  INSERT INTO decision_records (account_id, environment, score_id, checkpoint, event_time, event, decided_at, subject_kind, subject_id, action, hit_rule_ids)
  SELECT account_id, environment, score_id, checkpoint, event_time, event, decided_at, subject_kind, subject_id, action, hit_rule_ids::integer[]
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], ${jsonTexts('$6')}, $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[])
      AS added (account_id, environment, score_id, checkpoint, event_time, event, decided_at, subject_kind, subject_id, action, hit_rule_ids)
  ON CONFLICT (account_id, environment, score_id) DO NOTHING`);
const FIND = `SELECT ${COLUMNS} FROM decision_records WHERE account_id = $1 AND environment = $2 AND score_id = $3`;
// Keyset pagination: constant cost per page however deep the backtest is.
const PAGE = `
  SELECT ${COLUMNS} FROM decision_records
   WHERE account_id = $1 AND environment = $2 AND checkpoint = $3 AND event_time >= $4 AND event_time < $5
     AND (event_time, score_id) > ($6::bigint, $7::text)
   ORDER BY event_time, score_id
   LIMIT $8`;
// Two ends of the (…, checkpoint, event_time, score_id) index: two index probes, not a scan.
const PERIOD = `
  SELECT MIN(event_time) AS first, MAX(event_time) AS last FROM decision_records
   WHERE account_id = $1 AND environment = $2 AND checkpoint = $3`;
// Every rule's hits in one statement, over the tenant's decisions that have any (a partial index).
const RULE_HITS = `
  SELECT rule_id, COUNT(*) FILTER (WHERE decided_at >= $3) AS last24h, COUNT(*) FILTER (WHERE decided_at >= $4) AS last30d,
         COUNT(*) AS total, MAX(decided_at) AS last_hit_at
    FROM decision_records CROSS JOIN LATERAL unnest(hit_rule_ids) AS hit (rule_id)
   WHERE account_id = $1 AND environment = $2 AND cardinality(hit_rule_ids) > 0
   GROUP BY rule_id`;
const DAY_MS = 24 * 3_600_000;

/** Decision records in `decision_records` (both modes). */
export class TypeOrmDecisionRecordRepository implements DecisionRecordRepository {
  constructor(private readonly dataSource: DataSource) {}

  async addAll(records: ReadonlyArray<StoredDecisionRecord & RuleTenant>): Promise<void> {
    if (records.length === 0) return;
    await queryRows(this.dataSource, ADD_ALL, [
      records.map((record) => record.accountId),
      records.map((record) => record.environment),
      records.map((record) => record.scoreId),
      records.map((record) => record.checkpoint),
      records.map((record) => record.timestamp),
      // The decision event's text as the event log stored it: made once per event (`payloadText`).
      jsonTextSequence(records.map((record) => payloadText(record.event) as string)),
      records.map((record) => record.decidedAt),
      records.map((record) => record.subjectKind),
      records.map((record) => record.subjectId),
      records.map((record) => record.action),
      records.map((record) => `{${hitRuleIdsOf(record.event).join(',')}}`),
    ]);
  }

  async ruleHits(tenant: RuleTenant, now: number): Promise<RuleHits[]> {
    const rows = await queryRows<{ rule_id: number; last24h: string; last30d: string; total: string; last_hit_at: string }>(this.dataSource, RULE_HITS, [
      tenant.accountId,
      tenant.environment,
      now - DAY_MS,
      now - 30 * DAY_MS,
    ]);
    return rows.map((row) => ({
      ruleId: Number(row.rule_id),
      last24h: bigintToNumber(row.last24h),
      last30d: bigintToNumber(row.last30d),
      total: bigintToNumber(row.total),
      lastHitAt: bigintToNumber(row.last_hit_at),
    }));
  }

  async find(tenant: RuleTenant, scoreId: string): Promise<StoredDecisionRecord | null> {
    const [row] = await queryRows<DecisionRecordRow>(this.dataSource, FIND, [tenant.accountId, tenant.environment, scoreId]);
    return row === undefined ? null : toRecord(row);
  }

  async page(tenant: RuleTenant, checkpoint: string, from: number, to: number, cursor: DecisionCursor | null, limit: number): Promise<StoredDecisionRecord[]> {
    const after = cursor ?? { timestamp: from - 1, scoreId: '' };
    const rows = await queryRows<DecisionRecordRow>(this.dataSource, PAGE, [tenant.accountId, tenant.environment, checkpoint, from, to, after.timestamp, after.scoreId, limit]);
    return rows.map(toRecord);
  }

  async period(tenant: RuleTenant, checkpoint: string): Promise<DecisionPeriod | null> {
    const [row] = await queryRows<{ first: string | null; last: string | null }>(this.dataSource, PERIOD, [tenant.accountId, tenant.environment, checkpoint]);
    if (row === undefined || row.first === null || row.last === null) return null;
    return { first: bigintToNumber(row.first), last: bigintToNumber(row.last) };
  }

  /**
   * Keyset pagination newest first. Each filter is an equality on the leading columns of one of
   * the table's `(account_id, environment, …, event_time, score_id)` indexes, which PostgreSQL
   * scans backwards from the cursor: a page costs its own rows, however deep the list is.
   */
  async list(tenant: RuleTenant, filter: DecisionListFilter, before: DecisionCursor | null, limit: number): Promise<StoredDecisionRecord[]> {
    const parameters: unknown[] = [tenant.accountId, tenant.environment];
    const parameter = (value: unknown, cast = '') => {
      parameters.push(value);
      return `$${parameters.length}${cast}`;
    };
    const conditions = ['account_id = $1', 'environment = $2'];
    if (filter.checkpoint !== undefined) conditions.push(`checkpoint = ${parameter(filter.checkpoint)}`);
    if (filter.action !== undefined) conditions.push(`action = ${parameter(filter.action)}`);
    if (filter.subjectKind !== undefined) conditions.push(`subject_kind = ${parameter(filter.subjectKind)}`);
    if (filter.subjectId !== undefined) conditions.push(`subject_id = ${parameter(filter.subjectId)}`);
    if (filter.from !== undefined) conditions.push(`event_time >= ${parameter(filter.from, '::bigint')}`);
    if (filter.to !== undefined) conditions.push(`event_time < ${parameter(filter.to, '::bigint')}`);
    if (before !== null) conditions.push(`(event_time, score_id) < (${parameter(before.timestamp, '::bigint')}, ${parameter(before.scoreId, '::text')})`);
    const sql = `SELECT ${COLUMNS} FROM decision_records WHERE ${conditions.join(' AND ')} ORDER BY event_time DESC, score_id DESC LIMIT ${parameter(limit, '::integer')}`;
    const rows = await queryRows<DecisionRecordRow>(this.dataSource, sql, parameters);
    return rows.map(toRecord);
  }
}

function toRecord(row: DecisionRecordRow): StoredDecisionRecord {
  return {
    scoreId: row.score_id,
    checkpoint: row.checkpoint,
    timestamp: bigintToNumber(row.event_time),
    event: JSON.parse(row.event) as Record<string, unknown>,
    decidedAt: bigintToNumber(row.decided_at),
    subjectKind: row.subject_kind === 'customer' || row.subject_kind === 'supplier' ? row.subject_kind : null,
    subjectId: row.subject_id,
    action: row.action,
  };
}
