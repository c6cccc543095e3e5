import type { Checkpoint } from '@ringfence/contracts';
import { type VelocityWindowName } from '../velocity/velocity-window-definitions';
import { ALL_CHECKPOINTS, type FeatureDefinition, type FeatureInputs, defineFeature } from './feature-definition';
import { rounded } from './payload-values';
import { amountInMajorUnits } from './payment-features';

const TRANSACTION: readonly Checkpoint[] = ['transaction'];

/** The windows a payment is compared over: a day, a week, a month (velocity's 1 h is too short to hold a habit). */
const HISTORY_WINDOWS = ['24h', '7d', '30d'] as const satisfies readonly VelocityWindowName[];
type HistoryWindow = (typeof HISTORY_WINDOWS)[number];
const WINDOW_LABELS: Record<HistoryWindow, string> = { '24h': '24 hours', '7d': '7 days', '30d': '30 days' };

/** A z-score is bounded: one payment far outside a flat history says "far", not a number that swamps a linear model. */
const MAX_Z_SCORE = 100;

type Payer = 'customer' | 'card';
const PAYER_LABELS: Record<Payer, string> = { customer: "the customer's", card: "the card's (instrumentId)" };

/** A velocity counter of the checkpoint, by feature name; null when the counters or its key are missing. */
const velocityOf = (inputs: FeatureInputs, name: string): number | null => inputs.velocity?.[name] ?? null;

/** The payer's payments in the window before this one: how many, their mean and spread (major units). */
function historyOf(inputs: FeatureInputs, payer: Payer, window: HistoryWindow): { count: number; mean: number; spread: number } | null {
  const count = velocityOf(inputs, `${payer}TransactionCount${window}`);
  const sum = velocityOf(inputs, `${payer}TransactionSum${window}`);
  const squares = velocityOf(inputs, `${payer}TransactionSquareSum${window}`);
  if (count === null || sum === null || squares === null || count < 1) return null;
  const mean = sum / count;
  return { count, mean, spread: Math.sqrt(Math.max(0, squares / count - mean * mean)) };
}

/** Amount ÷ the payer's mean amount over the window. */
function amountToMean(payer: Payer, window: HistoryWindow): FeatureDefinition {
  const prefix = payer === 'customer' ? 'Customer' : 'Card';
  return defineFeature({
    name: `amountTo${prefix}Mean${window}`,
    type: 'double',
    description: `This payment's amount ÷ ${PAYER_LABELS[payer]} mean payment amount in the last ${WINDOW_LABELS[window]} before it (event time; three decimals): a stolen card spent at several times its owner's usual amounts reads 5, not 1. Null without an earlier payment in the window with an amount summed, or without this payment's amount. Amounts are compared in the key's own currency (velocity sums one currency per key).`,
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => {
      const amount = amountInMajorUnits(inputs);
      const history = historyOf(inputs, payer, window);
      if (amount === null || history === null || history.mean <= 0) return null;
      return rounded(amount / history.mean, 3);
    },
  });
}

/** (Amount − mean) ÷ spread, over the payer's payments in the window. */
function amountZScore(payer: Payer, window: HistoryWindow): FeatureDefinition {
  const prefix = payer === 'customer' ? 'Customer' : 'Card';
  return defineFeature({
    name: `amount${prefix}ZScore${window}`,
    type: 'double',
    description: `How many standard deviations this payment's amount lies from ${PAYER_LABELS[payer]} mean over its payments in the last ${WINDOW_LABELS[window]} (event time; two decimals; bounded to ±${MAX_Z_SCORE}; a spread under 1 % of the mean counts as 1 % of it, so a history of one repeated amount still compares). Null with fewer than two earlier payments in the window.`,
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => {
      const amount = amountInMajorUnits(inputs);
      const history = historyOf(inputs, payer, window);
      if (amount === null || history === null || history.count < 2) return null;
      const spread = Math.max(history.spread, 0.01 * Math.abs(history.mean), 0.01);
      return rounded(Math.max(-MAX_Z_SCORE, Math.min(MAX_Z_SCORE, (amount - history.mean) / spread)), 2);
    },
  });
}

/** Amount ÷ the merchant's mean payment over the window: a stolen card buys more than the shop's usual basket. */
function amountToMerchantMean(window: HistoryWindow): FeatureDefinition {
  return defineFeature({
    name: `amountToMerchantMean${window}`,
    type: 'double',
    description: `This payment's amount ÷ the merchant's (transaction.mid) mean payment amount in the last ${WINDOW_LABELS[window]} before it (event time; three decimals). Null without an earlier payment there in the window, or without this payment's amount.`,
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => {
      const amount = amountInMajorUnits(inputs);
      const count = velocityOf(inputs, `merchantTransactionCount${window}`);
      const sum = velocityOf(inputs, `merchantTransactionSum${window}`);
      if (amount === null || count === null || sum === null || count < 1 || sum <= 0) return null;
      return rounded(amount / (sum / count), 3);
    },
  });
}

/** Disputes received ÷ payments, of the merchant or the card, over the window. */
function disputeRate(dimension: 'merchant' | 'card', window: HistoryWindow): FeatureDefinition {
  const whose = dimension === 'merchant' ? 'the merchant (transaction.mid)' : 'the card (instrumentId)';
  return defineFeature({
    name: `${dimension}DisputeRate${window}`,
    type: 'double',
    description: `Disputes of ${whose}'s payments received in the last ${WINDOW_LABELS[window]} ÷ its payments in that window (\`${dimension}DisputeCount${window}\` ÷ \`${dimension}TransactionCount${window}\`, four decimals): a compromised terminal's payments are disputed for weeks. Only disputes known at the event count (each at its own timestamp); a dispute arrives days after its payment, so the rate is that of somewhat older payments. Null without payments in the window.`,
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => {
      const disputes = velocityOf(inputs, `${dimension}DisputeCount${window}`);
      const payments = velocityOf(inputs, `${dimension}TransactionCount${window}`);
      if (disputes === null || payments === null || payments < 1) return null;
      return rounded(disputes / payments, 4);
    },
  });
}

/**
 * A payment against what came before it, of the same payer, merchant and card (the patterns of
 * card fraud in payment data: an amount far above its owner's habit, a merchant whose payments
 * are being disputed, a card new to a merchant), and the local time it happened. Read from the
 * velocity counters before this event, so in event time and without the future.
 */
export const HISTORY_FEATURES: readonly FeatureDefinition[] = [
  ...(['customer', 'card'] as const).flatMap((payer) => HISTORY_WINDOWS.flatMap((window) => [amountToMean(payer, window), amountZScore(payer, window)])),
  ...HISTORY_WINDOWS.map(amountToMerchantMean),
  ...(['merchant', 'card'] as const).flatMap((dimension) => HISTORY_WINDOWS.map((window) => disputeRate(dimension, window))),
  defineFeature({
    name: 'cardFirstPaymentAtMerchant',
    type: 'bool',
    description: 'The card (instrumentId) has made no payment at this merchant (transaction.mid) in the last 30 days before this one (`cardMerchantTransactionCount30d` is 0). Null without a card or a merchant.',
    checkpoints: TRANSACTION,
    compute: ({ inputs }) => {
      const earlier = velocityOf(inputs, 'cardMerchantTransactionCount30d');
      return earlier === null ? null : earlier === 0;
    },
  }),
  defineFeature({
    name: 'hourOfDay',
    type: 'int',
    description: "The hour (0–23) of the event's timestamp in the account's time zone (its `timeZone` setting; UTC when unset).",
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ localTime }) => localTime.hour,
  }),
  defineFeature({
    name: 'night',
    type: 'bool',
    description: "The event happened between midnight and 6 a.m. in the account's time zone.",
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ localTime }) => localTime.hour < 6,
  }),
  defineFeature({
    name: 'weekend',
    type: 'bool',
    description: "The event happened on a Saturday or a Sunday in the account's time zone.",
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ localTime }) => localTime.weekday === 0 || localTime.weekday === 6,
  }),
];
