import { Inject, Injectable } from '@nestjs/common';
import { type Principal, USER_REPOSITORY, type UserRepository, normalisedEmail } from '@ringfence/accounts';
import {
  type AssignCaseDto,
  type BulkCasesDto,
  type CaseActionReply,
  type CaseActionRequest,
  type CaseActorMessage,
  type CaseListQueryDto,
  type CloseCaseDto,
  DEFAULT_CASES_PAGE,
  type ListCasesRequest,
  type NextCaseDto,
  type PaymentReviewDto,
  type PaymentReviewMessage,
  RpcTopics,
} from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { OwnerRequests } from '../owner-requests.service';
import { assigneeFilter, caseActorOf } from './case-actor';

/** The envelope's subject of the case requests: they are about the data set's cases, not one customer. */
const CASES_SUBJECT_ID = 'cases';

/** The `{status, timestamp, data}` envelope of the neighbouring /v2 reads. */
export interface Enveloped<T> {
  status: number;
  timestamp: number;
  data: T;
}

const enveloped = <T>(data: T, status = 200): Enveloped<T> => ({ status, timestamp: Date.now(), data });

/**
 * The case and payment-review routes (ADR-0017): each is one request to the labelling service,
 * which owns cases, counted against the account's rate limit like every route. The actor is the
 * principal's (`actorOf`), named here: the labelling service never sees a principal.
 */
@Injectable()
export class CasesUseCase {
  constructor(
    private readonly owner: OwnerRequests,
    @Inject(USER_REPOSITORY) private readonly users: UserRepository,
  ) {}

  async list(principal: Principal, query: CaseListQueryDto, traceId: string) {
    if (query.subjectId !== undefined && query.subjectType === undefined) throw new AppError('VALIDATION_FAILED', 'subjectType: is required with subjectId (customer or supplier)');
    const request: ListCasesRequest = {
      status: query.status ?? 'active',
      order: query.order ?? 'recent',
      limit: query.limit ?? DEFAULT_CASES_PAGE,
      ...(query.checkpoint === undefined ? {} : { checkpoint: query.checkpoint }),
      ...assigneeFilter(principal, query.assignee),
      ...(query.subjectType === undefined ? {} : { subjectType: query.subjectType }),
      ...(query.subjectId === undefined ? {} : { subjectId: query.subjectId }),
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    };
    return enveloped(await this.owner.ask(principal, traceId, CASES_SUBJECT_ID, RpcTopics.listCases, request));
  }

  async read(principal: Principal, caseId: string, traceId: string) {
    return enveloped(await this.owner.ask(principal, traceId, CASES_SUBJECT_ID, RpcTopics.readCase, { caseId }));
  }

  claim(principal: Principal, caseId: string, version: number, traceId: string) {
    return this.act(principal, traceId, { caseId, action: 'claim', version });
  }

  async assign(principal: Principal, caseId: string, body: AssignCaseDto, traceId: string) {
    return this.act(principal, traceId, { caseId, action: 'assign', version: body.version, assignee: await this.personOf(principal, body.assignee) });
  }

  async note(principal: Principal, caseId: string, text: string, traceId: string) {
    const reply = await this.send(principal, traceId, { caseId, action: 'note', text });
    return enveloped(reply.note, 201);
  }

  close(principal: Principal, caseId: string, body: CloseCaseDto, traceId: string) {
    return this.act(principal, traceId, { caseId, action: 'close', version: body.version, outcome: body.outcome, ...(body.comment === undefined ? {} : { comment: body.comment }) });
  }

  reopen(principal: Principal, caseId: string, version: number, traceId: string) {
    return this.act(principal, traceId, { caseId, action: 'reopen', version });
  }

  async next(principal: Principal, body: NextCaseDto, traceId: string) {
    const reply = await this.owner.ask(principal, traceId, CASES_SUBJECT_ID, RpcTopics.nextCase, {
      actor: caseActorOf(principal),
      ...(body.checkpoint === undefined ? {} : { checkpoint: body.checkpoint }),
    });
    return enveloped(reply);
  }

  async bulk(principal: Principal, body: BulkCasesDto, traceId: string) {
    if (body.action === 'close' && body.outcome === undefined) throw new AppError('VALIDATION_FAILED', 'outcome: is required with action close');
    if (body.action === 'assign' && body.assignee === undefined) throw new AppError('VALIDATION_FAILED', 'assignee: is required with action assign (an e-mail, or null)');
    const reply = await this.owner.ask(principal, traceId, CASES_SUBJECT_ID, RpcTopics.bulkCases, {
      actor: caseActorOf(principal),
      caseIds: body.caseIds,
      action: body.action,
      ...(body.outcome === undefined ? {} : { outcome: body.outcome }),
      ...(body.assignee === undefined ? {} : { assignee: await this.personOf(principal, body.assignee) }),
    });
    return enveloped(reply);
  }

  /**
   * The payment must be one this data set sent: its stored transaction (ingestion's entity
   * documents, read once the ingestion group has handled what the account sent before) names
   * it, and its customer. A payment never sent here is a 404.
   */
  async reviewPayment(principal: Principal, transactionId: string, body: PaymentReviewDto, traceId: string): Promise<Enveloped<PaymentReviewMessage>> {
    const customerId = await this.customerOfPayment(principal, transactionId, traceId);
    const review = await this.owner.ask(principal, traceId, customerId ?? transactionId, RpcTopics.reviewPayment, {
      transactionId,
      ...(customerId === null ? {} : { customerId }),
      decision: body.decision,
      actor: caseActorOf(principal),
      ...(body.comment === undefined ? {} : { comment: body.comment }),
    });
    return enveloped(review, 201);
  }

  async withdrawPaymentReview(principal: Principal, transactionId: string, traceId: string): Promise<Enveloped<PaymentReviewMessage>> {
    const customerId = await this.customerOfPayment(principal, transactionId, traceId);
    return enveloped(await this.owner.ask(principal, traceId, customerId ?? transactionId, RpcTopics.withdrawPaymentReview, { transactionId, actor: caseActorOf(principal) }));
  }

  /** The person an assignment names: one of the account's people, not disabled (400 otherwise), with their name. */
  private async personOf(principal: Principal, email: string | null): Promise<CaseActorMessage | null> {
    if (email === null) return null;
    const user = await this.users.findByEmail(normalisedEmail(email));
    if (user === null || user.accountId !== principal.account.id || user.disabled) {
      throw new AppError('VALIDATION_FAILED', `assignee: no active person of this account has the e-mail ${email}`);
    }
    return { email: user.email, name: user.name };
  }

  private async customerOfPayment(principal: Principal, transactionId: string, traceId: string): Promise<string | null> {
    const { documents } = await this.owner.ask(principal, traceId, transactionId, RpcTopics.readEntityDocuments, { refs: [{ kind: 'transaction', entityId: transactionId }] });
    const document = documents[0];
    if (!document) throw new AppError('NOT_FOUND', `transactionId: no payment ${transactionId} was sent to this data set`);
    const customerId = document.fields.customerId;
    return typeof customerId === 'string' && customerId.length > 0 ? customerId : null;
  }

  private async act(principal: Principal, traceId: string, request: Omit<CaseActionRequest, 'actor'>) {
    const reply = await this.send(principal, traceId, request);
    return enveloped(reply.case);
  }

  private send(principal: Principal, traceId: string, request: Omit<CaseActionRequest, 'actor'>): Promise<CaseActionReply> {
    return this.owner.ask(principal, traceId, CASES_SUBJECT_ID, RpcTopics.caseAction, { ...request, actor: caseActorOf(principal) });
  }
}
