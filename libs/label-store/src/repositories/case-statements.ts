import type { CaseOrder, CaseStatus } from '@ringfence/contracts';
import { type CaseFilter, type CasePosition, type CaseTenant } from '@ringfence/labels';

// The cases' SQL, every statement naming the tenant (account, environment) first.

const CASE_COLUMNS = `case_id, subject_kind, subject_id, status, outcome, assignee_email, assignee_name, checkpoints, decision_count,
  max_score, total_amount, total_currency, opened_at, last_decision_at, updated_at, closed_at, version`;

export const SELECT_CASE = `SELECT ${CASE_COLUMNS} FROM cases WHERE account_id = $1 AND environment = $2 AND case_id = $3`;

export const SELECT_LATEST_OF_SUBJECT = `SELECT ${CASE_COLUMNS} FROM cases
  WHERE account_id = $1 AND environment = $2 AND subject_kind = $3 AND subject_id = $4 ORDER BY opened_at DESC, case_id DESC LIMIT 1`;

/**
 * Opens a case for a decision not seen before when the subject has no open or in-review case
 * (the partial unique index decides, also between two writers), with its audit line.
 * $1 case id, $2–$5 tenant and subject, $6 now, $7 decision key, $8 the decision's time, $9 the audit detail.
 */
export const OPEN_CASE = `
  WITH opened AS (
    INSERT INTO cases (case_id, account_id, environment, subject_kind, subject_id, status, outcome, assignee_email, assignee_name, checkpoints,
                       decision_count, max_score, total_amount, total_currency, opened_at, last_decision_at, updated_at, closed_at, version)
    SELECT $1::text, $2::text, $3::text, $4::text, $5::text, 'open', NULL, NULL, NULL, '[]'::jsonb, 0, 0, NULL, NULL, $6::timestamptz, $8::timestamptz, $6::timestamptz, NULL, 1
     WHERE NOT EXISTS (SELECT 1 FROM case_decisions WHERE account_id = $2 AND environment = $3 AND decision_key = $7)
    ON CONFLICT (account_id, environment, subject_kind, subject_id) WHERE status IN ('open', 'in_review') DO NOTHING
    RETURNING case_id
  )
  INSERT INTO case_events (account_id, environment, case_id, at, actor, action, detail)
  SELECT $2::text, $3::text, case_id, $6::timestamptz, 'ringfence', 'open', $9::text FROM opened
  RETURNING case_id`;

/**
 * Adds a decision to the subject's active case, once per key, and the case's totals with it:
 * the amount adds up only in the case's first currency. A joining decision leaves `version`.
 * The active case is locked (FOR UPDATE) and its status checked again by the UPDATE: a close
 * committed meanwhile makes the lock see the closed row and leave it out, so the decision is not
 * joined to a closed case (nothing is returned and the caller opens a new case).
 * $1–$4 tenant and subject, $5 key, $6 scoreId, $7 checkpoint, $8 action, $9 score, $10 time,
 * $11 transaction, $12 order, $13 amount, $14 currency, $15 now.
 */
export const JOIN_CASE = `
  WITH active AS (
    SELECT case_id FROM cases
     WHERE account_id = $1 AND environment = $2 AND subject_kind = $3 AND subject_id = $4 AND status IN ('open', 'in_review')
     FOR UPDATE
  ), added AS (
    INSERT INTO case_decisions (account_id, environment, decision_key, case_id, score_id, checkpoint, action, score, decided_at, transaction_id, order_id, amount, currency)
    SELECT $1::text, $2::text, $5::text, case_id, $6::text, $7::text, $8::text, $9::double precision, $10::timestamptz, $11::text, $12::text, $13::bigint, $14::text FROM active
    ON CONFLICT (account_id, environment, decision_key) DO NOTHING
    RETURNING case_id
  )
  UPDATE cases SET
    decision_count = decision_count + 1,
    max_score = GREATEST(max_score, $9::double precision),
    checkpoints = CASE WHEN checkpoints @> jsonb_build_array($7::text) THEN checkpoints ELSE checkpoints || jsonb_build_array($7::text) END,
    total_currency = CASE WHEN $13::bigint IS NULL OR $14::text IS NULL THEN total_currency ELSE COALESCE(total_currency, $14::text) END,
    total_amount = CASE WHEN $13::bigint IS NULL OR $14::text IS NULL OR (total_currency IS NOT NULL AND total_currency <> $14::text)
                        THEN total_amount ELSE COALESCE(total_amount, 0) + $13::bigint END,
    last_decision_at = GREATEST(last_decision_at, $10::timestamptz),
    updated_at = $15::timestamptz
  FROM added WHERE cases.case_id = added.case_id AND cases.status IN ('open', 'in_review')
  RETURNING cases.case_id`;

export const DECISION_SEEN = `SELECT 1 AS seen FROM case_decisions WHERE account_id = $1 AND environment = $2 AND decision_key = $3`;

/** A workflow change at the version the analyst saw, bumping it, with its audit line. $1–$3 case, $4–$9 changes, $10 version, $11–$13 audit. */
export const UPDATE_CASE = `
  WITH updated AS (
    UPDATE cases SET status = $4, outcome = $5, assignee_email = $6, assignee_name = $7, closed_at = $8, updated_at = $9, version = version + 1
     WHERE account_id = $1 AND environment = $2 AND case_id = $3 AND version = $10
    RETURNING ${CASE_COLUMNS}
  ), logged AS (
    INSERT INTO case_events (account_id, environment, case_id, at, actor, action, detail)
    SELECT $1::text, $2::text, case_id, $9::timestamptz, $11::text, $12::text, $13::text FROM updated
  )
  SELECT * FROM updated`;

/** An audit line without a change of state (a note, a payment review). */
export const APPEND_EVENT = `
  WITH touched AS (
    UPDATE cases SET updated_at = GREATEST(updated_at, $4::timestamptz) WHERE account_id = $1 AND environment = $2 AND case_id = $3 RETURNING case_id
  )
  INSERT INTO case_events (account_id, environment, case_id, at, actor, action, detail)
  SELECT $1::text, $2::text, case_id, $4::timestamptz, $5::text, $6::text, $7::text FROM touched`;

/** The most decisions, audit lines and notes a case read answers (the newest; `decisionCount` counts them all). */
export const CASE_READ_LIMIT = 500;

export const SELECT_DECISIONS = `
  SELECT decision_key, score_id, checkpoint, action, score, decided_at, transaction_id, order_id, amount, currency FROM case_decisions
   WHERE account_id = $1 AND environment = $2 AND case_id = $3 ORDER BY decided_at DESC, decision_key DESC LIMIT ${CASE_READ_LIMIT}`;

/** The newest audit lines, oldest first. */
export const SELECT_EVENTS = `
  SELECT at, actor, action, detail FROM (
    SELECT sequence, at, actor, action, detail FROM case_events
     WHERE account_id = $1 AND environment = $2 AND case_id = $3 ORDER BY sequence DESC LIMIT ${CASE_READ_LIMIT}
  ) newest ORDER BY sequence`;

/** The newest notes, oldest first: read apart from the audit lines, so a long trail does not push them out. */
export const SELECT_NOTES = `
  SELECT at, actor, action, detail FROM (
    SELECT sequence, at, actor, action, detail FROM case_events
     WHERE account_id = $1 AND environment = $2 AND case_id = $3 AND action = 'note' ORDER BY sequence DESC LIMIT ${CASE_READ_LIMIT}
  ) newest ORDER BY sequence`;

const REVIEW_COLUMNS = 'transaction_id, customer_id, decision, actor, at, comment, withdrawn_at, withdrawn_by';

export const INSERT_PAYMENT_REVIEW = `
  INSERT INTO payment_reviews (account_id, environment, transaction_id, customer_id, decision, actor, at, comment) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

/** Withdraws the payment's newest review, when it is not withdrawn already. */
export const WITHDRAW_PAYMENT_REVIEW = `
  UPDATE payment_reviews SET withdrawn_at = $4, withdrawn_by = $5
   WHERE sequence = (SELECT sequence FROM payment_reviews WHERE account_id = $1 AND environment = $2 AND transaction_id = $3 ORDER BY sequence DESC LIMIT 1)
     AND withdrawn_at IS NULL
  RETURNING ${REVIEW_COLUMNS}`;

/** Each payment's newest review (the caller leaves out withdrawn ones). */
export const NEWEST_PAYMENT_REVIEWS = `
  SELECT DISTINCT ON (transaction_id) ${REVIEW_COLUMNS} FROM payment_reviews
   WHERE account_id = $1 AND environment = $2 AND transaction_id = ANY($3::text[]) ORDER BY transaction_id, sequence DESC`;

/** How each order sorts: the expression, its direction and the cursor value's SQL type. */
const ORDERS: Record<CaseOrder, { expression: string; descending: boolean; cast: string; value: (value: number) => unknown }> = {
  age: { expression: 'opened_at', descending: false, cast: 'timestamptz', value: (value) => new Date(value) },
  recent: { expression: 'last_decision_at', descending: true, cast: 'timestamptz', value: (value) => new Date(value) },
  score: { expression: 'max_score', descending: true, cast: 'double precision', value: (value) => value },
  amount: { expression: 'COALESCE(total_amount, -1)', descending: true, cast: 'bigint', value: (value) => value },
};

const STATUS_LITERALS: Record<CaseStatus, string> = { open: 'open', in_review: 'in_review', closed: 'closed' };

/** The WHERE of a filter, its parameters after the tenant's ($1, $2). */
function whereOf(tenant: CaseTenant, filter: CaseFilter): { conditions: string[]; parameters: unknown[] } {
  const parameters: unknown[] = [tenant.accountId, tenant.environment];
  const next = (value: unknown) => `$${parameters.push(value)}`;
  const conditions = ['account_id = $1', 'environment = $2'];
  // A status as a literal of this closed set, not a parameter: the planner then sees that
  // `next`'s filter (open, unassigned) is what `idx_cases_open_unassigned` holds.
  if (filter.status === 'active') conditions.push(`status IN ('open', 'in_review')`);
  else if (filter.status !== 'all') conditions.push(`status = '${STATUS_LITERALS[filter.status]}'`);
  if (filter.checkpoint !== undefined) conditions.push(`checkpoints @> jsonb_build_array(${next(filter.checkpoint)}::text)`);
  if (filter.unassigned === true) conditions.push('assignee_email IS NULL');
  if (filter.assignee !== undefined) conditions.push(`assignee_email = ${next(filter.assignee)}`);
  if (filter.subjectType !== undefined) conditions.push(`subject_kind = ${next(filter.subjectType)}`);
  if (filter.subjectId !== undefined) conditions.push(`subject_id = ${next(filter.subjectId)}`);
  return { conditions, parameters };
}

export function countStatement(tenant: CaseTenant, filter: CaseFilter): { sql: string; parameters: unknown[] } {
  const { conditions, parameters } = whereOf(tenant, filter);
  return { sql: `SELECT count(*) AS total FROM cases WHERE ${conditions.join(' AND ')}`, parameters };
}

/** A keyset page: strictly after `after` in the order, the case id breaking ties. */
export function listStatement(tenant: CaseTenant, filter: CaseFilter, order: CaseOrder, after: CasePosition | null, limit: number): { sql: string; parameters: unknown[] } {
  const { conditions, parameters } = whereOf(tenant, filter);
  const sort = ORDERS[order];
  const direction = sort.descending ? 'DESC' : 'ASC';
  if (after !== null) {
    const value = `$${parameters.push(sort.value(after.value))}::${sort.cast}`;
    const caseId = `$${parameters.push(after.caseId)}`;
    conditions.push(`(${sort.expression}, case_id) ${sort.descending ? '<' : '>'} (${value}, ${caseId})`);
  }
  const limitParameter = `$${parameters.push(limit)}`;
  return {
    sql: `SELECT ${CASE_COLUMNS} FROM cases WHERE ${conditions.join(' AND ')} ORDER BY ${sort.expression} ${direction}, case_id ${direction} LIMIT ${limitParameter}`,
    parameters,
  };
}
