import type { Checkpoint } from '@ringfence/contracts';
import type { BucketLayout } from './velocity-bucket-tiers';
import { VELOCITY_WINDOWS, type VelocityWindowName } from './velocity-window-definitions';

/** What velocity is counted per (ADR-0012): each event's values of these. */
export const VELOCITY_DIMENSIONS = ['customer', 'card', 'device', 'email', 'phone', 'ipAddress', 'merchant', 'cardMerchant'] as const;
export type VelocityDimension = (typeof VELOCITY_DIMENSIONS)[number];

/** The things an event can be an occurrence of; each is counted once, whatever its updates (occurrence-registry.ts). */
export const VELOCITY_OCCURRENCE_KINDS = ['transaction', 'refund', 'payout', 'voucherRedemption', 'registration', 'dispute'] as const;
export type VelocityOccurrenceKind = (typeof VELOCITY_OCCURRENCE_KINDS)[number];

/**
 * What a feature measures over a window:
 * - `count`: occurrences of `occurrence`, each once (a transaction's before- and after-
 *   authorisation updates count one transaction);
 * - `failures`: occurrences of `occurrence` with a failed update, each once;
 * - `sum`: the occurrences' amounts in major units of the key's currency, each once;
 * - `squares`: the squares of those amounts, each once (with `sum` and `count`, the amounts' spread);
 * - `distinct`: distinct values of the dimension `of` seen with the key.
 */
export type VelocityMeasure =
  | { kind: 'count' | 'failures' | 'sum' | 'squares'; occurrence: VelocityOccurrenceKind; description: string }
  | { kind: 'distinct'; of: VelocityDimension; description: string };

const TRANSACTIONS = 'PSP transactions (each transactionId once, at its first update; refund, void and reversal steps excluded)';

/** Every measure, by the name it has in feature names. */
export const VELOCITY_MEASURES = {
  TransactionCount: { kind: 'count', occurrence: 'transaction', description: TRANSACTIONS },
  FailedPaymentCount: {
    kind: 'failures',
    occurrence: 'transaction',
    description: 'PSP transactions declined or failed (an update with `success: false` or a `declineCode`; each transactionId once)',
  },
  TransactionSum: {
    kind: 'sum',
    occurrence: 'transaction',
    description: `Amount of the ${TRANSACTIONS}, in major units of the key's currency (amounts in other currencies or without one are not summed)`,
  },
  TransactionSquareSum: {
    kind: 'squares',
    occurrence: 'transaction',
    description: `Sum of the squared amounts of the ${TRANSACTIONS}, in major units of the key's currency: with the count and the sum, the amounts' spread (the amount-against-history features read it)`,
  },
  DisputeCount: {
    kind: 'count',
    occurrence: 'dispute',
    description:
      'Disputes of its PSP transactions received (`/psp/dispute`, counted at the dispute\'s own timestamp, so only disputes known at the event; each disputeId once; one already won or reversed when it arrives is not counted)',
  },
  RefundCount: { kind: 'count', occurrence: 'refund', description: 'Refund requests (each refundId once; a request without refundId every time)' },
  RefundSum: { kind: 'sum', occurrence: 'refund', description: "Amount of the refund requests, in major units of the key's currency" },
  PayoutCount: { kind: 'count', occurrence: 'payout', description: 'Payouts to the card (each payoutId once)' },
  PayoutSum: { kind: 'sum', occurrence: 'payout', description: "Net amount of the payouts (`earnings.totalNetAmount`), in major units of the key's currency" },
  VoucherRedemptionCount: { kind: 'count', occurrence: 'voucherRedemption', description: 'Voucher redemptions (each customer, code and redemption time once)' },
  RegistrationCount: { kind: 'count', occurrence: 'registration', description: 'Registration attempts, successful or not' },
  DistinctCustomers: { kind: 'distinct', of: 'customer', description: 'Distinct customers seen with it' },
  DistinctCards: { kind: 'distinct', of: 'card', description: 'Distinct cards (instrumentId) seen with it' },
  DistinctDevices: { kind: 'distinct', of: 'device', description: 'Distinct devices seen with it' },
  DistinctIpAddresses: { kind: 'distinct', of: 'ipAddress', description: 'Distinct IP addresses seen with it' },
} as const satisfies Record<string, VelocityMeasure>;
export type VelocityMeasureName = keyof typeof VELOCITY_MEASURES;

/** The feature-name prefix of each dimension and how its key is described. */
const DIMENSION_NAMING: Record<VelocityDimension, { prefix: string; key: string }> = {
  customer: { prefix: 'customer', key: 'the customer (customerId)' },
  card: { prefix: 'card', key: 'the card (paymentMethod instrumentId)' },
  device: { prefix: 'device', key: 'the device (deviceId)' },
  email: { prefix: 'email', key: 'the e-mail address (trimmed, lower-cased)' },
  phone: { prefix: 'phone', key: 'the telephone number (E.164)' },
  ipAddress: { prefix: 'ip', key: 'the IP address' },
  merchant: { prefix: 'merchant', key: 'the merchant (transaction.mid)' },
  cardMerchant: { prefix: 'cardMerchant', key: 'the card (instrumentId) at this merchant (transaction.mid)' },
};

/**
 * The measures counted per dimension. Chosen for the fraud patterns they show: card testing
 * (failed payments and distinct cards per customer, device, IP and merchant), account takeover
 * and farming (distinct customers per device, card, e-mail, phone and IP), sign-up bursts
 * (registrations per device, IP, e-mail, phone), refund and voucher abuse (per customer), and
 * how card fraud shows in payment data: an amount far from what the card or customer usually
 * spends (sum of squares beside count and sum), a merchant or card whose payments are being
 * disputed (disputes as they arrive), a card paying at a merchant for the first time (card at
 * merchant). Measures a dimension gained later come last in its list, so that a snapshot
 * written before reads back (`VelocityBuckets.restore` pads the fields it lacks with zeros).
 */
export const VELOCITY_MEASURES_BY_DIMENSION: Readonly<Record<VelocityDimension, readonly VelocityMeasureName[]>> = {
  customer: [
    'TransactionCount',
    'TransactionSum',
    'FailedPaymentCount',
    'RefundCount',
    'RefundSum',
    'VoucherRedemptionCount',
    'DistinctCards',
    'DistinctDevices',
    'DistinctIpAddresses',
    'TransactionSquareSum',
    'DisputeCount',
  ],
  card: [
    'TransactionCount',
    'TransactionSum',
    'FailedPaymentCount',
    'RefundCount',
    'PayoutCount',
    'PayoutSum',
    'DistinctCustomers',
    'DistinctDevices',
    'DistinctIpAddresses',
    'TransactionSquareSum',
    'DisputeCount',
  ],
  device: ['TransactionCount', 'FailedPaymentCount', 'RegistrationCount', 'DistinctCustomers', 'DistinctCards', 'DistinctIpAddresses'],
  email: ['TransactionCount', 'RegistrationCount', 'VoucherRedemptionCount', 'DistinctCustomers'],
  phone: ['TransactionCount', 'RegistrationCount', 'VoucherRedemptionCount', 'DistinctCustomers'],
  ipAddress: ['TransactionCount', 'FailedPaymentCount', 'RegistrationCount', 'DistinctCustomers', 'DistinctCards'],
  merchant: ['TransactionCount', 'TransactionSum', 'FailedPaymentCount', 'RefundCount', 'DistinctCards', 'DisputeCount'],
  cardMerchant: ['TransactionCount'],
};

/** The checkpoints whose payload can name a key of each dimension (velocity-events.ts). */
export const VELOCITY_DIMENSION_CHECKPOINTS: Readonly<Record<VelocityDimension, readonly Checkpoint[]>> = {
  customer: ['customer', 'registration', 'refund', 'voucherRedemption', 'transaction'],
  card: ['payout', 'refund', 'transaction'],
  device: ['customer', 'registration', 'refund', 'transaction'],
  email: ['customer', 'registration', 'refund', 'voucherRedemption', 'transaction'],
  phone: ['customer', 'registration', 'refund', 'voucherRedemption', 'transaction'],
  ipAddress: ['customer', 'registration', 'refund', 'transaction'],
  merchant: ['refund', 'transaction'],
  cardMerchant: ['transaction'],
};

/** One velocity feature, as the feature catalogue and the rules' CEL declaration take it. */
export interface VelocityFeatureDefinition {
  name: string;
  type: 'int' | 'double';
  description: string;
  /** The checkpoints that can compute it (their payload can name its dimension). */
  checkpoints: readonly Checkpoint[];
  dimension: VelocityDimension;
  measure: VelocityMeasureName;
  window: VelocityWindowName;
}

/** A dimension's measures in bucket order (numbers, then distincts) and where its features sit. */
export interface DimensionPlan {
  dimension: VelocityDimension;
  /** A one-character code, for compact in-memory keys and stored rows. */
  code: string;
  layout: BucketLayout;
  numberMeasures: readonly VelocityMeasureName[];
  distinctMeasures: readonly VelocityMeasureName[];
  /** The position of the dimension's first feature in `VELOCITY_FEATURE_DEFINITIONS`. */
  featureOffset: number;
}

const WINDOW_LABELS: Record<VelocityWindowName, string> = { '1h': 'hour', '24h': '24 hours', '7d': '7 days', '30d': '30 days' };

function plan(): { plans: DimensionPlan[]; definitions: VelocityFeatureDefinition[] } {
  const plans: DimensionPlan[] = [];
  const definitions: VelocityFeatureDefinition[] = [];
  VELOCITY_DIMENSIONS.forEach((dimension, index) => {
    const measures = VELOCITY_MEASURES_BY_DIMENSION[dimension];
    const numberMeasures = measures.filter((measure) => VELOCITY_MEASURES[measure].kind !== 'distinct');
    const distinctMeasures = measures.filter((measure) => VELOCITY_MEASURES[measure].kind === 'distinct');
    plans.push({
      dimension,
      code: String(index),
      layout: { numbers: numberMeasures.length, distincts: distinctMeasures.length },
      numberMeasures,
      distinctMeasures,
      featureOffset: definitions.length,
    });
    // The order of VelocityBuckets.totalsAt: window after window, numbers then distincts.
    for (const window of VELOCITY_WINDOWS) {
      for (const measure of [...numberMeasures, ...distinctMeasures]) {
        const { kind, description } = VELOCITY_MEASURES[measure];
        definitions.push({
          name: `${DIMENSION_NAMING[dimension].prefix}${measure}${window.name}`,
          type: kind === 'sum' || kind === 'squares' ? 'double' : 'int',
          description: `${description}, of ${DIMENSION_NAMING[dimension].key}, in the last ${WINDOW_LABELS[window.name]} before the event (event time); null when the event names none.`,
          checkpoints: VELOCITY_DIMENSION_CHECKPOINTS[dimension],
          dimension,
          measure,
          window: window.name,
        });
      }
    }
  });
  return { plans, definitions };
}

const planned = plan();

/** Each dimension's plan, in VELOCITY_DIMENSIONS' order. */
export const VELOCITY_DIMENSION_PLANS: readonly DimensionPlan[] = planned.plans;
export const VELOCITY_DIMENSION_PLAN: Readonly<Record<VelocityDimension, DimensionPlan>> = Object.fromEntries(
  planned.plans.map((dimensionPlan) => [dimensionPlan.dimension, dimensionPlan]),
) as Record<VelocityDimension, DimensionPlan>;

/**
 * Every velocity feature, in the order of the vectors `VelocityFeatures.featureVectorAt` fills:
 * `<dimension><Measure><window>`, e.g. `customerTransactionCount1h`, `cardDistinctCustomers24h`,
 * `ipFailedPaymentCount1h`, `merchantTransactionSum24h`.
 */
export const VELOCITY_FEATURE_DEFINITIONS: readonly VelocityFeatureDefinition[] = planned.definitions;
