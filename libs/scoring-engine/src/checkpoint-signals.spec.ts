import { FAST_GROWING_NETWORK_PER_HOUR, SHARED_DEVICE_CUSTOMERS, networkSignals, payoutSignals, refundSignals, registrationSignals, transactionSignals } from './checkpoint-signals';

const features = (signals: Array<{ feature: string }>) => signals.map((signal) => signal.feature);

describe('checkpoint signals', () => {
  it('counts failed card checks unless 3-D Secure shifted the liability', () => {
    const transaction = { transactionId: 't', cvvResultCode: 'NO_MATCH', avsResultCode: { postalCode: 'NO_MATCH', street: 'STRONG_MATCH' } };
    expect(features(transactionSignals({ transaction }))).toEqual(['cvvResultCode', 'avsResultCode.postalCode']);
    expect(transactionSignals({ transaction, threeds: { liabilityShifted: true } })).toEqual([]);
    expect(features(transactionSignals({ transaction: { declineCode: 'LOST_OR_STOLEN', amount: 250_000, currency: 'GBP' } }))).toEqual(['declineCode', 'amount']);
    expect(transactionSignals({ transaction: { cvvResultCode: 'PASS' } })).toEqual([]);
  });

  it('judges a transaction amount in its own currency, minor units per ISO 4217', () => {
    const large = (amount: number, currency?: string) => features(transactionSignals({ transaction: { amount, currency } })).includes('amount');
    // 1,000.00 GBP is large; 100,000 yen (no minor unit, about 650 US dollars) is not; 150,000 yen is.
    expect(large(100_000, 'GBP')).toBe(true);
    expect(large(99_999, 'GBP')).toBe(false);
    expect(large(100_000, 'JPY')).toBe(false);
    expect(large(150_000, 'jpy')).toBe(true);
    // Kuwaiti dinars have three decimals: 100,000 minor units are 100 KWD, 300,000 are 300 KWD.
    expect(large(100_000, 'KWD')).toBe(false);
    expect(large(300_000, 'KWD')).toBe(true);
    // Without a currency, or in one without a threshold, the amount is not judged.
    expect(large(10_000_000)).toBe(false);
    expect(large(10_000_000, 'XAU')).toBe(false);
  });

  it('flags refunds of more than, or nearly all of, the order', () => {
    expect(features(refundSignals({ refund: { amount: 1200 }, order: { price: 1000 } }))).toEqual(['refundExceedsOrder']);
    expect(features(refundSignals({ refund: { amount: 950 }, order: { price: 1000 } }))).toEqual(['refundNearlyWholeOrder']);
    expect(refundSignals({ refund: { amount: 100 }, order: { price: 1000 } })).toEqual([]);
    expect(refundSignals({ refund: {}, order: { price: 0 } })).toEqual([]);
  });

  it('compares a refund with its order only within one currency', () => {
    expect(features(refundSignals({ refund: { amount: 1200, currency: 'EUR' }, order: { price: 1000, currency: 'eur' } }))).toEqual(['refundExceedsOrder']);
    // A refund without a currency is read in its order's, and the reverse.
    expect(features(refundSignals({ refund: { amount: 1200 }, order: { price: 1000, currency: 'EUR' } }))).toEqual(['refundExceedsOrder']);
    expect(features(refundSignals({ refund: { amount: 1200, currency: 'EUR' }, order: { price: 1000 } }))).toEqual(['refundExceedsOrder']);
    // 1,200 yen are not more than 10.00 pounds: different currencies are not compared.
    expect(refundSignals({ refund: { amount: 1200, currency: 'JPY' }, order: { price: 1000, currency: 'GBP' } })).toEqual([]);
  });

  it('flags payouts to nowhere, to unverified suppliers and large ones', () => {
    expect(features(payoutSignals({ supplier: { identityVerified: false }, payout: { earnings: { totalNetAmount: 600_000, currency: 'USD' } } }))).toEqual([
      'noPaymentMethod',
      'identityNotVerified',
      'largePayout',
    ]);
    expect(payoutSignals({ supplier: {}, payout: {}, paymentMethod: { methodType: 'card' } })).toEqual([]);
  });

  it('judges a payout in its own currency: five times a large transaction', () => {
    const large = (totalNetAmount: number, currency?: string) =>
      features(payoutSignals({ supplier: {}, paymentMethod: { methodType: 'card' }, payout: { earnings: { totalNetAmount, currency } } })).includes('largePayout');
    expect(large(500_000, 'GBP')).toBe(true);
    expect(large(499_999, 'GBP')).toBe(false);
    expect(large(600_000, 'JPY')).toBe(false);
    expect(large(750_000, 'JPY')).toBe(true);
    expect(large(50_000_000)).toBe(false);
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
