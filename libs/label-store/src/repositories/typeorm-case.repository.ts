import type { CaseOrder, CaseOutcome, CaseStatus, LabelSubjectKind, PaymentReviewDecision } from '@ringfence/contracts';
import type {
  CaseAuditEntry,
  CaseChanges,
  CaseDecision,
  CaseDecisionOutcome,
  CaseFilter,
  CasePosition,
  CaseRecord,
  CaseRepository,
  CaseSubject,
  CaseTenant,
  PaymentReview,
} from '@ringfence/labels';
import { queryRows } from '@ringfence/persistence';
import { AppError } from '@ringfence/platform';
import type { DataSource } from 'typeorm';
import {
  APPEND_EVENT,
  DECISION_SEEN,
  INSERT_PAYMENT_REVIEW,
  JOIN_CASE,
  NEWEST_PAYMENT_REVIEWS,
  OPEN_CASE,
  SELECT_CASE,
  SELECT_DECISIONS,
  SELECT_EVENTS,
  SELECT_LATEST_OF_SUBJECT,
  SELECT_NOTES,
  UPDATE_CASE,
  WITHDRAW_PAYMENT_REVIEW,
  countStatement,
  listStatement,
} from './case-statements';

interface CaseRow {
  case_id: string;
  subject_kind: LabelSubjectKind;
  subject_id: string;
  status: CaseStatus;
  outcome: CaseOutcome | null;
  assignee_email: string | null;
  assignee_name: string | null;
  checkpoints: string[];
  decision_count: number;
  max_score: number;
  total_amount: string | null;
  total_currency: string | null;
  opened_at: Date;
  last_decision_at: Date;
  updated_at: Date;
  closed_at: Date | null;
  version: number;
}

interface DecisionRow {
  decision_key: string;
  score_id: string;
  checkpoint: string;
  action: string;
  score: number;
  decided_at: Date;
  transaction_id: string | null;
  order_id: string | null;
  amount: string | null;
  currency: string | null;
}

interface ReviewRow {
  transaction_id: string;
  customer_id: string | null;
  decision: PaymentReviewDecision;
  actor: string;
  at: Date;
  comment: string | null;
  withdrawn_at: Date | null;
  withdrawn_by: string | null;
}

/** How often a decision tries to join (or open) the subject's case when a close keeps coming in between. */
const JOIN_ATTEMPTS = 3;
/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Cases in `cases`, `case_decisions`, `case_events` and `payment_reviews` (ADR-0017). Each
 * workflow write (a transition, an audit line) is one statement (data-modifying CTEs: the change
 * and its audit line together), so it needs no transaction; concurrent writers are ordered by the
 * optimistic `version` and the partial unique index of active cases. Adding a decision is the
 * exception: one statement when the subject has an active case, a few when it opens one.
 */
export class TypeOrmCaseRepository implements CaseRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Joins first (the common case: one statement), and opens a case only when nothing joined; a
   * case opened by another writer, or closed, meanwhile is met by the next attempt. Each attempt
   * opens with a fresh id, so a second open meets the index of active cases, not the primary key.
   */
  async addReviewDecision(tenant: CaseTenant, subject: CaseSubject, decision: CaseDecision, newCaseId: () => string, at: number): Promise<CaseDecisionOutcome> {
    let opened = false;
    for (let attempt = 0; attempt < JOIN_ATTEMPTS; attempt += 1) {
      if (await this.join(tenant, subject, decision, at)) return opened ? 'opened' : 'joined';
      opened = await this.open(tenant, subject, decision, newCaseId(), at);
      if (!opened && (await queryRows(this.dataSource, DECISION_SEEN, [tenant.accountId, tenant.environment, decision.decisionKey])).length > 0) return 'duplicate';
    }
    if (await this.join(tenant, subject, decision, at)) return opened ? 'opened' : 'joined';
    throw new Error(`decision ${decision.decisionKey} found no case to join after ${JOIN_ATTEMPTS} attempts`);
  }

  private async open(tenant: CaseTenant, subject: CaseSubject, decision: CaseDecision, caseId: string, at: number): Promise<boolean> {
    const detail = JSON.stringify({ scoreId: decision.scoreId, checkpoint: decision.checkpoint, score: decision.score });
    const parameters = [caseId, tenant.accountId, tenant.environment, subject.kind, subject.id, new Date(at), decision.decisionKey, new Date(decision.timestamp), detail];
    return (await queryRows(this.dataSource, OPEN_CASE, parameters)).length > 0;
  }

  private async join(tenant: CaseTenant, subject: CaseSubject, decision: CaseDecision, at: number): Promise<boolean> {
    const joined = await queryRows(this.dataSource, JOIN_CASE, [
      tenant.accountId,
      tenant.environment,
      subject.kind,
      subject.id,
      decision.decisionKey,
      decision.scoreId,
      decision.checkpoint,
      decision.action,
      decision.score,
      new Date(decision.timestamp),
      decision.transactionId ?? null,
      decision.orderId ?? null,
      decision.amount ?? null,
      decision.currency ?? null,
      new Date(at),
    ]);
    return joined.length > 0;
  }

  async find(tenant: CaseTenant, caseId: string): Promise<CaseRecord | null> {
    const [row] = await queryRows<CaseRow>(this.dataSource, SELECT_CASE, [tenant.accountId, tenant.environment, caseId]);
    return row === undefined ? null : toCase(row);
  }

  async update(tenant: CaseTenant, caseId: string, expectedVersion: number, changes: CaseChanges, audit: CaseAuditEntry): Promise<CaseRecord | null> {
    try {
      const [row] = await queryRows<CaseRow>(this.dataSource, UPDATE_CASE, [
        tenant.accountId,
        tenant.environment,
        caseId,
        changes.status,
        changes.outcome,
        changes.assignee?.email ?? null,
        changes.assignee?.name ?? null,
        changes.closedAt === null ? null : new Date(changes.closedAt),
        new Date(audit.at),
        expectedVersion,
        audit.actor,
        audit.action,
        JSON.stringify(audit.detail),
      ]);
      return row === undefined ? null : toCase(row);
    } catch (error) {
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION || (error as { driverError?: { code?: unknown } }).driverError?.code === UNIQUE_VIOLATION) {
        throw new AppError('CONFLICT', `case ${caseId}: its subject has another open case; work on that one`);
      }
      throw error;
    }
  }

  async appendAudit(tenant: CaseTenant, caseId: string, entry: CaseAuditEntry): Promise<void> {
    await queryRows(this.dataSource, APPEND_EVENT, [tenant.accountId, tenant.environment, caseId, new Date(entry.at), entry.actor, entry.action, JSON.stringify(entry.detail)]);
  }

  async list(tenant: CaseTenant, filter: CaseFilter, order: CaseOrder, after: CasePosition | null, limit: number): Promise<CaseRecord[]> {
    const { sql, parameters } = listStatement(tenant, filter, order, after, limit);
    return (await queryRows<CaseRow>(this.dataSource, sql, parameters)).map(toCase);
  }

  async count(tenant: CaseTenant, filter: CaseFilter): Promise<number> {
    const { sql, parameters } = countStatement(tenant, filter);
    const [row] = await queryRows<{ total: string | number }>(this.dataSource, sql, parameters);
    return Number(row?.total ?? 0);
  }

  async decisions(tenant: CaseTenant, caseId: string): Promise<CaseDecision[]> {
    const rows = await queryRows<DecisionRow>(this.dataSource, SELECT_DECISIONS, [tenant.accountId, tenant.environment, caseId]);
    return rows.map((row) => ({
      decisionKey: row.decision_key,
      scoreId: row.score_id,
      checkpoint: row.checkpoint,
      action: row.action,
      score: Number(row.score),
      timestamp: row.decided_at.getTime(),
      ...(row.transaction_id === null ? {} : { transactionId: row.transaction_id }),
      ...(row.order_id === null ? {} : { orderId: row.order_id }),
      ...(row.amount === null ? {} : { amount: Number(row.amount) }),
      ...(row.currency === null ? {} : { currency: row.currency }),
    }));
  }

  async audit(tenant: CaseTenant, caseId: string): Promise<CaseAuditEntry[]> {
    return this.events(SELECT_EVENTS, tenant, caseId);
  }

  async notes(tenant: CaseTenant, caseId: string): Promise<CaseAuditEntry[]> {
    return this.events(SELECT_NOTES, tenant, caseId);
  }

  private async events(statement: string, tenant: CaseTenant, caseId: string): Promise<CaseAuditEntry[]> {
    const rows = await queryRows<{ at: Date; actor: string; action: string; detail: string }>(this.dataSource, statement, [tenant.accountId, tenant.environment, caseId]);
    return rows.map((row) => ({ at: row.at.getTime(), actor: row.actor, action: row.action, detail: JSON.parse(row.detail) as Record<string, unknown> }));
  }

  async latestCaseOf(tenant: CaseTenant, subject: CaseSubject): Promise<CaseRecord | null> {
    const [row] = await queryRows<CaseRow>(this.dataSource, SELECT_LATEST_OF_SUBJECT, [tenant.accountId, tenant.environment, subject.kind, subject.id]);
    return row === undefined ? null : toCase(row);
  }

  async recordPaymentReview(tenant: CaseTenant, review: PaymentReview): Promise<void> {
    await queryRows(this.dataSource, INSERT_PAYMENT_REVIEW, [
      tenant.accountId,
      tenant.environment,
      review.transactionId,
      review.customerId,
      review.decision,
      review.actor,
      new Date(review.at),
      review.comment,
    ]);
  }

  async withdrawPaymentReview(tenant: CaseTenant, transactionId: string, actor: string, at: number): Promise<PaymentReview | null> {
    const [row] = await queryRows<ReviewRow>(this.dataSource, WITHDRAW_PAYMENT_REVIEW, [tenant.accountId, tenant.environment, transactionId, new Date(at), actor]);
    return row === undefined ? null : toReview(row);
  }

  async currentPaymentReviews(tenant: CaseTenant, transactionIds: readonly string[]): Promise<PaymentReview[]> {
    if (transactionIds.length === 0) return [];
    const rows = await queryRows<ReviewRow>(this.dataSource, NEWEST_PAYMENT_REVIEWS, [tenant.accountId, tenant.environment, [...new Set(transactionIds)]]);
    return rows.filter((row) => row.withdrawn_at === null).map(toReview);
  }
}

function toCase(row: CaseRow): CaseRecord {
  return {
    caseId: row.case_id,
    subjectType: row.subject_kind,
    subjectId: row.subject_id,
    status: row.status,
    outcome: row.outcome,
    assignee: row.assignee_email === null ? null : { email: row.assignee_email, name: row.assignee_name ?? row.assignee_email },
    checkpoints: row.checkpoints,
    decisionCount: row.decision_count,
    maxScore: Number(row.max_score),
    totalAmount: row.total_amount === null || row.total_currency === null ? null : { amount: Number(row.total_amount), currency: row.total_currency },
    openedAt: row.opened_at.getTime(),
    lastDecisionAt: row.last_decision_at.getTime(),
    updatedAt: row.updated_at.getTime(),
    closedAt: row.closed_at === null ? null : row.closed_at.getTime(),
    version: row.version,
  };
}

function toReview(row: ReviewRow): PaymentReview {
  return {
    transactionId: row.transaction_id,
    customerId: row.customer_id,
    decision: row.decision,
    actor: row.actor,
    at: row.at.getTime(),
    comment: row.comment,
    ...(row.withdrawn_at === null ? {} : { withdrawnAt: row.withdrawn_at.getTime(), withdrawnBy: row.withdrawn_by ?? '' }),
  };
}
