import type { Environment, PaymentReviewDecision, PaymentReviewedEvent } from '@ringfence/contracts';

/** The body of a payment review's callback (issue 37), in the order it is written. */
export interface PaymentReviewedCallback {
  event: 'payment.reviewed';
  accountId: string;
  environment: Environment;
  transactionId: string;
  customerId: string | null;
  decision: PaymentReviewDecision;
  /** true: the review `decision` was withdrawn (an undo). */
  withdrawn: boolean;
  /** Who acted: the person's e-mail, or `key <keyId>` for an integration. */
  actor: string;
  comment: string | null;
  /** When it was recorded: ISO 8601 UTC with milliseconds and `Z`, as `label.changed` writes `eventTime`. */
  at: string;
}

/** The callback body of one payment review event (`ringfence.label.payment.reviewed.v1`). */
export function paymentReviewedCallback(event: PaymentReviewedEvent): PaymentReviewedCallback {
  return {
    event: 'payment.reviewed',
    accountId: event.accountId,
    environment: event.environment,
    transactionId: event.transactionId,
    customerId: event.customerId ?? null,
    decision: event.decision,
    withdrawn: event.withdrawn,
    actor: event.actor,
    comment: event.comment ?? null,
    at: new Date(event.at).toISOString(),
  };
}
