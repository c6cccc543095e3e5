import { payoutSignals, refundSignals, registrationSignals, transactionSignals } from './checkpoint-signals';

const features = (signals: Array<{ feature: string }>) => signals.map((signal) => signal.feature);

describe('checkpoint signals', () => {
  it('counts failed card checks unless 3-D Secure shifted the liability', () => {
    const transaction = { transactionId: 't', cvvResultCode: 'NO_MATCH', avsResultCode: { postalCode: 'NO_MATCH', street: 'STRONG_MATCH' } };
    expect(features(transactionSignals({ transaction }))).toEqual(['cvvResultCode', 'avsResultCode.postalCode']);
    expect(transactionSignals({ transaction, threeds: { liabilityShifted: true } })).toEqual([]);
    expect(features(transactionSignals({ transaction: { declineCode: 'LOST_OR_STOLEN', amount: 250_000 } }))).toEqual(['declineCode', 'amount']);
    expect(transactionSignals({ transaction: { cvvResultCode: 'PASS' } })).toEqual([]);
  });

  it('flags refunds of more than, or nearly all of, the order', () => {
    expect(features(refundSignals({ refund: { amount: 1200 }, order: { price: 1000 } }))).toEqual(['refundExceedsOrder']);
    expect(features(refundSignals({ refund: { amount: 950 }, order: { price: 1000 } }))).toEqual(['refundNearlyWholeOrder']);
    expect(refundSignals({ refund: { amount: 100 }, order: { price: 1000 } })).toEqual([]);
    expect(refundSignals({ refund: {}, order: { price: 0 } })).toEqual([]);
  });

  it('flags payouts to nowhere, to unverified suppliers and large ones', () => {
    expect(features(payoutSignals({ supplier: { identityVerified: false }, payout: { earnings: { totalNetAmount: 600_000 } } }))).toEqual([
      'noPaymentMethod',
      'identityNotVerified',
      'largePayout',
    ]);
    expect(payoutSignals({ supplier: {}, payout: {}, paymentMethod: { methodType: 'card' } })).toEqual([]);
  });

  it('flags failed registrations and breached credentials', () => {
    const registration = { success: false, registrationMechanism: { password: { failureReason: 'PASSWORD_TOO_SIMPLE' } } };
    expect(features(registrationSignals({ registration }, true))).toEqual(['registrationFailed', 'passwordTooSimple', 'breachedCredentials']);
    expect(registrationSignals({ registration: { success: true } }, false)).toEqual([]);
  });
});
