import { featureInputs } from '../test-support/feature-inputs.factory';
import { computeFeatures } from './feature-catalogue';
import type { FeatureInputs } from './feature-definition';
import { localTimeOf } from './local-time';

/** A PSP payment of `amount` (minor units, GBP) with the velocity counters before it. */
const paymentWith = (amount: number | undefined, velocity: Record<string, number | null> | null, overrides: Partial<FeatureInputs> = {}) =>
  computeFeatures(
    featureInputs({
      checkpoint: 'transaction',
      payload: { transaction: { transactionId: 't-1', mid: 'mid-1', ...(amount === undefined ? {} : { amount }), currency: 'GBP' }, paymentMethod: { instrumentId: 'card-1' } },
      velocity,
      ...overrides,
    }),
  );

/** Counters of a payer whose earlier payments were `amounts` (major units), as velocity keeps them. */
const historyOf = (prefix: 'customer' | 'card', window: string, amounts: number[]) => ({
  [`${prefix}TransactionCount${window}`]: amounts.length,
  [`${prefix}TransactionSum${window}`]: amounts.reduce((sum, amount) => sum + amount, 0),
  [`${prefix}TransactionSquareSum${window}`]: amounts.reduce((sum, amount) => sum + amount * amount, 0),
});

describe('features against history', () => {
  it('compares the amount with the card\'s and the customer\'s mean and spread, per window', () => {
    const features = paymentWith(25_000, { ...historyOf('card', '7d', [40, 50, 60]), ...historyOf('customer', '30d', [50, 50]) });
    expect(features.amountToCardMean7d).toBe(5);
    // Mean 50, spread √(200/3) ≈ 8.165: 250 lies 24.49 spreads above.
    expect(features.amountCardZScore7d).toBe(24.49);
    // A flat history (two payments of 50): its spread counts as 1 % of the mean, and the score is bounded.
    expect(features.amountToCustomerMean30d).toBe(5);
    expect(features.amountCustomerZScore30d).toBe(100);
  });

  it('is null where the history or the amount is missing, and no z-score from one earlier payment', () => {
    expect(paymentWith(1_000, historyOf('card', '24h', [10])).amountCardZScore24h).toBeNull();
    expect(paymentWith(1_000, historyOf('card', '24h', [10])).amountToCardMean24h).toBe(1);
    expect(paymentWith(1_000, historyOf('card', '24h', [])).amountToCardMean24h).toBeNull();
    expect(paymentWith(undefined, historyOf('card', '24h', [10, 20])).amountToCardMean24h).toBeNull();
    expect(paymentWith(1_000, null).amountToCustomerMean7d).toBeNull();
  });

  it('compares the amount with the merchant\'s mean payment', () => {
    expect(paymentWith(6_000, { merchantTransactionCount30d: 4, merchantTransactionSum30d: 80 }).amountToMerchantMean30d).toBe(3);
    expect(paymentWith(6_000, { merchantTransactionCount30d: 0, merchantTransactionSum30d: 0 }).amountToMerchantMean30d).toBeNull();
  });

  it('gives the merchant\'s and the card\'s disputed share of payments, null without payments', () => {
    const features = paymentWith(1_000, { merchantDisputeCount7d: 3, merchantTransactionCount7d: 12, cardDisputeCount30d: 1, cardTransactionCount30d: 0 });
    expect(features.merchantDisputeRate7d).toBe(0.25);
    expect(features.cardDisputeRate30d).toBeNull();
    expect(features.merchantDisputeRate24h).toBeNull();
  });

  it('says whether the card paid at this merchant in the last 30 days', () => {
    expect(paymentWith(1_000, { cardMerchantTransactionCount30d: 0 }).cardFirstPaymentAtMerchant).toBe(true);
    expect(paymentWith(1_000, { cardMerchantTransactionCount30d: 2 }).cardFirstPaymentAtMerchant).toBe(false);
    expect(paymentWith(1_000, { cardMerchantTransactionCount30d: null }).cardFirstPaymentAtMerchant).toBeNull();
  });

  it('reads the hour, the night and the weekend on the account\'s clock', () => {
    // Saturday 2026-03-07 03:30 UTC is Friday 22:30 in New York (EST, UTC−5).
    const at = Date.UTC(2026, 2, 7, 3, 30);
    expect(paymentWith(1_000, {}, { eventTimeMs: at })).toMatchObject({ hourOfDay: 3, night: true, weekend: true });
    expect(paymentWith(1_000, {}, { eventTimeMs: at, timeZone: 'America/New_York' })).toMatchObject({ hourOfDay: 22, night: false, weekend: false });
  });
});

describe(localTimeOf.name, () => {
  it('follows daylight saving time, and reads an unknown zone as UTC', () => {
    // 2026-07-01 12:00 UTC: 08:00 in New York (EDT), 13:00 in London (BST), 21:00 in Tokyo.
    const summer = Date.UTC(2026, 6, 1, 12);
    expect(localTimeOf(summer, 'America/New_York').hour).toBe(8);
    expect(localTimeOf(summer, 'Europe/London').hour).toBe(13);
    expect(localTimeOf(summer, 'Asia/Tokyo')).toEqual({ hour: 21, weekday: 3 });
    expect(localTimeOf(summer, 'Not/AZone')).toEqual({ hour: 12, weekday: 3 });
    expect(localTimeOf(summer, undefined)).toEqual({ hour: 12, weekday: 3 });
  });
});
