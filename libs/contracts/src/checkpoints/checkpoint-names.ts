/**
 * The one list of checkpoints, for the server and the console alike. This file imports nothing,
 * so the browser console bundles it as it is (`@ringfence/contracts/checkpoints`).
 */

/** The checkpoints scoring answers, in the payload table's order (`PAYLOAD_ROUTES` has a row for each): score thresholds are set per checkpoint. */
export const CHECKPOINTS = ['customer', 'registration', 'payout', 'refund', 'voucherRedemption', 'transaction'] as const;
export type CheckpointName = (typeof CHECKPOINTS)[number];

/** The PSP transaction checkpoint is two: before and after authorisation (the `checkpoint` query parameter of /psp/transaction). */
export const PSP_CHECKPOINTS = ['pspBeforeAuth', 'pspAfterAuth'] as const;
export type PspCheckpoint = (typeof PSP_CHECKPOINTS)[number];

/**
 * ADR-0011: the checkpoints a rule can be written for, as rules, models and decision lists
 * name them: the PSP transaction's by where it was sent.
 */
export const RULE_CHECKPOINTS = ['customer', 'voucherRedemption', 'registration', 'refund', 'payout', ...PSP_CHECKPOINTS] as const;
export type RuleCheckpoint = (typeof RULE_CHECKPOINTS)[number];

/** The scoring checkpoint a rule checkpoint runs at: both PSP ones are the transaction checkpoint. */
export function scoringCheckpointOf(checkpoint: RuleCheckpoint): CheckpointName {
  return checkpoint === 'pspBeforeAuth' || checkpoint === 'pspAfterAuth' ? 'transaction' : checkpoint;
}
