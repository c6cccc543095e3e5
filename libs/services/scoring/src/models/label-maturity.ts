import type { ModelLabelMaturityDto } from '@ringfence/contracts';

/** Fewer disputed payments than this say too little of how long disputes take: nothing is left out. */
export const MIN_DISPUTES_FOR_MATURITY = 20;
/** The share of this account's disputes that arrive within the horizon. */
export const MATURITY_QUANTILE = 0.95;
const DAY_MS = 86_400_000;

/** A disputed payment: when it was made and when its dispute arrived (event time, epoch ms). */
export interface DisputedPayment {
  paidAt: number;
  disputedAt: number;
}

/**
 * Where a payment's label is not known yet. A payment is a positive once its dispute arrives,
 * days or weeks after it; until then it reads as genuine. A training started a week after its
 * period ends, on an account whose disputes take ten days, would learn the last days' fraud as
 * genuine and judge its candidates on a held-out part made of exactly those days. So the
 * account's own disputes say how long disputes take (the 95th percentile of dispute time −
 * payment time), and a payment made later than that before the newest dispute known is left out
 * of the examples, of the training and of its held-out part alike: its dispute may still come.
 *
 * Null (nothing left out) with fewer than `MIN_DISPUTES_FOR_MATURITY` disputed payments, as at
 * checkpoints whose labels are not disputes.
 */
export function labelMaturity(disputed: readonly DisputedPayment[]): Pick<ModelLabelMaturityDto, 'cutoff' | 'horizonDays'> | null {
  if (disputed.length < MIN_DISPUTES_FOR_MATURITY) return null;
  const delays = disputed.map(({ paidAt, disputedAt }) => Math.max(0, disputedAt - paidAt)).sort((a, b) => a - b);
  const horizon = delays[Math.min(delays.length - 1, Math.ceil(MATURITY_QUANTILE * delays.length) - 1)];
  const newestDispute = Math.max(...disputed.map(({ disputedAt }) => disputedAt));
  return { cutoff: newestDispute - horizon, horizonDays: Math.round((horizon / DAY_MS) * 100) / 100 };
}

/**
 * Whether leaving out the payments after `cutoff` keeps at least `MIN_DISPUTES_FOR_MATURITY`
 * disputed payments. When it would not, the delays measured are more likely a batch of disputes
 * sent at once (a backfill stamped with the day it was sent) than how long this account's disputes
 * take, and the cut would leave nothing to learn from: it is not made.
 */
export function keepsEnoughDisputes(disputed: readonly DisputedPayment[], cutoff: number | undefined): boolean {
  if (cutoff === undefined) return false;
  return disputed.filter(({ paidAt }) => paidAt <= cutoff).length >= MIN_DISPUTES_FOR_MATURITY;
}
