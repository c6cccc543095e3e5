import type { CurrentPaymentReview, EvidenceDecisionMessage } from '@ringfence/contracts';
import { customerEvidence } from './customer-evidence';

let sequence = 0;
function decision(payload: Record<string, unknown>, overrides: Partial<EvidenceDecisionMessage> = {}): EvidenceDecisionMessage {
  sequence += 1;
  return { scoreId: `scr_${sequence}`, checkpoint: 'pspBeforeAuth', timestamp: 1_763_800_000_000 - sequence * 1000, action: 'ALLOW', score: 10, payload, ...overrides };
}

const payment = (transactionId: string, transaction: Record<string, unknown> = {}) => ({
  customer: { customerId: 'ada' },
  transaction: { transactionId, amount: 1000, currency: 'EUR', ...transaction },
});

const evidence = (decisions: EvidenceDecisionMessage[], reviews = new Map<string, CurrentPaymentReview>()) =>
  customerEvidence({ customerId: 'ada', customer: null, decisions, transactions: new Map(), disputes: new Map(), reviews });

describe(customerEvidence.name, () => {
  it('keeps one payment per transaction with its newest decision, filling what only an older one carried', () => {
    const after = decision({ ...payment('tx-1', { success: true }) }, { checkpoint: 'pspAfterAuth', score: 20 });
    const before = decision({ ...payment('tx-1'), paymentMethod: { iin: '411111', lastFour: '1111' } }, { cardCountry: 'FRA' });

    const { payments } = evidence([after, before]);

    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ transactionId: 'tx-1', success: true, decision: { scoreId: after.scoreId, checkpoint: 'pspAfterAuth', score: 20 } });
  });

  it("gives each payment its analyst's current review, and null to one without", () => {
    const review: CurrentPaymentReview = { decision: 'fraud', actor: 'ana@shop.example', at: 1_763_800_500_000, comment: 'stolen card' };

    const { payments } = evidence([decision(payment('tx-1')), decision(payment('tx-2'))], new Map([['tx-2', review]]));

    expect(payments.map(({ transactionId, review: current }) => ({ transactionId, review: current }))).toEqual([
      { transactionId: 'tx-1', review: null },
      { transactionId: 'tx-2', review },
    ]);
  });

  it('totals the successful payments per currency, in minor units, leaving declined ones out', () => {
    const { spend } = evidence([
      decision(payment('tx-1', { amount: 1999 })),
      decision(payment('tx-2', { amount: 1, currency: 'GBP' })),
      decision(payment('tx-3', { amount: 500 })),
      decision(payment('tx-4', { amount: 700, success: false })),
    ]);

    expect(spend).toEqual({ EUR: { total: 2499, count: 2 }, GBP: { total: 1, count: 1 } });
  });

  it('keeps a currency named like an object member as data', () => {
    const { spend } = evidence([decision(payment('tx-1', { currency: '__proto__' }))]);
    expect(Object.keys(spend)).toEqual(['__proto__']);
  });

  it('reads the card from either payment-method shape and the countries the features read', () => {
    const { payments, ips } = evidence([
      decision({ ...payment('tx-1'), paymentMethod: { cardBin: '555555', cardLastFour: '4444', instrumentId: 'ins-1' }, device: { deviceId: 'dev-1', ipAddress: '203.0.113.7' } }, { cardCountry: 'DEU', ipCountry: 'NLD' }),
    ]);

    expect(payments[0].card).toEqual({ bin: '555555', last4: '4444', country: 'DEU', instrumentId: 'ins-1' });
    expect(payments[0].ip).toEqual({ address: '203.0.113.7', country: 'NLD' });
    expect(ips).toEqual([{ address: '203.0.113.7', country: 'NLD', firstSeen: expect.any(Number), lastSeen: expect.any(Number), count: 1 }]);
  });

  it('counts the devices seen over every decision, newest first', () => {
    const { devices } = evidence([decision({ customer: { customerId: 'ada' }, device: { deviceId: 'dev-2' } }), decision({ customer: { customerId: 'ada' }, deviceId: 'dev-1' }), decision({ customer: { customerId: 'ada' }, device: { deviceId: 'dev-2' } })]);

    expect(devices.map(({ deviceId, count }) => ({ deviceId, count }))).toEqual([
      { deviceId: 'dev-2', count: 2 },
      { deviceId: 'dev-1', count: 1 },
    ]);
  });
});
