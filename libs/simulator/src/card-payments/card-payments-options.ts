import { checkFraudMix } from '../fraud-mix-check';

/**
 * The card-payments scenario family (README: "Card payments"): customers and terminals on a
 * grid, each customer paying with its one card at terminals near it, and three textbook fraud
 * patterns planted in that traffic. These are its options, with their defaults and checks.
 */

/** The fraud patterns the scenario can plant (README: "Card payments", "Fraud patterns"). */
export const CARD_FRAUD_PATTERNS = ['large-amount', 'compromised-terminal', 'stolen-card'] as const;
export type CardFraudPattern = (typeof CARD_FRAUD_PATTERNS)[number];

export interface CardPaymentsOptions {
  /** The same seed and options give the same records, byte for byte. */
  seed: string;
  /** Customers, one card each. */
  customers: number;
  /** Terminals (merchants: `transaction.mid`). */
  terminals: number;
  /** Days of payments. */
  days: number;
  /** Event time of the first day's midnight, epoch milliseconds (UTC). */
  start: number;
  /** Mean payments a day of a customer; each customer's own rate is drawn uniformly from 0 to twice it. */
  paymentsPerDay: number;
  /** Share of the payments that are fraudulent, in expectation. */
  fraudRate: number;
  /** Relative weights of the patterns in the fraud; a pattern not named (or weighted 0) is not planted. */
  fraudMix: Partial<Record<CardFraudPattern, number>>;
  /** Days from a fraudulent payment to its dispute, in event time. */
  disputeDelayDays: number;
}

/**
 * Most of the fraud needs history to be seen (a terminal's or a card's earlier disputed
 * payments); the amount rule explains a tenth of it.
 */
export const DEFAULT_CARD_FRAUD_MIX: Readonly<Record<CardFraudPattern, number>> = { 'large-amount': 10, 'compromised-terminal': 50, 'stolen-card': 40 };

/** About the size of the outside tester's run (issue 33): 5,000 cards, 10,000 terminals, 35 days, about 175,000 payments. */
export const DEFAULT_CARD_PAYMENTS_OPTIONS: CardPaymentsOptions = {
  seed: '1',
  customers: 5000,
  terminals: 10_000,
  days: 35,
  start: Date.UTC(2026, 0, 5),
  paymentsPerDay: 1,
  fraudRate: 0.01,
  fraudMix: { ...DEFAULT_CARD_FRAUD_MIX },
  disputeDelayDays: 7,
};

/** Options with defaults filled in; throws a RangeError naming the option that is out of range. */
export function cardPaymentsOptions(partial: Partial<CardPaymentsOptions> = {}): CardPaymentsOptions {
  const given = Object.fromEntries(Object.entries(partial).filter(([, value]) => value !== undefined)) as Partial<CardPaymentsOptions>;
  const options: CardPaymentsOptions = { ...DEFAULT_CARD_PAYMENTS_OPTIONS, ...given };
  const check = (ok: boolean, message: string) => {
    if (!ok) throw new RangeError(message);
  };
  check(Number.isInteger(options.customers) && options.customers >= 1 && options.customers <= 10_000_000, 'customers must be an integer from 1 to 10,000,000');
  check(Number.isInteger(options.terminals) && options.terminals >= 1 && options.terminals <= 10_000_000, 'terminals must be an integer from 1 to 10,000,000');
  check(Number.isInteger(options.days) && options.days >= 1 && options.days <= 366, 'days must be an integer from 1 to 366');
  check(Number.isInteger(options.start) && options.start > 0, 'start must be a time after 1970');
  check(Number.isFinite(options.paymentsPerDay) && options.paymentsPerDay > 0 && options.paymentsPerDay <= 50, 'payments per day must be above 0 and at most 50');
  check(Number.isFinite(options.fraudRate) && options.fraudRate >= 0 && options.fraudRate <= 0.2, 'fraud rate must be from 0 to 0.2');
  check(Number.isFinite(options.disputeDelayDays) && options.disputeDelayDays >= 0 && options.disputeDelayDays <= 180, 'dispute delay days must be from 0 to 180');
  checkFraudMix(options.fraudMix, CARD_FRAUD_PATTERNS, 'pattern', check);
  return { ...options, seed: String(options.seed), fraudMix: { ...options.fraudMix } };
}

/** Each pattern's share of the fraud (the weights over their sum; 0 for a pattern not named). */
export function fraudShares(mix: Partial<Record<CardFraudPattern, number>>): Record<CardFraudPattern, number> {
  const total = CARD_FRAUD_PATTERNS.reduce((sum, pattern) => sum + (mix[pattern] ?? 0), 0);
  return Object.fromEntries(CARD_FRAUD_PATTERNS.map((pattern) => [pattern, (mix[pattern] ?? 0) / total])) as Record<CardFraudPattern, number>;
}
