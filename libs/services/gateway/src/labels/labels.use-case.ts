import { Injectable } from '@nestjs/common';
import { type Principal, actorOf } from '@ringfence/accounts';
import {
  type ConnectReviewDto,
  type CurrentLabelMessage,
  type CustomerLabelRequestDto,
  type LabelAppliedResponseDto,
  type LabelHistoryEntryMessage,
  type LabelSubjectKind,
  type ReadLabelsReply,
  RpcTopics,
  type SupplierLabelRequestDto,
} from '@ringfence/contracts';
import { OwnerRequests } from '../owner-requests.service';
import { RateLimits } from '../rate-limit/rate-limits.service';

/** ADR-0008: ISO 8601 UTC with milliseconds and `Z` (what `Date#toISOString` writes). */
const isoTime = (epochMillis: number) => new Date(epochMillis).toISOString();

const withIsoTime = <T extends { eventTime: number }>(label: T): Omit<T, 'eventTime'> & { eventTime: string } => ({
  ...label,
  eventTime: isoTime(label.eventTime),
});

/** The labels answer with ISO times: `{labels: {<category>: …}, history: […]}`. */
export interface LabelsView {
  labels: Record<string, Omit<CurrentLabelMessage, 'eventTime'> & { eventTime: string }>;
  history: Array<Omit<LabelHistoryEntryMessage, 'eventTime'> & { eventTime: string }>;
}

/**
 * Issue 37: a label applied by a signed-in person names that person (`actorOf`), whatever the
 * request's own `reviewer` says; an integration's key keeps the reviewer it sends.
 */
export function reviewerOf(principal: Principal): { reviewer?: { name: string; email: string } } {
  return principal.user ? { reviewer: { name: principal.user.name, email: actorOf(principal) } } : {};
}

/**
 * The label routes: each is one request to the labelling service. A label POST of an account
 * over its rate limit is still applied and then answered 429 (ADR-0001: valid data is
 * accepted); a GET over the limit is answered 429 without asking.
 */
@Injectable()
export class LabelsUseCase {
  constructor(
    private readonly owner: OwnerRequests,
    private readonly limits: RateLimits,
  ) {}

  async apply(
    principal: Principal,
    subjectKind: LabelSubjectKind,
    subjectId: string,
    body: CustomerLabelRequestDto | SupplierLabelRequestDto,
    traceId: string,
  ): Promise<LabelAppliedResponseDto> {
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(principal);
    const { eventTime } = await this.owner.send(principal, traceId, subjectId, RpcTopics.applyLabel, { ...body, ...reviewerOf(principal), subjectKind, subjectId });
    if (retryAfterSeconds !== null) {
      throw this.limits.accountLimited(retryAfterSeconds, 'the label was applied');
    }
    return { eventTime: isoTime(eventTime) };
  }

  /**
   * ADR-0004: a connect `review` sets the customer's PAYMENT_FRAUD label exactly as the label
   * endpoint does (same service, same rules, same audit log). The connect request was already
   * counted against the account's limit.
   */
  async applyConnectReview(principal: Principal, customerId: string, review: ConnectReviewDto, traceId: string): Promise<void> {
    await this.owner.send(principal, traceId, customerId, RpcTopics.applyLabel, {
      subjectKind: 'customer',
      subjectId: customerId,
      category: 'PAYMENT_FRAUD',
      review: review.label,
      ...(review.reviewer ? { reviewer: review.reviewer } : {}),
      ...(review.comment !== undefined ? { comment: review.comment } : {}),
    });
  }

  async read(principal: Principal, subjectKind: LabelSubjectKind, subjectId: string, traceId: string): Promise<{ status: number; timestamp: number; data: LabelsView }> {
    const reply: ReadLabelsReply = await this.owner.ask(principal, traceId, subjectId, RpcTopics.readLabels, { subjectKind, subjectId });
    const labels = Object.fromEntries(Object.entries(reply.labels).map(([category, label]) => [category, withIsoTime(label)]));
    return { status: 200, timestamp: Date.now(), data: { labels, history: reply.history.map(withIsoTime) } };
  }
}
