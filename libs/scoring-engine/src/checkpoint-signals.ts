import { LARGE_PAYOUT_FACTOR, type Money, isLargeAmount, sameCurrency } from './currency-amounts';
import type { ScoreContribution } from './customer-score';

type Fields = Record<string, unknown>;

const object = (value: unknown): Fields => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {});
const integer = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = (value: unknown): string => (typeof value === 'string' ? value.toUpperCase() : '');
const currencyOf = (value: unknown): string | null => (typeof value === 'string' && value.trim().length > 0 ? value : null);

function collect(entries: Array<[string, number, boolean]>): ScoreContribution[] {
  return entries.filter(([, , when]) => when).map(([feature, points]) => ({ feature, points }));
}

/** Card-check outcomes that mean the details did not match. */
const MISMATCH = /NO_MATCH|MISMATCH|FAIL|NOT_MATCH/;

/**
 * Signals of a payment-processor transaction: failed card checks (CVV, address), a decline, an
 * unusually large amount for its currency (`currency-amounts.ts`). A 3-D Secure liability shift
 * means the issuer authenticated the cardholder, so the card-check points are waived.
 */
export function transactionSignals(request: Fields): ScoreContribution[] {
  const transaction = object(request.transaction);
  const avs = object(transaction.avsResultCode);
  const liabilityShifted = object(request.threeds).liabilityShifted === true;
  const amount: Money = { minorUnits: integer(transaction.amount) ?? 0, currency: currencyOf(transaction.currency) };
  return collect([
    ['cvvResultCode', 20, !liabilityShifted && MISMATCH.test(text(transaction.cvvResultCode))],
    ['avsResultCode.postalCode', 10, !liabilityShifted && MISMATCH.test(text(avs.postalCode))],
    ['avsResultCode.street', 10, !liabilityShifted && MISMATCH.test(text(avs.street))],
    ['declineCode', 15, text(transaction.declineCode).length > 0],
    ['amount', 10, isLargeAmount(amount)],
  ]);
}

/**
 * Signals of a refund request: asking back more than was paid, or nearly all of it. Compared
 * only within one currency: a refund and an order that both name a currency, and not the same
 * one, cannot be compared without exchange rates, so they add nothing.
 */
export function refundSignals(request: Fields): ScoreContribution[] {
  const refund = object(request.refund);
  const order = object(request.order);
  const refundAmount = integer(refund.amount);
  const orderPrice = integer(order.price);
  if (refundAmount === null || orderPrice === null || orderPrice <= 0) return [];
  if (!sameCurrency({ minorUnits: refundAmount, currency: currencyOf(refund.currency) }, { minorUnits: orderPrice, currency: currencyOf(order.currency) })) return [];
  return collect([
    ['refundExceedsOrder', 40, refundAmount > orderPrice],
    ['refundNearlyWholeOrder', 10, refundAmount <= orderPrice && refundAmount >= 0.9 * orderPrice],
  ]);
}

/**
 * Signals of a payout: nowhere known to pay to, an unverified recipient, a large amount for its
 * currency (`LARGE_PAYOUT_FACTOR` times a large transaction; `payout.earnings.currency`).
 */
export function payoutSignals(request: Fields): ScoreContribution[] {
  const supplier = object(request.supplier);
  const earnings = object(object(request.payout).earnings);
  const net: Money = { minorUnits: integer(earnings.totalNetAmount) ?? 0, currency: currencyOf(earnings.currency) };
  const hasMethod = Object.keys(object(request.paymentMethod)).length > 0 || (Array.isArray(request.paymentMethods) && request.paymentMethods.length > 0);
  return collect([
    ['noPaymentMethod', 10, !hasMethod],
    ['identityNotVerified', 20, supplier.identityVerified === false],
    ['largePayout', 15, isLargeAmount(net, LARGE_PAYOUT_FACTOR)],
  ]);
}

/** Signals of a registration attempt: a failed attempt, a password rejected as too simple. */
export function registrationSignals(request: Fields, credentialsBreached: boolean): ScoreContribution[] {
  const registration = object(request.registration);
  const password = object(object(registration.registrationMechanism).password);
  return collect([
    ['registrationFailed', 10, registration.success === false],
    ['passwordTooSimple', 10, text(password.failureReason) === 'PASSWORD_TOO_SIMPLE'],
    ['breachedCredentials', 30, credentialsBreached],
  ]);
}

/** What the graph tells scoring about a customer (the graph service's network features). */
export interface NetworkSignalsInput {
  maxOtherCustomers: { device: number; card: number; email: number; phone: number };
  /** New edges per hour over the last 24 h among nodes within 6 hops. */
  networkGrowthRate: number;
}

/** Customers on one device beyond which sharing looks like an account farm, not a household. */
export const SHARED_DEVICE_CUSTOMERS = 3;
/** New edges an hour in the customer's network that look like a burst of sign-ups. */
export const FAST_GROWING_NETWORK_PER_HOUR = 5;

/**
 * Signals of the customer's network: a card, e-mail or phone used by other customers, a device
 * shared beyond a household, a network growing fast. Proximity to a known fraudster is not a
 * point here: decisions §1 gives it its own place in the precedence (source NETWORK).
 */
export function networkSignals(network: NetworkSignalsInput | null): ScoreContribution[] {
  if (network === null) return [];
  const { maxOtherCustomers } = network;
  return collect([
    ['network.sharedCard', 25, maxOtherCustomers.card >= 1],
    ['network.sharedEmail', 20, maxOtherCustomers.email >= 1],
    ['network.sharedPhone', 15, maxOtherCustomers.phone >= 1],
    ['network.sharedDevice', 15, maxOtherCustomers.device >= SHARED_DEVICE_CUSTOMERS],
    ['network.growthRate', 10, network.networkGrowthRate >= FAST_GROWING_NETWORK_PER_HOUR],
  ]);
}
