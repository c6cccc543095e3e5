import type { Environment } from '@ringfence/contracts';
import { EntitySchema } from 'typeorm';

// Rows are read and written with SQL (`TypeOrmCaseRepository`); these schemas describe the
// migrated tables for TypeORM's schema check and name their columns once.

const TENANT_CHECK = (table: string) => ({ name: `chk_${table}_environment`, expression: `environment IN ('test', 'live')` });

export interface CaseRow {
  caseId: string;
  accountId: string;
  environment: Environment;
  subjectKind: string;
  subjectId: string;
  status: string;
  outcome: string | null;
  assigneeEmail: string | null;
  assigneeName: string | null;
  checkpoints: string[];
  decisionCount: number;
  maxScore: number;
  totalAmount: string | null;
  totalCurrency: string | null;
  openedAt: Date;
  lastDecisionAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  version: number;
}

/**
 * `cases`: the REVIEW decisions of one customer or supplier grouped for analysts (ADR-0017).
 * At most one open or in-review case per subject (a partial unique index); `version` moves with
 * every workflow action (the optimistic check), not with a decision that joins.
 */
export const CaseEntity = new EntitySchema<CaseRow>({
  name: 'case',
  tableName: 'cases',
  columns: {
    caseId: { name: 'case_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_cases' },
    accountId: { name: 'account_id', type: 'text' },
    environment: { type: 'text' },
    subjectKind: { name: 'subject_kind', type: 'text' },
    subjectId: { name: 'subject_id', type: 'text' },
    status: { type: 'text' },
    outcome: { type: 'text', nullable: true },
    assigneeEmail: { name: 'assignee_email', type: 'text', nullable: true },
    assigneeName: { name: 'assignee_name', type: 'text', nullable: true },
    checkpoints: { type: 'jsonb' },
    decisionCount: { name: 'decision_count', type: 'integer' },
    maxScore: { name: 'max_score', type: 'double precision' },
    totalAmount: { name: 'total_amount', type: 'bigint', nullable: true },
    totalCurrency: { name: 'total_currency', type: 'text', nullable: true },
    openedAt: { name: 'opened_at', type: 'timestamptz' },
    lastDecisionAt: { name: 'last_decision_at', type: 'timestamptz' },
    updatedAt: { name: 'updated_at', type: 'timestamptz' },
    closedAt: { name: 'closed_at', type: 'timestamptz', nullable: true },
    version: { type: 'integer' },
  },
  indices: [
    { name: 'uq_cases_active_subject', columns: ['accountId', 'environment', 'subjectKind', 'subjectId'], unique: true, where: `status IN ('open', 'in_review')` },
    { name: 'idx_cases_tenant_opened', columns: ['accountId', 'environment', 'openedAt'] },
    { name: 'idx_cases_tenant_subject', columns: ['accountId', 'environment', 'subjectKind', 'subjectId', 'openedAt'] },
    { name: 'idx_cases_open_unassigned', columns: ['accountId', 'environment', 'openedAt', 'caseId'], where: `status = 'open' AND assignee_email IS NULL` },
  ],
  checks: [
    TENANT_CHECK('cases'),
    { name: 'chk_cases_status', expression: `status IN ('open', 'in_review', 'closed')` },
    { name: 'chk_cases_subject_kind', expression: `subject_kind IN ('customer', 'supplier')` },
  ],
});

export interface CaseDecisionRow {
  accountId: string;
  environment: Environment;
  decisionKey: string;
  caseId: string;
  scoreId: string;
  checkpoint: string;
  action: string;
  score: number;
  decidedAt: Date;
  transactionId: string | null;
  orderId: string | null;
  amount: string | null;
  currency: string | null;
}

/** `case_decisions`: each REVIEW decision once per data set (its key), with the case it joined. */
export const CaseDecisionEntity = new EntitySchema<CaseDecisionRow>({
  name: 'case_decision',
  tableName: 'case_decisions',
  columns: {
    accountId: { name: 'account_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_case_decisions' },
    environment: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_case_decisions' },
    decisionKey: { name: 'decision_key', type: 'text', primary: true, primaryKeyConstraintName: 'pk_case_decisions' },
    caseId: { name: 'case_id', type: 'text' },
    scoreId: { name: 'score_id', type: 'text' },
    checkpoint: { type: 'text' },
    action: { type: 'text' },
    score: { type: 'double precision' },
    decidedAt: { name: 'decided_at', type: 'timestamptz' },
    transactionId: { name: 'transaction_id', type: 'text', nullable: true },
    orderId: { name: 'order_id', type: 'text', nullable: true },
    amount: { type: 'bigint', nullable: true },
    currency: { type: 'text', nullable: true },
  },
  indices: [{ name: 'idx_case_decisions_case', columns: ['caseId', 'decidedAt'] }],
  checks: [TENANT_CHECK('case_decisions')],
});

export interface CaseEventRow {
  sequence: string;
  accountId: string;
  environment: Environment;
  caseId: string;
  at: Date;
  actor: string;
  action: string;
  detail: string;
}

/** `case_events`: a case's audit trail, append only; a note is an event `note`. */
export const CaseEventEntity = new EntitySchema<CaseEventRow>({
  name: 'case_event',
  tableName: 'case_events',
  columns: {
    sequence: { type: 'bigint', primary: true, generated: 'increment', primaryKeyConstraintName: 'pk_case_events' },
    accountId: { name: 'account_id', type: 'text' },
    environment: { type: 'text' },
    caseId: { name: 'case_id', type: 'text' },
    at: { type: 'timestamptz' },
    actor: { type: 'text' },
    action: { type: 'text' },
    detail: { type: 'text' },
  },
  indices: [{ name: 'idx_case_events_case', columns: ['caseId', 'sequence'] }],
  checks: [TENANT_CHECK('case_events')],
});

export interface PaymentReviewRow {
  sequence: string;
  accountId: string;
  environment: Environment;
  transactionId: string;
  customerId: string | null;
  decision: string;
  actor: string;
  at: Date;
  comment: string | null;
  withdrawnAt: Date | null;
  withdrawnBy: string | null;
}

/** `payment_reviews`: every review of a payment; the newest one not withdrawn is its current review. */
export const PaymentReviewEntity = new EntitySchema<PaymentReviewRow>({
  name: 'payment_review',
  tableName: 'payment_reviews',
  columns: {
    sequence: { type: 'bigint', primary: true, generated: 'increment', primaryKeyConstraintName: 'pk_payment_reviews' },
    accountId: { name: 'account_id', type: 'text' },
    environment: { type: 'text' },
    transactionId: { name: 'transaction_id', type: 'text' },
    customerId: { name: 'customer_id', type: 'text', nullable: true },
    decision: { type: 'text' },
    actor: { type: 'text' },
    at: { type: 'timestamptz' },
    comment: { type: 'text', nullable: true },
    withdrawnAt: { name: 'withdrawn_at', type: 'timestamptz', nullable: true },
    withdrawnBy: { name: 'withdrawn_by', type: 'text', nullable: true },
  },
  indices: [{ name: 'idx_payment_reviews_transaction', columns: ['accountId', 'environment', 'transactionId', 'sequence'] }],
  checks: [TENANT_CHECK('payment_reviews'), { name: 'chk_payment_reviews_decision', expression: `decision IN ('approve', 'decline', 'fraud', 'not_fraud')` }],
});
