import type { DecisionFactRow } from '@ringfence/scoring-engine';

/** One statement per batch; a redelivered decision (same scoreId) keeps its first facts. */
export const ADD_DECISION_FACTS = `
  INSERT INTO decision_facts (account_id, environment, score_id, event_time, checkpoint, action, source, model_score, subject_kind, subject_id, transaction_id, amount, currency, rule_ids)
  SELECT account_id, environment, score_id, event_time, checkpoint, action, source, model_score, subject_kind, subject_id, transaction_id, amount, currency, rule_ids::integer[]
    FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::double precision[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::text[], $14::text[])
      AS fact (account_id, environment, score_id, event_time, checkpoint, action, source, model_score, subject_kind, subject_id, transaction_id, amount, currency, rule_ids)
  ON CONFLICT (account_id, environment, score_id) DO NOTHING`;

/** The statement's arrays, column by column (`rule_ids` as array literals: unnest flattens nested arrays). */
export function decisionFactParameters(rows: readonly DecisionFactRow[]): unknown[] {
  return [
    rows.map((row) => row.accountId),
    rows.map((row) => row.environment),
    rows.map((row) => row.scoreId),
    rows.map((row) => row.eventTime),
    rows.map((row) => row.checkpoint),
    rows.map((row) => row.action),
    rows.map((row) => row.source),
    rows.map((row) => row.modelScore),
    rows.map((row) => row.subjectKind),
    rows.map((row) => row.subjectId),
    rows.map((row) => row.transactionId),
    rows.map((row) => row.amount),
    rows.map((row) => row.currency),
    rows.map((row) => `{${row.ruleIds.join(',')}}`),
  ];
}
