import type { CurrentLabelMessage, CurrentPaymentReview, LabelCategory, ModelPositivesByReasonDto, PositiveReason, RuleCheckpoint } from '@ringfence/contracts';

/**
 * What a decision was, as the labels and disputes known now say: the one definition of "fraud"
 * and "genuine" that training (its positives) and rule backtests (their labelled precision and
 * recall) share, per checkpoint. docs/model.md ("Examples" and "Labels") states it for readers.
 *
 * - **Payments** (`pspBeforeAuth`, `pspAfterAuth`): the example is the payment. In this order:
 *   1. THAT transaction was disputed and the dispute is not forgiven: fraud (`disputedPayment`).
 *      The dispute is the card network's own outcome, money taken back; an analyst's word does
 *      not undo it.
 *   2. An analyst's current review of THAT payment: `fraud` is fraud (`analystMarkedFraud`),
 *      `not_fraud` genuine. Someone looked at this very payment, which says more of it than a
 *      label of its customer, so the review comes before the customer's label. `approve` and
 *      `decline` say what the merchant did with the payment, not what it was: no verdict.
 *   3. Its customer was already labelled FRAUDSTER when it was decided: fraud
 *      (`customerLabelledFraudster`). A label that came after the payment does not reach back.
 *   4. Its disputes were all forgiven, or its customer is labelled GENUINE: genuine.
 *   A genuine cardholder whose card was abused once has one positive, the disputed payment, not
 *   every payment before and after it.
 * - **Refunds**: the customer labelled REFUND_ABUSE (`refundAbuse`), or a fraudster (FRAUDSTER,
 *   or a chargeback not forgiven: `customerFraud`). Genuine: NOT_REFUND_ABUSE or GENUINE.
 * - **Other customer checkpoints** (customer, registration, voucher redemption): the example is
 *   the customer. Fraud when labelled FRAUDSTER or with any chargeback not forgiven
 *   (`customerFraud`), whenever it came; genuine when labelled GENUINE.
 * - **Supplier subjects** (payouts, a supplier's registration): labelled FRAUDULENT
 *   (`supplierFraudulent`); genuine when labelled GENUINE.
 *
 * Anything else is unknown: training counts it negative, a backtest counts it neither way.
 */

/** Each positive counted once, under the reason `verdictOf` gave it (the first that holds). */
export type PositivesByReason = ModelPositivesByReasonDto;

export const noPositives = (): PositivesByReason => ({ disputedPayment: 0, analystMarkedFraud: 0, customerLabelledFraudster: 0, customerFraud: 0, supplierFraudulent: 0, refundAbuse: 0 });

/**
 * A decision judged. A disputed payment carries when its first unforgiven dispute arrived (event
 * time, epoch ms): training reads from those how long this account's disputes take to come.
 */
export type DecisionVerdict = { verdict: 'fraud'; reason: PositiveReason; disputedAt?: number } | { verdict: 'genuine' } | { verdict: 'unknown' };

/** What a checkpoint's decisions are judged as. */
export type JudgedUnit = 'payment' | 'refund' | 'customer';

export function judgedUnitOf(checkpoint: RuleCheckpoint): JudgedUnit {
  switch (checkpoint) {
    case 'pspBeforeAuth':
    case 'pspAfterAuth':
      return 'payment';
    case 'refund':
      return 'refund';
    case 'customer':
    case 'registration':
    case 'voucherRedemption':
    case 'payout':
      return 'customer';
  }
}

/** A payment's disputes as its transaction's document holds them (`chargebacks.<disputeId>.forgiven`). */
export type PaymentDisputes = 'none' | 'forgiven' | 'unforgiven';

/** What the owners say now of a decision's subject and, at a payment, of its transaction. */
export interface VerdictFacts {
  subjectKind: 'customer' | 'supplier';
  /** The subject's current labels; `eventTime` is labelling's clock when the review was applied. */
  labels: Partial<Record<LabelCategory, Pick<CurrentLabelMessage, 'review' | 'eventTime'>>>;
  /** A customer subject with a chargeback or dispute not forgiven, on any of its payments (not read at payments). */
  unforgivenChargeback: boolean;
  /** The decided payment's disputes ('none' away from payments). */
  paymentDisputes: PaymentDisputes;
  /** When its first unforgiven dispute arrived (the dispute's own timestamp); undefined without one. */
  paymentDisputedAt?: number;
  /** The decided payment's current (not withdrawn) analyst's review; undefined without one, and away from payments. */
  paymentReview?: Pick<CurrentPaymentReview, 'decision'>;
  /**
   * When the service decided (its clock, epoch ms): labels carry the time labelling applied them,
   * on the same clock, so "labelled before the payment" compares these two. A backfill sends old
   * payments today: their payload time is weeks before any label, which would make every label
   * "after"; the service's clock orders a label between the payments sent before and after it.
   */
  decidedAt: number;
}

export function verdictOf(unit: JudgedUnit, facts: VerdictFacts): DecisionVerdict {
  const reviews = Object.values(facts.labels).map((label) => label?.review);
  if (facts.subjectKind === 'supplier') {
    if (reviews.includes('FRAUDULENT')) return fraud('supplierFraudulent');
    return reviews.includes('GENUINE') ? GENUINE : UNKNOWN;
  }
  const paymentLabel = facts.labels.PAYMENT_FRAUD;
  switch (unit) {
    case 'payment':
      if (facts.paymentDisputes === 'unforgiven') {
        return facts.paymentDisputedAt === undefined ? fraud('disputedPayment') : { verdict: 'fraud', reason: 'disputedPayment', disputedAt: facts.paymentDisputedAt };
      }
      if (facts.paymentReview?.decision === 'fraud') return fraud('analystMarkedFraud');
      if (facts.paymentReview?.decision === 'not_fraud') return GENUINE;
      if (paymentLabel?.review === 'FRAUDSTER' && paymentLabel.eventTime <= facts.decidedAt) return fraud('customerLabelledFraudster');
      return facts.paymentDisputes === 'forgiven' || paymentLabel?.review === 'GENUINE' ? GENUINE : UNKNOWN;
    case 'refund':
      if (facts.labels.REFUND_ABUSE?.review === 'REFUND_ABUSE') return fraud('refundAbuse');
      if (paymentLabel?.review === 'FRAUDSTER' || facts.unforgivenChargeback) return fraud('customerFraud');
      return reviews.includes('NOT_REFUND_ABUSE') || reviews.includes('GENUINE') ? GENUINE : UNKNOWN;
    case 'customer':
      if (paymentLabel?.review === 'FRAUDSTER' || facts.unforgivenChargeback) return fraud('customerFraud');
      return paymentLabel?.review === 'GENUINE' ? GENUINE : UNKNOWN;
  }
}

const fraud = (reason: PositiveReason): DecisionVerdict => ({ verdict: 'fraud', reason });
const GENUINE: DecisionVerdict = { verdict: 'genuine' };
const UNKNOWN: DecisionVerdict = { verdict: 'unknown' };
