import type { ScoreContribution } from './customer-score';

type Fields = Record<string, unknown>;

const object = (value: unknown): Fields => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {});
const integer = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = (value: unknown): string => (typeof value === 'string' ? value.toUpperCase() : '');

function collect(entries: Array<[string, number, boolean]>): ScoreContribution[] {
  return entries.filter(([, , when]) => when).map(([feature, points]) => ({ feature, points }));
}

/** Card-check outcomes that mean the details did not match. */
const MISMATCH = /NO_MATCH|MISMATCH|FAIL|NOT_MATCH/;
/** A transaction above this (minor units) is large for most merchants. */
export const LARGE_AMOUNT = 100_000;

/**
 * Signals of a payment-processor transaction: failed card checks (CVV, address), a decline, an
 * unusually large amount. A 3-D Secure liability shift means the issuer authenticated the
 * cardholder, so the card-check points are waived.
 */
export function transactionSignals(request: Fields): ScoreContribution[] {
  const transaction = object(request.transaction);
  const avs = object(transaction.avsResultCode);
  const liabilityShifted = object(request.threeds).liabilityShifted === true;
  const amount = integer(transaction.amount) ?? 0;
  return collect([
    ['cvvResultCode', 20, !liabilityShifted && MISMATCH.test(text(transaction.cvvResultCode))],
    ['avsResultCode.postalCode', 10, !liabilityShifted && MISMATCH.test(text(avs.postalCode))],
    ['avsResultCode.street', 10, !liabilityShifted && MISMATCH.test(text(avs.street))],
    ['declineCode', 15, text(transaction.declineCode).length > 0],
    ['amount', 10, amount >= LARGE_AMOUNT],
  ]);
}

/** Signals of a refund request: asking back more than was paid, or nearly all of it. */
export function refundSignals(request: Fields): ScoreContribution[] {
  const refundAmount = integer(object(request.refund).amount);
  const orderPrice = integer(object(request.order).price);
  if (refundAmount === null || orderPrice === null || orderPrice <= 0) return [];
  return collect([
    ['refundExceedsOrder', 40, refundAmount > orderPrice],
    ['refundNearlyWholeOrder', 10, refundAmount <= orderPrice && refundAmount >= 0.9 * orderPrice],
  ]);
}

/** Signals of a payout: nowhere known to pay to, an unverified recipient, a large amount. */
export function payoutSignals(request: Fields): ScoreContribution[] {
  const supplier = object(request.supplier);
  const net = integer(object(object(request.payout).earnings).totalNetAmount) ?? 0;
  const hasMethod = Object.keys(object(request.paymentMethod)).length > 0 || (Array.isArray(request.paymentMethods) && request.paymentMethods.length > 0);
  return collect([
    ['noPaymentMethod', 10, !hasMethod],
    ['identityNotVerified', 20, supplier.identityVerified === false],
    ['largePayout', 15, net >= 5 * LARGE_AMOUNT],
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
