import type { Checkpoint } from '@ringfence/contracts';
import { ALL_CHECKPOINTS, type FeatureValue } from '../features/feature-definition';
import { FeatureVector } from '../features/feature-vector';
import { contributionsInPoints } from './score-points';

export type Action = 'ALLOW' | 'REVIEW' | 'PREVENT';

export interface Thresholds {
  /** A score at or above this is REVIEW. */
  review: number;
  /** A score at or above this is PREVENT. */
  prevent: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { review: 50, prevent: 80 };

/** Recorded on every decision event (`modelVersion`), so training and backtests know which weights decided. */
export const SCORE_MODEL_VERSION = 'ringfence-additive-1';

/** Where every score starts: a subject about whom the checkpoint knows nothing either way. */
export const BASE_SCORE = 20;

type SubjectKind = 'customer' | 'supplier';

/** One weight of the model: `points` added when `feature`'s value meets `condition`. */
export interface ScoreTerm {
  feature: string;
  /** The condition as the docs show it: `true`, `false`, `null` (missing), `< 1`, `≥ 0.5`, `0.9 – 1`. */
  condition: string;
  matches(value: FeatureValue): boolean;
  /** Positive raises the score, negative lowers it. */
  points: number;
  /** The checkpoints where it counts (it needs the feature there too). */
  checkpoints: readonly Checkpoint[];
  /** Only for these subjects, when not every subject. */
  subjects?: readonly SubjectKind[];
  /** Why it has this weight, for docs/scoring.md. */
  why: string;
}

/**
 * One feature's part in a score, for explanations: the value it had and what it added. For
 * this model, the condition that matched and its points; for a learned model, no condition and
 * its exact TreeSHAP share of the log-odds.
 */
export interface ScoreContribution {
  feature: string;
  value: FeatureValue;
  condition?: string;
  contribution: number;
}

export interface ModelScore {
  /** Integer, 0–100. */
  score: number;
  action: Action;
  /** Every term that applied, largest effect first (ties by feature name). */
  contributions: ScoreContribution[];
}

interface Scope {
  checkpoints?: readonly Checkpoint[];
  subjects?: readonly SubjectKind[];
}

const term = (feature: string, condition: string, matches: (value: FeatureValue) => boolean, points: number, why: string, scope: Scope = {}): ScoreTerm => ({
  feature,
  condition,
  matches,
  points,
  checkpoints: scope.checkpoints ?? ALL_CHECKPOINTS,
  ...(scope.subjects ? { subjects: scope.subjects } : {}),
  why,
});

const isTrue = (feature: string, points: number, why: string, scope?: Scope) => term(feature, 'true', (value) => value === true, points, why, scope);
const isFalse = (feature: string, points: number, why: string, scope?: Scope) => term(feature, 'false', (value) => value === false, points, why, scope);
const isMissing = (feature: string, points: number, why: string, scope?: Scope) => term(feature, 'null', (value) => value === null, points, why, scope);
const atLeast = (feature: string, bound: number, points: number, why: string, scope?: Scope) =>
  term(feature, `≥ ${bound}`, (value) => typeof value === 'number' && value >= bound, points, why, scope);
const below = (feature: string, bound: number, points: number, why: string, scope?: Scope) =>
  term(feature, `< ${bound}`, (value) => typeof value === 'number' && value < bound, points, why, scope);
const within = (feature: string, low: number, high: number, points: number, why: string, scope?: Scope) =>
  term(feature, `${low} – ${high}`, (value) => typeof value === 'number' && value >= low && value <= high, points, why, scope);
const above = (feature: string, bound: number, points: number, why: string, scope?: Scope) =>
  term(feature, `> ${bound}`, (value) => typeof value === 'number' && value > bound, points, why, scope);
const fromTo = (feature: string, low: number, high: number, points: number, why: string, scope?: Scope) =>
  term(feature, `${low} to < ${high}`, (value) => typeof value === 'number' && value >= low && value < high, points, why, scope);

/** Checkpoints that judge the subject's identity; a PSP transaction carries too little of it to hold its absence against anyone. */
const IDENTITY: Scope = { checkpoints: ['customer', 'registration', 'payout', 'refund', 'voucherRedemption'] };
/** Checkpoints whose payload has a place for a device. */
const DEVICE_EXPECTED: Scope = { checkpoints: ['customer', 'registration', 'refund'] };
const TRANSACTION: Scope = { checkpoints: ['transaction'] };
const REFUND: Scope = { checkpoints: ['refund'] };
const PAYOUT: Scope = { checkpoints: ['payout'] };
const REGISTRATION: Scope = { checkpoints: ['registration'] };
/** A supplier's device or card shared with customers is common (couriers order too): sharing counts for customers. */
const CUSTOMERS: Scope = { subjects: ['customer'] };
const HOURS_IN_30_DAYS = 720;

/**
 * The model until a learned one lands: additive points over the catalogue's features, a reader
 * can check every one (docs/scoring.md lists them, why, and the cases they were calibrated on).
 * Missing details cost a few points each and are never rewarded; complete, consistent details
 * (verified contacts, a name the address agrees with, months of history) take a few off; strong
 * evidence (a disposable mailbox, a bot or an automated browser, a failed authentication, a card far from its IP address,
 * a large first payout) adds enough on its own or together to reach REVIEW. Labels, chargebacks,
 * known-fraud indicators and a fraudster nearby are not terms: they decide before the model
 * (docs/api.md, "How a checkpoint decides").
 */
export const SCORE_MODEL: readonly ScoreTerm[] = [
  isFalse('hasEmail', 8, 'No address to verify or reach the subject by: missing details are never rewarded.', IDENTITY),
  isTrue('emailVerified', -5, 'The subject controls the address.', IDENTITY),
  isFalse('hasTelephone', 4, 'No number: a missing detail, weaker than a missing address.', IDENTITY),
  isTrue('telephoneVerified', -3, 'The subject controls the number.', IDENTITY),
  isFalse('hasName', 6, 'No name at all: genuine sign-ups almost always give one.', IDENTITY),
  isTrue('emailMatchesName', -5, 'The address carries the subject\'s name: consistent details.', IDENTITY),
  isMissing('accountAgeHours', 3, 'Unknown account age is not rewarded.', IDENTITY),
  below('accountAgeHours', 1, 8, 'Most fake accounts and promotion abuse act within the first hour.', IDENTITY),
  fromTo('accountAgeHours', 1, 24, 4, 'Still a first-day account.', IDENTITY),
  atLeast('accountAgeHours', HOURS_IN_30_DAYS, -8, 'A month or more of history.', IDENTITY),
  isTrue('emailDisposable', 30, 'A throwaway mailbox: nobody means to keep the account.'),
  atLeast('emailLocalPartDigitRatio', 0.5, 20, 'A digit-heavy local part is what generated addresses look like.'),
  isFalse('hasDevice', 4, 'No device where one could be sent: a missing detail.', DEVICE_EXPECTED),
  isTrue('userAgentBot', 30, 'A crawler, script client or headless browser is not a person at a checkout.'),
  isTrue('sdkWebdriver', 30, 'The browser tells the web SDK it is driven by automation (`navigator.webdriver`): a script, not a shopper, at the checkout.'),
  isTrue('sdkCardFieldPaste', 10, 'A card number pasted into the card field in this session: card testers paste from lists; shoppers type or autofill.'),
  isTrue('sdkTimeZoneIpMismatch', 10, "The browser's time zone belongs to another country than its IP address: a proxy, or a takeover from abroad."),
  isTrue('deviceNewForSubject', 10, 'A device the subject has not used before: takeovers start on one.'),
  isTrue('cardIpCountryMismatch', 10, 'The card is used from another country than it was issued in.', TRANSACTION),
  isTrue('cardIpDifferentContinent', 15, 'From another continent: rarely a trip across a border, often a stolen card.', TRANSACTION),
  atLeast('networkSharedCardCustomers', 1, 20, 'A card other customers use too.', CUSTOMERS),
  atLeast('networkSharedEmailCustomers', 1, 15, 'An address other customers use too.', CUSTOMERS),
  atLeast('networkSharedPhoneCustomers', 1, 10, 'A number other customers use too.', CUSTOMERS),
  atLeast('networkSharedDeviceCustomers', 3, 10, 'A device shared beyond a household.', CUSTOMERS),
  atLeast('networkGrowthRate', 5, 10, 'A network gaining links fast: a burst of sign-ups.', CUSTOMERS),
  isTrue('cvvMismatch', 20, 'The card\'s security code was wrong.', TRANSACTION),
  isTrue('avsMismatch', 10, 'The billing address did not match the card\'s.', TRANSACTION),
  isTrue('declined', 15, 'The processor declined this step.', TRANSACTION),
  isTrue('declineCodeFraud', 20, 'Declined as lost, stolen or fraud, not for want of funds.', TRANSACTION),
  isTrue('threeDsFailed', 25, 'The issuer could not authenticate the cardholder, or refused.', TRANSACTION),
  atLeast('cardFailedPaymentCount1h', 3, 30, 'Three or more failed payments on the card within the hour before: card testing, or a stolen card tried until it works.', TRANSACTION),
  atLeast('customerFailedPaymentCount1h', 3, 20, 'Three or more failed payments by the customer within the hour before (other cards too).', TRANSACTION),
  atLeast('deviceDistinctCards24h', 4, 20, 'Four or more cards used from the device in a day: a card tester\'s device.', TRANSACTION),
  atLeast('amountToCardMean30d', 4, 20, 'Four or more times what the card paid on average over the month before: a stolen card spent at several times its owner\'s amounts.', TRANSACTION),
  atLeast('amountToCustomerMean30d', 4, 10, 'Four or more times what the customer paid on average over the month before (whatever card).', TRANSACTION),
  atLeast('merchantDisputeRate30d', 0.2, 30, 'A fifth or more of the merchant\'s payments of the last 30 days were disputed as they came in (a few in a hundred is already high): a compromised terminal keeps taking stolen cards.', TRANSACTION),
  atLeast('cardDisputeCount30d', 1, 15, 'A payment on the card was disputed in the last 30 days: it is known to be abused.', TRANSACTION),
  isTrue('threeDsAuthenticated', -10, 'The issuer authenticated the cardholder.', TRANSACTION),
  isTrue('threeDsLiabilityShifted', -10, 'Fraud losses shifted to the issuer.', TRANSACTION),
  isTrue('amountLarge', 10, 'A large amount for its currency: more to lose.', { checkpoints: ['transaction', 'refund'] }),
  above('refundToOrderRatio', 1, 55, 'Asking back more than was paid: REVIEW even for a long-standing customer.', REFUND),
  within('refundToOrderRatio', 0.9, 1, 10, 'Asking back nearly all of the order.', REFUND),
  isTrue('payoutSupplierFirstSeen', 10, 'Money out to a supplier nothing is known about.', PAYOUT),
  isTrue('amountLarge', 15, 'A large payout for its currency (five times a large transaction).', PAYOUT),
  isTrue('largePayoutToNewSupplier', 25, 'A large first payout to a new supplier: the cash-out of a fake or taken-over account.', PAYOUT),
  isTrue('supplierIdentityVerified', -5, 'The merchant verified who the supplier is.', PAYOUT),
  isFalse('supplierIdentityVerified', 15, 'The merchant says the identity is not verified.', PAYOUT),
  isFalse('payoutHasPaymentMethod', 10, 'No known destination for the money.', PAYOUT),
  isFalse('payoutNotificationEmailMatchesSupplier', 10, 'Payout notices go to another address than the supplier\'s own.', PAYOUT),
  isTrue('cardVirtual', 10, 'Paid out to a virtual card: easy to open, easy to drop.', PAYOUT),
  isTrue('registrationFailed', 10, 'A failed registration attempt.', REGISTRATION),
  isTrue('passwordTooSimple', 10, 'A password refused as too simple: scripted sign-ups try weak ones.', REGISTRATION),
  isTrue('credentialsBreached', 25, 'The username or password is in a known breach: credential stuffing.', REGISTRATION),
];

/** The action a score gets against the thresholds. */
export function actionFor(score: number, thresholds: Thresholds = DEFAULT_THRESHOLDS): Action {
  return score >= thresholds.prevent ? 'PREVENT' : score >= thresholds.review ? 'REVIEW' : 'ALLOW';
}

/**
 * The model's score of a checkpoint's feature vector: `BASE_SCORE` plus every applicable term,
 * rounded and held within 0–100, and the action it gets against `thresholds`. A term applies
 * at its checkpoints, for its subjects, when the feature was computed and meets its condition.
 */
export function scoreFeatures(features: FeatureVector | Readonly<Record<string, FeatureValue>>, checkpoint: Checkpoint, thresholds: Thresholds = DEFAULT_THRESHOLDS): ModelScore {
  const subject = featureValueOf(features, 'subjectKind') as SubjectKind;
  let total = BASE_SCORE;
  const contributions: ScoreContribution[] = [];
  for (const item of SCORE_MODEL) {
    if (!item.checkpoints.includes(checkpoint) || (item.subjects && !item.subjects.includes(subject))) continue;
    const value = featureValueOf(features, item.feature);
    // A feature the checkpoint does not compute is not a null one: its term does not apply.
    if (value === undefined) continue;
    if (!item.matches(value)) continue;
    total += item.points;
    contributions.push({ feature: item.feature, value, condition: item.condition, contribution: item.points });
  }
  contributions.sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution) || a.feature.localeCompare(b.feature));
  const score = Math.min(100, Math.max(0, Math.round(total)));
  // Capped (or rounded), the points are rescaled so that they still add up to the score with the base.
  return { score, action: actionFor(score, thresholds), contributions: contributionsInPoints(contributions, total - BASE_SCORE, BASE_SCORE, score) };
}

/** A feature's value in a vector or a record; undefined when it has none (its checkpoint does not compute it). */
function featureValueOf(features: FeatureVector | Readonly<Record<string, FeatureValue>>, name: string): FeatureValue | undefined {
  if (features instanceof FeatureVector) return features.get(name);
  return name in features ? features[name] : undefined;
}

/** An account's thresholds per checkpoint (`settings.scoreThresholds`); a checkpoint left out keeps the defaults. */
export type ScoreThresholdSettings = Readonly<Partial<Record<Checkpoint, Thresholds>>>;

/** The thresholds the account set for `checkpoint`, else the defaults. */
export function thresholdsFor(checkpoint: Checkpoint, configured?: ScoreThresholdSettings | null): Thresholds {
  const thresholds = configured?.[checkpoint];
  return thresholds && Number.isFinite(thresholds.review) && Number.isFinite(thresholds.prevent) ? thresholds : DEFAULT_THRESHOLDS;
}
