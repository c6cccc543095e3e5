import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { MessageBus } from '@ringfence/bus';
import {
  type ApplyLabelRequest,
  type ConnectReviewDto,
  type CurrentLabelMessage,
  type CustomerLabelRequestDto,
  type LabelAppliedResponseDto,
  type LabelHistoryEntryMessage,
  type LabelSubjectKind,
  type MessageEnvelope,
  type ReadLabelsReply,
  RpcTopics,
  type SupplierLabelRequestDto,
} from '@ringfence/contracts';
import { type RingfenceConfig, newEventId } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { RateLimits } from '../rate-limit/rate-limits.service';

/** decisions §8: ISO 8601 UTC with milliseconds and `Z` (what `Date#toISOString` writes). */
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
 * The label routes: each is one request to the labelling service. A label POST of an account
 * over its rate limit is still applied and then answered 429 (decisions §1: valid data is
 * accepted); a GET over the limit is answered 429 without asking.
 */
@Injectable()
export class LabelsUseCase {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
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
    const { eventTime } = await this.bus.request(
      RpcTopics.applyLabel,
      this.envelope(principal, subjectId, traceId, { ...body, subjectKind, subjectId }),
      { timeoutMs: this.config.requestTimeoutMs },
    );
    if (retryAfterSeconds !== null) {
      throw this.limits.accountLimited(retryAfterSeconds, 'the label was applied');
    }
    return { eventTime: isoTime(eventTime) };
  }

  /**
   * decisions §4: a connect `review` sets the customer's PAYMENT_FRAUD label exactly as the label
   * endpoint does (same service, same rules, same audit log). The connect request was already
   * counted against the account's limit.
   */
  async applyConnectReview(principal: Principal, customerId: string, review: ConnectReviewDto, traceId: string): Promise<void> {
    await this.bus.request(
      RpcTopics.applyLabel,
      this.envelope(principal, customerId, traceId, {
        subjectKind: 'customer' as const,
        subjectId: customerId,
        category: 'PAYMENT_FRAUD' as const,
        review: review.label,
        ...(review.reviewer ? { reviewer: review.reviewer } : {}),
        ...(review.comment !== undefined ? { comment: review.comment } : {}),
      }),
      { timeoutMs: this.config.requestTimeoutMs },
    );
  }

  async read(principal: Principal, subjectKind: LabelSubjectKind, subjectId: string, traceId: string): Promise<{ status: number; timestamp: number; data: LabelsView }> {
    await this.limits.refuseWhenAccountLimited(principal);
    const reply: ReadLabelsReply = await this.bus.request(
      RpcTopics.readLabels,
      this.envelope(principal, subjectId, traceId, { subjectKind, subjectId }),
      { timeoutMs: this.config.requestTimeoutMs },
    );
    const labels = Object.fromEntries(Object.entries(reply.labels).map(([category, label]) => [category, withIsoTime(label)]));
    return { status: 200, timestamp: Date.now(), data: { labels, history: reply.history.map(withIsoTime) } };
  }

  private envelope<T extends Pick<ApplyLabelRequest, 'subjectKind' | 'subjectId'>>(principal: Principal, subjectId: string, traceId: string, payload: T): MessageEnvelope<T> {
    return {
      eventId: newEventId(),
      accountId: principal.account.id,
      environment: principal.environment,
      subjectId,
      acceptedAt: Date.now(),
      traceId,
      payload,
    };
  }
}
