import { type JudgedUnit, type VerdictFacts, judgedUnitOf, verdictOf } from './labelling-policy';

const DECIDED_AT = 1_766_000_000_000;

/** A customer with no label, no chargeback and an undisputed payment, decided at DECIDED_AT; override what a case needs. */
const facts = (overrides: Partial<VerdictFacts> = {}): VerdictFacts => ({
  subjectKind: 'customer',
  labels: {},
  unforgivenChargeback: false,
  paymentDisputes: 'none',
  decidedAt: DECIDED_AT,
  ...overrides,
});
const fraudster = (eventTime: number) => ({ PAYMENT_FRAUD: { review: 'FRAUDSTER' as const, eventTime } });

describe('labelling policy', () => {
  it('judges the PSP checkpoints by the payment, the refund checkpoint by refund abuse, the others by the customer', () => {
    const units: Record<string, JudgedUnit> = {};
    for (const checkpoint of ['pspBeforeAuth', 'pspAfterAuth', 'refund', 'customer', 'registration', 'voucherRedemption', 'payout'] as const) units[checkpoint] = judgedUnitOf(checkpoint);
    expect(units).toEqual({ pspBeforeAuth: 'payment', pspAfterAuth: 'payment', refund: 'refund', customer: 'customer', registration: 'customer', voucherRedemption: 'customer', payout: 'customer' });
  });

  describe('at a payment', () => {
    it('is fraud when the payment itself was disputed and not forgiven', () => {
      expect(verdictOf('payment', facts({ paymentDisputes: 'unforgiven' }))).toEqual({ verdict: 'fraud', reason: 'disputedPayment' });
    });

    it("is not fraud because the customer's other payment was disputed: a card abused once makes one positive", () => {
      // The customer document's chargeback (carried from the disputed payment) does not decide a payment.
      expect(verdictOf('payment', facts({ unforgivenChargeback: true }))).toEqual({ verdict: 'unknown' });
    });

    it('is genuine when its disputes were all forgiven', () => {
      expect(verdictOf('payment', facts({ paymentDisputes: 'forgiven' }))).toEqual({ verdict: 'genuine' });
    });

    it('is fraud when the customer was labelled FRAUDSTER at or before the decision, not when the label came after', () => {
      expect(verdictOf('payment', facts({ labels: fraudster(DECIDED_AT - 1) }))).toEqual({ verdict: 'fraud', reason: 'customerLabelledFraudster' });
      expect(verdictOf('payment', facts({ labels: fraudster(DECIDED_AT) }))).toEqual({ verdict: 'fraud', reason: 'customerLabelledFraudster' });
      expect(verdictOf('payment', facts({ labels: fraudster(DECIDED_AT + 1) }))).toEqual({ verdict: 'unknown' });
    });

    it('names the dispute first when both hold, and reads a GENUINE customer as genuine', () => {
      expect(verdictOf('payment', facts({ paymentDisputes: 'unforgiven', labels: fraudster(0) }))).toEqual({ verdict: 'fraud', reason: 'disputedPayment' });
      expect(verdictOf('payment', facts({ labels: { PAYMENT_FRAUD: { review: 'GENUINE', eventTime: 0 } } }))).toEqual({ verdict: 'genuine' });
    });
  });

  describe("at a payment an analyst reviewed", () => {
    const review = (decision: 'approve' | 'decline' | 'fraud' | 'not_fraud') => ({ paymentReview: { decision } });

    it('is fraud when the review says fraud, genuine when it says not_fraud', () => {
      expect(verdictOf('payment', facts(review('fraud')))).toEqual({ verdict: 'fraud', reason: 'analystMarkedFraud' });
      expect(verdictOf('payment', facts(review('not_fraud')))).toEqual({ verdict: 'genuine' });
    });

    it('reads approve and decline as what the merchant did, not what the payment was: they change no verdict', () => {
      for (const decision of ['approve', 'decline'] as const) {
        expect(verdictOf('payment', facts(review(decision)))).toEqual({ verdict: 'unknown' });
        expect(verdictOf('payment', facts({ ...review(decision), labels: fraudster(0) }))).toEqual({ verdict: 'fraud', reason: 'customerLabelledFraudster' });
        expect(verdictOf('payment', facts({ ...review(decision), paymentDisputes: 'forgiven' }))).toEqual({ verdict: 'genuine' });
      }
    });

    it("comes after the payment's own unforgiven dispute: not_fraud does not undo a chargeback", () => {
      expect(verdictOf('payment', facts({ ...review('not_fraud'), paymentDisputes: 'unforgiven', paymentDisputedAt: 5 }))).toEqual({ verdict: 'fraud', reason: 'disputedPayment', disputedAt: 5 });
      expect(verdictOf('payment', facts({ ...review('fraud'), paymentDisputes: 'unforgiven' }))).toEqual({ verdict: 'fraud', reason: 'disputedPayment' });
    });

    it("comes before the customer's labels and a forgiven dispute: the review is of this very payment", () => {
      expect(verdictOf('payment', facts({ ...review('not_fraud'), labels: fraudster(0) }))).toEqual({ verdict: 'genuine' });
      expect(verdictOf('payment', facts({ ...review('fraud'), labels: { PAYMENT_FRAUD: { review: 'GENUINE', eventTime: 0 } } }))).toEqual({ verdict: 'fraud', reason: 'analystMarkedFraud' });
      expect(verdictOf('payment', facts({ ...review('fraud'), labels: fraudster(0) }))).toEqual({ verdict: 'fraud', reason: 'analystMarkedFraud' });
      expect(verdictOf('payment', facts({ ...review('fraud'), paymentDisputes: 'forgiven' }))).toEqual({ verdict: 'fraud', reason: 'analystMarkedFraud' });
    });

    it('is read only at payments: a customer, refund or supplier decision ignores it', () => {
      expect(verdictOf('customer', facts(review('fraud')))).toEqual({ verdict: 'unknown' });
      expect(verdictOf('refund', facts(review('fraud')))).toEqual({ verdict: 'unknown' });
      expect(verdictOf('payment', facts({ ...review('fraud'), subjectKind: 'supplier' }))).toEqual({ verdict: 'unknown' });
    });
  });

  describe('at a customer checkpoint', () => {
    it('is fraud for a FRAUDSTER label whenever it came, or any chargeback not forgiven', () => {
      expect(verdictOf('customer', facts({ labels: fraudster(DECIDED_AT + 86_400_000) }))).toEqual({ verdict: 'fraud', reason: 'customerFraud' });
      expect(verdictOf('customer', facts({ unforgivenChargeback: true }))).toEqual({ verdict: 'fraud', reason: 'customerFraud' });
      expect(verdictOf('customer', facts({ labels: { PAYMENT_FRAUD: { review: 'GENUINE', eventTime: 0 } } }))).toEqual({ verdict: 'genuine' });
      expect(verdictOf('customer', facts({ labels: { REFUND_ABUSE: { review: 'REFUND_ABUSE', eventTime: 0 } } }))).toEqual({ verdict: 'unknown' });
    });
  });

  it('at a refund, is fraud for REFUND_ABUSE first, then for a fraudster; NOT_REFUND_ABUSE is genuine', () => {
    expect(verdictOf('refund', facts({ labels: { REFUND_ABUSE: { review: 'REFUND_ABUSE', eventTime: 0 }, ...fraudster(0) } }))).toEqual({ verdict: 'fraud', reason: 'refundAbuse' });
    expect(verdictOf('refund', facts({ unforgivenChargeback: true }))).toEqual({ verdict: 'fraud', reason: 'customerFraud' });
    expect(verdictOf('refund', facts({ labels: { REFUND_ABUSE: { review: 'NOT_REFUND_ABUSE', eventTime: 0 } } }))).toEqual({ verdict: 'genuine' });
  });

  it('judges a supplier by its FRAUDULENT or GENUINE label, at any checkpoint', () => {
    expect(verdictOf('customer', facts({ subjectKind: 'supplier', labels: { SUPPLIER_FRAUD: { review: 'FRAUDULENT', eventTime: 0 } } }))).toEqual({ verdict: 'fraud', reason: 'supplierFraudulent' });
    expect(verdictOf('customer', facts({ subjectKind: 'supplier', labels: { SUPPLIER_FRAUD: { review: 'GENUINE', eventTime: 0 } } }))).toEqual({ verdict: 'genuine' });
    expect(verdictOf('customer', facts({ subjectKind: 'supplier' }))).toEqual({ verdict: 'unknown' });
  });
});
