import type {
  BulkCasesReply,
  BulkCasesRequest,
  CaseActionReply,
  CaseActionRequest,
  CheckpointScoredEvent,
  ListCasesReply,
  ListCasesRequest,
  NextCaseRequest,
  ReadCaseReply,
  ReviewPaymentRequest,
} from '@ringfence/contracts';
import { AppError, prefixedId } from '@ringfence/platform';
import { type CaseActor, type CaseCommand, type CaseRecord, type CaseTenant, type PaymentReview, refuseHeldByAnother, transition } from './case';
import { decodeCaseCursor, encodeCaseCursor, positionAfter } from './case-cursor';
import type { CaseDecisionOutcome, CaseFilter, CaseRepository } from './case-repository';
import { reviewDecisionOf } from './review-decision';

/** How many open cases `next` tries to claim before it gives up on a race it keeps losing. */
const NEXT_CASE_ATTEMPTS = 5;

const required = <T>(value: T | undefined, field: string): T => {
  if (value === undefined) throw new AppError('VALIDATION_FAILED', `${field}: is required`);
  return value;
};

/**
 * The case use cases (ADR-0017): REVIEW decisions grouped into cases, the analysts' actions on
 * them with optimistic versions, the list, and per-payment reviews. Every action is written with
 * its audit line; a version another write moved first is a 409 naming who holds the case.
 */
export class Cases {
  constructor(
    private readonly cases: CaseRepository,
    private readonly now: () => number = Date.now,
  ) {}

  /** A decision event: a REVIEW about a customer or supplier opens or joins its case. */
  async addDecision(tenant: CaseTenant, eventId: string, event: CheckpointScoredEvent): Promise<CaseDecisionOutcome | 'ignored'> {
    const review = reviewDecisionOf(eventId, event);
    if (review === null) return 'ignored';
    return this.cases.addReviewDecision(tenant, review.subject, review.decision, () => prefixedId('cas', 20), this.now());
  }

  async list(tenant: CaseTenant, request: ListCasesRequest): Promise<ListCasesReply> {
    const after = request.cursor === undefined ? null : decodeCaseCursor(request.cursor, request.order);
    if (request.cursor !== undefined && after === null) throw new AppError('VALIDATION_FAILED', 'cursor: must be a nextCursor of this list and order, as it was answered');
    const filter: CaseFilter = {
      status: request.status,
      ...(request.checkpoint === undefined ? {} : { checkpoint: request.checkpoint }),
      ...(request.unassigned === true ? { unassigned: true } : {}),
      ...(request.assignee === undefined ? {} : { assignee: request.assignee }),
      ...(request.subjectType === undefined ? {} : { subjectType: request.subjectType }),
      ...(request.subjectId === undefined ? {} : { subjectId: request.subjectId }),
    };
    // One more than the page: a next cursor only when a case really follows (never an empty page).
    const [rows, total] = await Promise.all([this.cases.list(tenant, filter, request.order, after, request.limit + 1), this.cases.count(tenant, filter)]);
    const page = rows.slice(0, request.limit);
    const more = rows.length > request.limit;
    return { cases: page, nextCursor: more ? encodeCaseCursor(positionAfter(page[page.length - 1], request.order)) : null, total };
  }

  async read(tenant: CaseTenant, caseId: string): Promise<ReadCaseReply> {
    const record = await this.found(tenant, caseId);
    // Notes are read apart from the audit (each the newest of its bound): a long trail keeps them.
    const [decisions, audit, notes] = await Promise.all([this.cases.decisions(tenant, caseId), this.cases.audit(tenant, caseId), this.cases.notes(tenant, caseId)]);
    const payments = decisions.flatMap((decision) => (decision.transactionId === undefined ? [] : [decision.transactionId]));
    const reviews = new Map((await this.cases.currentPaymentReviews(tenant, payments)).map((review) => [review.transactionId, review]));
    return {
      case: record,
      decisions: decisions.map(({ decisionKey: _key, ...decision }) => {
        const review = decision.transactionId === undefined ? undefined : reviews.get(decision.transactionId);
        return review === undefined ? decision : { ...decision, review };
      }),
      notes: notes.map((entry) => ({ noteId: String(entry.detail.noteId), text: String(entry.detail.text), author: entry.actor, at: entry.at })),
      audit,
    };
  }

  /** One analyst's action on one case. @throws AppError NOT_FOUND, CONFLICT, VALIDATION_FAILED */
  async act(tenant: CaseTenant, request: CaseActionRequest): Promise<CaseActionReply> {
    const current = await this.found(tenant, request.caseId);
    if (request.action === 'note') return this.note(tenant, current, request.actor, required(request.text, 'text'));
    return { case: await this.apply(tenant, current, commandOf(request), request.actor) };
  }

  /** Claims the oldest open, unassigned case (of a checkpoint) for the actor; null when none is left. */
  async next(tenant: CaseTenant, request: NextCaseRequest): Promise<CaseRecord | null> {
    const filter: CaseFilter = { status: 'open', unassigned: true, ...(request.checkpoint === undefined ? {} : { checkpoint: request.checkpoint }) };
    for (let attempt = 0; attempt < NEXT_CASE_ATTEMPTS; attempt += 1) {
      const [oldest] = await this.cases.list(tenant, filter, 'age', null, 1);
      if (oldest === undefined) return null;
      const claimed = await this.tryApply(tenant, oldest, { action: 'claim', version: oldest.version }, request.actor);
      if (claimed !== null) return claimed;
    }
    throw new AppError('CONFLICT', 'every open case this request tried was claimed by someone else first; ask again');
  }

  /**
   * One action on each case at its current version; each case answers for itself. A bulk action
   * was not taken on what the analyst saw of each case, so a case another person holds is refused
   * (reported in its result), never taken from them silently.
   */
  async bulk(tenant: CaseTenant, request: BulkCasesRequest): Promise<BulkCasesReply> {
    const outcome = request.action === 'close' ? required(request.outcome, 'outcome') : undefined;
    if (request.action === 'assign' && request.assignee === undefined) throw new AppError('VALIDATION_FAILED', 'assignee: is required (an e-mail, or null)');
    const results: BulkCasesReply['results'] = [];
    for (const caseId of new Set(request.caseIds)) {
      try {
        const current = await this.found(tenant, caseId);
        refuseHeldByAnother(current, request.actor);
        const command: CaseCommand =
          outcome !== undefined ? { action: 'close', version: current.version, outcome } : { action: 'assign', version: current.version, assignee: request.assignee ?? null };
        await this.apply(tenant, current, command, request.actor);
        results.push({ caseId, ok: true });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push({ caseId, ok: false, error: error.message });
      }
    }
    return { results };
  }

  /** Records a payment review, and notes it in the customer's newest case when there is one. */
  async reviewPayment(tenant: CaseTenant, request: ReviewPaymentRequest): Promise<PaymentReview> {
    const review: PaymentReview = {
      transactionId: request.transactionId,
      customerId: request.customerId ?? null,
      decision: request.decision,
      actor: request.actor.email,
      at: this.now(),
      comment: request.comment ?? null,
    };
    await this.cases.recordPaymentReview(tenant, review);
    await this.auditPayment(tenant, review, 'payment_review', { transactionId: review.transactionId, decision: review.decision, ...(review.comment ? { comment: review.comment } : {}) });
    return review;
  }

  /** Withdraws the payment's review. @throws AppError CONFLICT when it has none. */
  async withdrawPaymentReview(tenant: CaseTenant, transactionId: string, actor: CaseActor): Promise<PaymentReview> {
    const at = this.now();
    const withdrawn = await this.cases.withdrawPaymentReview(tenant, transactionId, actor.email, at);
    if (withdrawn === null) throw new AppError('CONFLICT', `payment ${transactionId} has no review to withdraw`);
    await this.auditPayment(tenant, { ...withdrawn, actor: actor.email, at }, 'payment_review_withdrawn', { transactionId, decision: withdrawn.decision });
    return withdrawn;
  }

  private async auditPayment(tenant: CaseTenant, review: PaymentReview, action: string, detail: Record<string, unknown>): Promise<void> {
    if (review.customerId === null) return;
    const latest = await this.cases.latestCaseOf(tenant, { kind: 'customer', id: review.customerId });
    if (latest !== null) await this.cases.appendAudit(tenant, latest.caseId, { at: review.at, actor: review.actor, action, detail });
  }

  private async note(tenant: CaseTenant, current: CaseRecord, actor: CaseActor, text: string): Promise<CaseActionReply> {
    const note = { noteId: prefixedId('note', 16), text, author: actor.email, at: this.now() };
    await this.cases.appendAudit(tenant, current.caseId, { at: note.at, actor: actor.email, action: 'note', detail: { noteId: note.noteId, text } });
    return { case: await this.found(tenant, current.caseId), note };
  }

  private async apply(tenant: CaseTenant, current: CaseRecord, command: CaseCommand, actor: CaseActor): Promise<CaseRecord> {
    const updated = await this.tryApply(tenant, current, command, actor);
    if (updated !== null) return updated;
    // Another write moved the case between the read and the write: the check again, on what it is now.
    const now = await this.found(tenant, current.caseId);
    transition(now, command, actor, this.now());
    throw new AppError('CONFLICT', `case ${current.caseId} changed while this request was applied; read it again`);
  }

  private tryApply(tenant: CaseTenant, current: CaseRecord, command: CaseCommand, actor: CaseActor): Promise<CaseRecord | null> {
    const { changes, audit } = transition(current, command, actor, this.now());
    return this.cases.update(tenant, current.caseId, current.version, changes, audit);
  }

  private async found(tenant: CaseTenant, caseId: string): Promise<CaseRecord> {
    const record = await this.cases.find(tenant, caseId);
    if (record === null) throw new AppError('NOT_FOUND', `caseId: no case ${caseId} in this data set`);
    return record;
  }
}

function commandOf(request: CaseActionRequest): CaseCommand {
  const version = required(request.version, 'version');
  switch (request.action) {
    case 'claim':
      return { action: 'claim', version };
    case 'assign':
      if (request.assignee === undefined) throw new AppError('VALIDATION_FAILED', 'assignee: is required (an e-mail, or null)');
      return { action: 'assign', version, assignee: request.assignee };
    case 'close':
      return { action: 'close', version, outcome: required(request.outcome, 'outcome'), ...(request.comment ? { comment: request.comment } : {}) };
    case 'reopen':
      return { action: 'reopen', version };
    case 'note':
      throw new AppError('VALIDATION_FAILED', 'action: note takes no version');
  }
}
