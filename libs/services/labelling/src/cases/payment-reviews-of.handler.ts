import { Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController } from '@ringfence/bus';
import { type MessageEnvelope, PaymentReviewsOfRequest, type PaymentReviewsOfReply, RpcTopics } from '@ringfence/contracts';
import { CASE_REPOSITORY, type CaseRepository } from '@ringfence/labels';
import { validatedRequestHandler } from '@ringfence/service-runtime';

/**
 * Answers `ringfence.rpc.labelling.payment-reviews-of.v1`: the current (not withdrawn) review of
 * each named payment, which the labelling policy reads as what happened to it when scoring trains
 * or backtests (ADR-0012), and a customer's evidence shows. A review is stored by the request that makes it, before that request is
 * answered (`cases.handler.ts`), not by a consumer: a review answered 2xx is in the next answer
 * here without a read barrier.
 */
@MessageBusController()
export class PaymentReviewsOfHandler {
  private readonly validated = validatedRequestHandler(PaymentReviewsOfRequest, (valid) => this.reviewsOf(valid));

  constructor(@Inject(CASE_REPOSITORY) private readonly cases: CaseRepository) {}

  @MessagePattern(RpcTopics.readPaymentReviewsOf, { group: 'labelling' })
  answer(@Payload() message: MessageEnvelope<unknown>): Promise<PaymentReviewsOfReply> {
    return this.validated(message);
  }

  async reviewsOf({ accountId, environment, payload }: MessageEnvelope<PaymentReviewsOfRequest>): Promise<PaymentReviewsOfReply> {
    const current = new Map((await this.cases.currentPaymentReviews({ accountId, environment }, payload.transactionIds)).map((review) => [review.transactionId, review]));
    return {
      reviews: payload.transactionIds.map((transactionId) => {
        const review = current.get(transactionId);
        return review === undefined ? null : { decision: review.decision, actor: review.actor, at: review.at, comment: review.comment };
      }),
    };
  }
}
