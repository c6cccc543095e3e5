import type { CardCustomer, Terminal } from './card-world';

export const CARD_PAYMENTS_CURRENCY = 'EUR';

export interface CardPayment {
  transactionId: string;
  time: number;
  customer: CardCustomer;
  terminal: Terminal;
  /** Minor units. */
  amount: number;
}

/**
 * A card payment as a PSP sends it before authorisation (`POST /psp/transaction?checkpoint=pspBeforeAuth`):
 * the customer, its card and the terminal (`transaction.mid`), nothing more: what the handbooks'
 * data sets hold.
 */
export function cardPaymentBody(payment: CardPayment): Record<string, unknown> {
  return {
    timestamp: payment.time,
    transaction: {
      transactionId: payment.transactionId,
      type: 'auth',
      stepId: 'auth-1',
      amount: payment.amount,
      currency: CARD_PAYMENTS_CURRENCY,
      mid: payment.terminal.terminalId,
    },
    paymentMethod: { methodType: 'card', instrumentId: payment.customer.instrumentId, lastFour: payment.customer.lastFour },
    customer: { customerId: payment.customer.customerId },
  };
}

/** The cardholder's chargeback of a fraudulent payment (`POST /psp/dispute`), lost by the merchant. */
export function cardDisputeBody(payment: CardPayment, disputeId: string, disputeTime: number): Record<string, unknown> {
  return {
    timestamp: disputeTime,
    dispute: {
      disputeId,
      transactionId: payment.transactionId,
      amount: payment.amount,
      currency: CARD_PAYMENTS_CURRENCY,
      disputeTime,
      stage: 'CHARGEBACK',
      outcome: 'LOST',
      reason: 'fraudulent',
    },
  };
}
