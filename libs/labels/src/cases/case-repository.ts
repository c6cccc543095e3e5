import type { CaseOrder, CaseStatusFilter, RuleCheckpoint } from '@ringfence/contracts';
import type { CaseAuditEntry, CaseChanges, CaseDecision, CaseRecord, CaseSubject, CaseTenant, PaymentReview } from './case';
import type { CasePosition } from './case-cursor';

/** Which cases a list holds (every filter combines). */
export interface CaseFilter {
  status: CaseStatusFilter;
  checkpoint?: RuleCheckpoint;
  unassigned?: boolean;
  assignee?: string;
  subjectType?: CaseSubject['kind'];
  subjectId?: string;
}

/** What became of a REVIEW decision: a case opened for it, joined to the subject's, or seen before. */
export type CaseDecisionOutcome = 'opened' | 'joined' | 'duplicate';

/** The cases port; the labelling service's tables implement it (`@ringfence/label-store`). */
export interface CaseRepository {
  /**
   * Adds a REVIEW decision to the subject's open or in-review case, opening one (with an id from
   * `newCaseId`, asked again for each try) when it has none. A decision key seen before adds
   * nothing (a replayed event).
   */
  addReviewDecision(tenant: CaseTenant, subject: CaseSubject, decision: CaseDecision, newCaseId: () => string, at: number): Promise<CaseDecisionOutcome>;
  find(tenant: CaseTenant, caseId: string): Promise<CaseRecord | null>;
  /**
   * Applies a transition when the case is still at `expectedVersion`, with its audit line,
   * bumping the version: the case after it, or null when another write moved it first.
   */
  update(tenant: CaseTenant, caseId: string, expectedVersion: number, changes: CaseChanges, audit: CaseAuditEntry): Promise<CaseRecord | null>;
  /** Appends to the audit trail without a change of state (a note, a payment review); touches `updatedAt`. */
  appendAudit(tenant: CaseTenant, caseId: string, entry: CaseAuditEntry): Promise<void>;
  /** A page in `order`, after `after`. */
  list(tenant: CaseTenant, filter: CaseFilter, order: CaseOrder, after: CasePosition | null, limit: number): Promise<CaseRecord[]>;
  count(tenant: CaseTenant, filter: CaseFilter): Promise<number>;
  /** The case's decisions, newest first. */
  decisions(tenant: CaseTenant, caseId: string): Promise<CaseDecision[]>;
  /** The newest audit lines (a bounded number), oldest first. */
  audit(tenant: CaseTenant, caseId: string): Promise<CaseAuditEntry[]>;
  /** The newest notes (their audit lines, a bounded number of their own), oldest first. */
  notes(tenant: CaseTenant, caseId: string): Promise<CaseAuditEntry[]>;
  /** The subject's newest case (active or not), or null. */
  latestCaseOf(tenant: CaseTenant, subject: CaseSubject): Promise<CaseRecord | null>;
  /** Records a payment review, replacing the payment's current one (which stays in its history). */
  recordPaymentReview(tenant: CaseTenant, review: PaymentReview): Promise<void>;
  /** Withdraws the payment's current review; the review withdrawn, or null when it had none. */
  withdrawPaymentReview(tenant: CaseTenant, transactionId: string, actor: string, at: number): Promise<PaymentReview | null>;
  /** The current (not withdrawn) reviews of these payments. */
  currentPaymentReviews(tenant: CaseTenant, transactionIds: readonly string[]): Promise<PaymentReview[]>;
}

export const CASE_REPOSITORY = Symbol('CaseRepository');
