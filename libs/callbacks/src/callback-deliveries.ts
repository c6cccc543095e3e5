import type { LabelUpdatedEvent, PaymentReviewedEvent } from '@ringfence/contracts';
import { prefixedId } from '@ringfence/platform';
import type { CallbackDelivery, CallbackDeliveryPage, CallbackDeliveryRepository, CallbackTenant } from './callback-delivery';
import type { CallbackTargets } from './callback-targets';
import { labelChangedCallback } from './label-changed-callback';
import { paymentReviewedCallback } from './payment-reviewed-callback';
import { type CallbackRetryPolicy, DEFAULT_CALLBACK_RETRY_POLICY } from './retry-schedule';

/** What became of a label event: a delivery recorded, or why none was. */
export type LabelChangeRecording = 'recorded' | 'duplicate' | 'no-callback-url' | 'expired';

export interface CallbackDeliveriesOptions {
  retry?: CallbackRetryPolicy;
  now?: () => number;
}

/**
 * The review-callback use cases: turn a label event into a pending delivery for an account
 * that has a callback URL, and list an account's deliveries. Sending is the dispatcher's.
 */
export class CallbackDeliveries {
  private readonly retry: CallbackRetryPolicy;
  private readonly now: () => number;

  constructor(
    /** Only recording and listing: the labelling service records through its writer behind the consumer (ADR-0016). */
    private readonly deliveries: Pick<CallbackDeliveryRepository, 'record' | 'list'>,
    private readonly targets: CallbackTargets,
    options: CallbackDeliveriesOptions = {},
  ) {
    this.retry = options.retry ?? DEFAULT_CALLBACK_RETRY_POLICY;
    this.now = options.now ?? Date.now;
  }

  /**
   * Records the delivery of one label event (`eventId` is its envelope's), due at once. The
   * URL is the account's at this moment. An event whose retry window is already over (a
   * consumer that starts on old history) is not recorded: every attempt would be too late.
   */
  recordLabelChange(eventId: string, event: LabelUpdatedEvent): Promise<LabelChangeRecording> {
    return this.recordChange(eventId, event, event.eventTime, labelChangedCallback(event));
  }

  /** The same for a payment review (`payment.reviewed`), keyed by its event id too. */
  recordPaymentReview(eventId: string, event: PaymentReviewedEvent): Promise<LabelChangeRecording> {
    return this.recordChange(eventId, event, event.at, paymentReviewedCallback(event));
  }

  private async recordChange(eventId: string, tenant: CallbackTenant, changedAt: number, body: object): Promise<LabelChangeRecording> {
    const url = await this.targets.urlOf(tenant);
    if (!url) return 'no-callback-url';
    const now = this.now();
    if (now >= changedAt + this.retry.windowMs) return 'expired';
    const recorded = await this.deliveries.record({
      deliveryId: prefixedId('dlv', 20),
      accountId: tenant.accountId,
      environment: tenant.environment,
      sourceEventId: eventId,
      url,
      body: JSON.stringify(body),
      changedAt,
      createdAt: now,
    });
    return recorded ? 'recorded' : 'duplicate';
  }

  /** The tenant's deliveries, newest first; null when `before` names none of them. */
  list(tenant: CallbackTenant, page: CallbackDeliveryPage): Promise<CallbackDelivery[] | null> {
    return this.deliveries.list(tenant, page);
  }
}
