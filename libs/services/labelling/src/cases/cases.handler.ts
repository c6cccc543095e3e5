import { Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { type EventPatternExtras, type MessageBus, MessageBusController, type MessagePatternExtras } from '@ringfence/bus';
import {
  type BulkCasesReply,
  BulkCasesRequest,
  type CaseActionReply,
  CaseActionRequest,
  type CheckpointScoredEvent,
  EventTopics,
  type ListCasesReply,
  ListCasesRequest,
  type MessageEnvelope,
  type NextCaseReply,
  NextCaseRequest,
  type PaymentReviewMessage,
  type ReadCaseReply,
  ReadCaseRequest,
  ReviewPaymentRequest,
  RpcTopics,
  StateGroups,
  WithdrawPaymentReviewRequest,
} from '@ringfence/contracts';
import { CASE_REPOSITORY, type CaseRepository, type CaseTenant, Cases, type PaymentReview } from '@ringfence/labels';
import { type Logger, newEventId } from '@ringfence/platform';
import { MESSAGE_BUS, ROOT_LOGGER, validatedRequestHandler } from '@ringfence/service-runtime';

const CASES_GROUP: EventPatternExtras = { group: StateGroups.cases.group };
// Every case read and action waits until the cases group has handled the decisions the account
// was answered before the request: a checkpoint answered REVIEW is in the very next list.
const CASE_READ: MessagePatternExtras = { group: 'labelling', consistentWith: [StateGroups.cases] };

const tenantOf = ({ accountId, environment }: MessageEnvelope<unknown>): CaseTenant => ({ accountId, environment });

/**
 * Cases (ADR-0017), the labelling service's: consumes every decision topic in the group `cases`
 * (a REVIEW about a customer or supplier opens or joins its case, written before the handler
 * returns, so the offset moves only after it), and answers the case and payment-review requests.
 * A payment review is stored, then published on `ringfence.label.payment.reviewed.v1` (the
 * warehouse feed; the review callbacks deliver it as `payment.reviewed`).
 */
@MessageBusController()
export class CasesHandler {
  private readonly cases: Cases;
  private readonly validatedList = validatedRequestHandler(ListCasesRequest, (valid) => this.cases.list(tenantOf(valid), valid.payload));
  private readonly validatedRead = validatedRequestHandler(ReadCaseRequest, (valid) => this.cases.read(tenantOf(valid), valid.payload.caseId));
  private readonly validatedAction = validatedRequestHandler(CaseActionRequest, (valid) => this.cases.act(tenantOf(valid), valid.payload));
  private readonly validatedNext = validatedRequestHandler(NextCaseRequest, async (valid) => ({ case: await this.cases.next(tenantOf(valid), valid.payload) }));
  private readonly validatedBulk = validatedRequestHandler(BulkCasesRequest, (valid) => this.cases.bulk(tenantOf(valid), valid.payload));
  private readonly validatedReview = validatedRequestHandler(ReviewPaymentRequest, (valid) => this.reviewPayment(valid));
  private readonly validatedWithdraw = validatedRequestHandler(WithdrawPaymentReviewRequest, (valid) => this.withdrawPaymentReview(valid));

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(CASE_REPOSITORY) repository: CaseRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.cases = new Cases(repository);
  }

  @EventPattern([...StateGroups.cases.topics], CASES_GROUP)
  async recordDecision(@Payload() message: MessageEnvelope<unknown>): Promise<void> {
    // Decision events are scoring's replies as the gateway published them (not validated again,
    // as scoring's own records do not): only the fields a case reads are checked.
    const event = message.payload as CheckpointScoredEvent | null;
    if (typeof event !== 'object' || event === null || typeof event.timestamp !== 'number' || typeof event.checkpoint !== 'string') {
      this.logger.warn({ eventId: message.eventId, traceId: message.traceId }, 'cases skipped a decision event without checkpoint or timestamp');
      return;
    }
    await this.cases.addDecision(tenantOf(message), message.eventId, event);
  }

  @MessagePattern(RpcTopics.listCases, CASE_READ)
  list(@Payload() message: MessageEnvelope<unknown>): Promise<ListCasesReply> {
    return this.validatedList(message);
  }

  @MessagePattern(RpcTopics.readCase, CASE_READ)
  read(@Payload() message: MessageEnvelope<unknown>): Promise<ReadCaseReply> {
    return this.validatedRead(message);
  }

  @MessagePattern(RpcTopics.caseAction, CASE_READ)
  act(@Payload() message: MessageEnvelope<unknown>): Promise<CaseActionReply> {
    return this.validatedAction(message);
  }

  @MessagePattern(RpcTopics.nextCase, CASE_READ)
  next(@Payload() message: MessageEnvelope<unknown>): Promise<NextCaseReply> {
    return this.validatedNext(message);
  }

  @MessagePattern(RpcTopics.bulkCases, CASE_READ)
  bulk(@Payload() message: MessageEnvelope<unknown>): Promise<BulkCasesReply> {
    return this.validatedBulk(message);
  }

  @MessagePattern(RpcTopics.reviewPayment, CASE_READ)
  review(@Payload() message: MessageEnvelope<unknown>): Promise<PaymentReviewMessage> {
    return this.validatedReview(message);
  }

  @MessagePattern(RpcTopics.withdrawPaymentReview, CASE_READ)
  withdraw(@Payload() message: MessageEnvelope<unknown>): Promise<PaymentReviewMessage> {
    return this.validatedWithdraw(message);
  }

  private async reviewPayment(message: MessageEnvelope<ReviewPaymentRequest>): Promise<PaymentReviewMessage> {
    const review = await this.cases.reviewPayment(tenantOf(message), message.payload);
    await this.publish(message, review, false);
    return review;
  }

  private async withdrawPaymentReview(message: MessageEnvelope<WithdrawPaymentReviewRequest>): Promise<PaymentReviewMessage> {
    const withdrawn = await this.cases.withdrawPaymentReview(tenantOf(message), message.payload.transactionId, message.payload.actor);
    await this.publish(message, { ...withdrawn, actor: message.payload.actor.email, at: withdrawn.withdrawnAt ?? Date.now(), comment: null }, true);
    return withdrawn;
  }

  /** Stored first, published second (as labels are): a failed publish fails the request, and its retry records again. */
  private async publish(message: MessageEnvelope<unknown>, review: PaymentReview, withdrawn: boolean): Promise<void> {
    const { accountId, environment } = message;
    await this.bus.publish(EventTopics.paymentReviewed, {
      ...message,
      eventId: newEventId(),
      acceptedAt: Date.now(),
      subjectId: review.customerId ?? review.transactionId,
      payload: {
        accountId,
        environment,
        transactionId: review.transactionId,
        customerId: review.customerId,
        decision: review.decision,
        withdrawn,
        actor: review.actor,
        comment: review.comment,
        at: review.at,
      },
    });
  }
}
