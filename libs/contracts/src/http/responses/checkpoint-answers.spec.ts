import { CHECKPOINT_ANSWERS, type ScoredAnswerParts, type UnscoredDecision } from './checkpoint-answers';

const warning = { class: 'customer-not-found', help: '/docs/api#warning-customer-not-found', msg: 'No customer with id cus-1 is known to this account.' };
const degraded = { class: 'degraded', help: '/docs/api#warning-degraded', msg: 'The data was kept, but scoring did not answer within 10 ms; this answer is not based on it.' };

function scoredParts(overrides: Partial<ScoredAnswerParts> = {}): ScoredAnswerParts {
  return {
    decision: { action: 'REVIEW', source: 'RINGFENCE', score: 42 },
    scoreId: 'scr_1',
    warnings: [warning],
    rules: { passiveAction: 'PREVENT', triggered: [] },
    transactionOptimisation: null,
    ...overrides,
  };
}

const unscored = (overrides: Partial<UnscoredDecision> = {}): UnscoredDecision => ({ action: 'ALLOW', source: 'RINGFENCE', score: 0, warnings: [degraded], ...overrides });

// The answers are compared as JSON text: clients see the key order too.
const text = (answer: object) => JSON.stringify(answer);

describe('CHECKPOINT_ANSWERS', () => {
  const customerPayload = { customer: { customerId: 'cus-1' } };

  it('answers a scored customer checkpoint with its not-found warnings and rules', () => {
    expect(text(CHECKPOINT_ANSWERS.customer.scored(customerPayload, scoredParts()))).toBe(
      text({ action: 'REVIEW', score: 42, source: 'RINGFENCE', customerId: 'cus-1', scoreId: 'scr_1', warnings: [warning], rules: { passiveAction: 'PREVENT', triggered: [] } }),
    );
  });

  it('answers an unscored customer or voucher-redemption checkpoint with its warnings and a rules block with none triggered', () => {
    const expected = text({ action: 'ALLOW', source: 'RINGFENCE', score: 0, warnings: [degraded], customerId: 'cus-1', scoreId: 'scr_2', rules: { triggered: [] } });
    expect(text(CHECKPOINT_ANSWERS.customer.unscored(customerPayload, unscored(), 'scr_2'))).toBe(expected);
    expect(text(CHECKPOINT_ANSWERS.voucherRedemption.unscored({ customerId: 'cus-1' }, unscored(), 'scr_2'))).toBe(expected);
  });

  it('names the redeeming customer of a voucher redemption, sent by id or as a customer', () => {
    expect(CHECKPOINT_ANSWERS.voucherRedemption.scored({ customer: { customerId: 'cus-9' } } as never, scoredParts()).customerId).toBe('cus-9');
  });

  it('leaves the not-found warnings off the answers that do not list warnings', () => {
    const payout = CHECKPOINT_ANSWERS.payout.scored({ supplier: { supplierId: 'sup-1' }, payout: { payoutId: 'po-1' } }, scoredParts());
    expect(text(payout)).toBe(
      text({ supplierId: 'sup-1', payoutId: 'po-1', action: 'REVIEW', source: 'RINGFENCE', score: 42, scoreId: 'scr_1', rules: { passiveAction: 'PREVENT', triggered: [] } }),
    );
  });

  it('answers the other checkpoints unscored in their scored shape, no rules triggered, a warning last only when there is one', () => {
    const refund = { customer: { customerId: 'cus-1' } };
    expect(text(CHECKPOINT_ANSWERS.refund.unscored(refund, unscored(), 'scr_2'))).toBe(
      text({ customerId: 'cus-1', action: 'ALLOW', source: 'RINGFENCE', score: 0, scoreId: 'scr_2', rules: { triggered: [] }, warnings: [degraded] }),
    );
    expect(text(CHECKPOINT_ANSWERS.refund.unscored(refund, unscored({ source: 'RATE_LIMIT', action: 'REVIEW', warnings: [] }), 'scr_3'))).toBe(
      text({ customerId: 'cus-1', action: 'REVIEW', source: 'RATE_LIMIT', score: 0, scoreId: 'scr_3', rules: { triggered: [] } }),
    );
  });

  it('shapes a registration answer around whoever registered', () => {
    const registration = { supplier: { supplierId: 'sup-1' }, registrationId: 'reg_1' };
    expect(text(CHECKPOINT_ANSWERS.registration.unscored(registration, unscored(), 'scr_2'))).toBe(
      text({ action: 'ALLOW', source: 'RINGFENCE', score: 0, scoreId: 'scr_2', supplierId: 'sup-1', registrationId: 'reg_1', rules: { triggered: [] }, warnings: [degraded] }),
    );
  });

  it('carries a transaction answer\'s 3-D Secure advice only when there is one', () => {
    const transaction = { transaction: { transactionId: 'tx-1' } };
    const advice = { transactionId: 'tx-1', action: 'AUTHENTICATE', actionSource: 'RINGFENCE', rules: { triggered: [] } } as never;
    expect(text(CHECKPOINT_ANSWERS.transaction.scored(transaction, scoredParts({ transactionOptimisation: advice })))).toBe(
      text({ action: 'REVIEW', source: 'RINGFENCE', rules: { passiveAction: 'PREVENT', triggered: [] }, score: 42, scoreId: 'scr_1', transactionId: 'tx-1', transactionOptimisation: advice }),
    );
    expect(text(CHECKPOINT_ANSWERS.transaction.unscored(transaction, unscored(), 'scr_2'))).toBe(
      text({ action: 'ALLOW', source: 'RINGFENCE', rules: { triggered: [] }, score: 0, scoreId: 'scr_2', transactionId: 'tx-1', warnings: [degraded] }),
    );
  });
});
