import { data as ISO_4217 } from 'currency-codes';

/**
 * Amounts travel as integers in the minor units of their currency (cents, pence; yen have none,
 * dinars have three decimals). Comparing two amounts, or an amount with a threshold, is only
 * meaningful within one currency and after taking its minor units into account.
 *
 * Minor units come from ISO 4217 as the `currency-codes` package ships it. There are no exchange
 * rates here: a threshold is set per currency, in major units, in `LARGE_AMOUNT_MAJOR_UNITS`.
 */

/** Decimal places of each active ISO 4217 code (funds, metals and testing codes included). */
const MINOR_UNIT_DIGITS: ReadonlyMap<string, number> = new Map(ISO_4217.map((record) => [record.code, record.digits]));

/**
 * The ISO 4217 minor-unit digits of `currency` (any letter case), or null when it is not an
 * active ISO 4217 code.
 */
export function minorUnitDigits(currency: string): number | null {
  return MINOR_UNIT_DIGITS.get(currency.trim().toUpperCase()) ?? null;
}

/**
 * What counts as a large single transaction, in **major** units per currency: about US$1,000
 * when the table was written, rounded. It is a fixed table, not following exchange rates: the
 * point is "large for most merchants", which rounding and drift do not change. A currency not
 * listed has no large-amount threshold (its amounts add no large-amount points). A payout is
 * large from `LARGE_PAYOUT_FACTOR` times this.
 */
export const LARGE_AMOUNT_MAJOR_UNITS: Readonly<Record<string, number>> = {
  AED: 4_000,
  AUD: 1_500,
  BHD: 400,
  BRL: 5_000,
  CAD: 1_500,
  CHF: 1_000,
  CNY: 7_000,
  CZK: 25_000,
  DKK: 7_000,
  EUR: 1_000,
  GBP: 1_000,
  HKD: 8_000,
  HUF: 400_000,
  IDR: 16_000_000,
  ILS: 4_000,
  INR: 80_000,
  JOD: 700,
  JPY: 150_000,
  KRW: 1_500_000,
  KWD: 300,
  MXN: 20_000,
  MYR: 5_000,
  NOK: 10_000,
  NZD: 1_500,
  OMR: 400,
  PHP: 60_000,
  PLN: 4_000,
  RON: 5_000,
  SAR: 4_000,
  SEK: 10_000,
  SGD: 1_500,
  THB: 35_000,
  TRY: 40_000,
  USD: 1_000,
  ZAR: 20_000,
};

/** A payout is large from this many times a large transaction of its currency. */
export const LARGE_PAYOUT_FACTOR = 5;

/** An amount as sent: integer minor units, and the currency the payload names (if any). */
export interface Money {
  minorUnits: number;
  currency: string | null;
}

/**
 * The large-amount threshold of `currency` in its minor units (major × 10^digits), times
 * `factor`; null when the currency is absent, not ISO 4217, or has no threshold in the table.
 */
export function largeAmountThreshold(currency: string | null, factor = 1): number | null {
  if (currency === null) return null;
  const code = currency.trim().toUpperCase();
  const major = LARGE_AMOUNT_MAJOR_UNITS[code];
  const digits = minorUnitDigits(code);
  if (major === undefined || digits === null) return null;
  return major * factor * 10 ** digits;
}

/** Whether the amount is at least the large-amount threshold of its own currency (times `factor`); false when it has none. */
export function isLargeAmount(money: Money, factor = 1): boolean {
  const threshold = largeAmountThreshold(money.currency, factor);
  return threshold !== null && money.minorUnits >= threshold;
}

/**
 * Whether two amounts can be compared as numbers: both in the same currency, or one of them
 * without a currency (it is then read as the other's, as a refund is of its own order).
 */
export function sameCurrency(a: Money, b: Money): boolean {
  if (a.currency === null || b.currency === null) return true;
  return a.currency.trim().toUpperCase() === b.currency.trim().toUpperCase();
}
