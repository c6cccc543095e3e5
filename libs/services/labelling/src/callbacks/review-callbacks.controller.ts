import { Inject } from '@nestjs/common';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { type EventPatternExtras, MessageBusContext, MessageBusController, type MessagePatternExtras } from '@ringfence/bus';
import type { CallbackDelivery } from '@ringfence/callbacks';
import {
  type CallbackDeliveryMessage,
  EventTopics,
  LabelUpdatedEvent,
  PaymentReviewedEvent,
  type MessageEnvelope,
  ReadCallbackDeliveriesRequest,
  type ReadCallbackDeliveriesReply,
  RpcTopics,
  StateGroups,
} from '@ringfence/contracts';
import { AppError, type Logger } from '@ringfence/platform';
import { ROOT_LOGGER, validatedEventHandler, validatedRequestHandler } from '@ringfence/service-runtime';
import { ReviewCallbacks } from './review-callbacks.service';

const CALLBACKS: EventPatternExtras = { group: StateGroups.callbacks.group };
// A read right after a label change sees its delivery: the bus answers once the callbacks
// group has handled the account's label events published before the request.
const DELIVERIES_READ: MessagePatternExtras = { group: 'labelling', consistentWith: [StateGroups.callbacks] };

function toMessage(delivery: CallbackDelivery): CallbackDeliveryMessage {
  return {
    deliveryId: delivery.deliveryId,
    event: JSON.parse(delivery.body) as Record<string, unknown>,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.nextAttemptAt,
    createdAt: delivery.createdAt,
  };
}

/**
 * Review callbacks (ADR-0013) on the bus. Consumes the label topics in the group
 * `callbacks`: each label event of an account with a callback URL becomes a stored delivery,
 * and the handler returns only once it is stored, so the bus commits the offset after the row
 * is in the table (a crash before redelivers, and the same event is recorded once). Sending
 * happens elsewhere, off this handler (`ReviewCallbacks`' dispatcher), so a slow receiver never
 * holds the consumer, let alone the label request. Answers the deliveries read in the
 * responder group `labelling`.
 */
@MessageBusController()
export class ReviewCallbacksController {
  constructor(
    private readonly callbacks: ReviewCallbacks,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern([EventTopics.customerLabelUpdated, EventTopics.supplierLabelUpdated], CALLBACKS)
  recordLabelChange(@Payload() message: MessageEnvelope<unknown>, @Ctx() context: MessageBusContext): Promise<void> {
    return validatedEventHandler(context.getTopic(), LabelUpdatedEvent, this.logger, async ({ eventId, payload }) => {
      await this.callbacks.recordLabelChange(eventId, payload);
    })(message);
  }

  /** A payment review (issue 37) is delivered as `payment.reviewed`, in the same group, by the same dispatcher. */
  @EventPattern(EventTopics.paymentReviewed, CALLBACKS)
  recordPaymentReview(@Payload() message: MessageEnvelope<unknown>, @Ctx() context: MessageBusContext): Promise<void> {
    return validatedEventHandler(context.getTopic(), PaymentReviewedEvent, this.logger, async ({ eventId, payload }) => {
      await this.callbacks.recordPaymentReview(eventId, payload);
    })(message);
  }

  @MessagePattern(RpcTopics.readCallbackDeliveries, DELIVERIES_READ)
  readDeliveries(@Payload() message: MessageEnvelope<unknown>): Promise<ReadCallbackDeliveriesReply> {
    return validatedRequestHandler(ReadCallbackDeliveriesRequest, (valid) => this.read(valid))(message);
  }

  private async read({ accountId, environment, payload }: MessageEnvelope<ReadCallbackDeliveriesRequest>): Promise<ReadCallbackDeliveriesReply> {
    const deliveries = await this.callbacks.list({ accountId, environment }, { limit: payload.limit, before: payload.before });
    if (deliveries === null) throw new AppError('VALIDATION_FAILED', 'before: names no delivery of this data set');
    return { deliveries: deliveries.map(toMessage) };
  }
}
