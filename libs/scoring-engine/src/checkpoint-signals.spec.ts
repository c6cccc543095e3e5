import { FAST_GROWING_NETWORK_PER_HOUR, SHARED_DEVICE_CUSTOMERS, networkSignals, payoutSignals, refundSignals, registrationSignals, transactionSignals } from './checkpoint-signals';

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

describe('networkSignals', () => {
  const quiet = { maxOtherCustomers: { device: 0, card: 0, email: 0, phone: 0 }, networkGrowthRate: 0 };

  it('gives nothing without a graph answer or for a customer who shares nothing', () => {
    expect(networkSignals(null)).toEqual([]);
    expect(networkSignals(quiet)).toEqual([]);
  });

  it('scores shared cards, e-mails and phones, a device beyond a household, and fast growth', () => {
    const busy = { maxOtherCustomers: { device: SHARED_DEVICE_CUSTOMERS, card: 1, email: 2, phone: 1 }, networkGrowthRate: FAST_GROWING_NETWORK_PER_HOUR };
    expect(networkSignals(busy).map((signal) => signal.feature)).toEqual([
      'network.sharedCard',
      'network.sharedEmail',
      'network.sharedPhone',
      'network.sharedDevice',
      'network.growthRate',
    ]);
    expect(networkSignals({ ...quiet, maxOtherCustomers: { ...quiet.maxOtherCustomers, device: SHARED_DEVICE_CUSTOMERS - 1 } })).toEqual([]);
  });
});
