import type { DecisionCursor, DecisionRecord, DecisionRecordRepository, RuleTenant } from '@ringfence/scoring-engine';
import type { DataSource } from 'typeorm';
import { bigintToNumber, jsonTextSequence, jsonTexts, queryRows } from '@ringfence/persistence';

interface DecisionRecordRow {
  score_id: string;
  checkpoint: string;
  event_time: string;
  /** The decision event's JSON, as written (`text`: nothing reads inside it in SQL). */
  event: string;
}

const COLUMNS = 'score_id, checkpoint, event_time, event';
// One statement per batch; a redelivered record (same scoreId) is kept as first stored.
const ADD_ALL = `
  INSERT INTO decision_records (account_id, environment, score_id, checkpoint, event_time, event)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], ${jsonTexts('$6')})
  ON CONFLICT (account_id, environment, score_id) DO NOTHING`;
const FIND = `SELECT ${COLUMNS} FROM decision_records WHERE account_id = $1 AND environment = $2 AND score_id = $3`;
// Keyset pagination: constant cost per page however deep the backtest is.
const PAGE = `
  SELECT ${COLUMNS} FROM decision_records
   WHERE account_id = $1 AND environment = $2 AND checkpoint = $3 AND event_time >= $4 AND event_time < $5
     AND (event_time, score_id) > ($6::bigint, $7::text)
   ORDER BY event_time, score_id
   LIMIT $8`;

/** Decision records in `decision_records` (both modes). */
export class TypeOrmDecisionRecordRepository implements DecisionRecordRepository {
  constructor(private readonly dataSource: DataSource) {}

  async addAll(records: ReadonlyArray<DecisionRecord & RuleTenant>): Promise<void> {
    if (records.length === 0) return;
    await queryRows(this.dataSource, ADD_ALL, [
      records.map((record) => record.accountId),
      records.map((record) => record.environment),
      records.map((record) => record.scoreId),
      records.map((record) => record.checkpoint),
      records.map((record) => record.timestamp),
      jsonTextSequence(records.map((record) => JSON.stringify(record.event))),
    ]);
  }

  async find(tenant: RuleTenant, scoreId: string): Promise<DecisionRecord | null> {
    const [row] = await queryRows<DecisionRecordRow>(this.dataSource, FIND, [tenant.accountId, tenant.environment, scoreId]);
    return row === undefined ? null : toRecord(row);
  }

  async page(tenant: RuleTenant, checkpoint: string, from: number, to: number, cursor: DecisionCursor | null, limit: number): Promise<DecisionRecord[]> {
    const after = cursor ?? { timestamp: from - 1, scoreId: '' };
    const rows = await queryRows<DecisionRecordRow>(this.dataSource, PAGE, [tenant.accountId, tenant.environment, checkpoint, from, to, after.timestamp, after.scoreId, limit]);
    return rows.map(toRecord);
  }
}

function toRecord(row: DecisionRecordRow): DecisionRecord {
  return { scoreId: row.score_id, checkpoint: row.checkpoint, timestamp: bigintToNumber(row.event_time), event: JSON.parse(row.event) as Record<string, unknown> };
}
