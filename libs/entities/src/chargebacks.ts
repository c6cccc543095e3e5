import type { EntityDocument } from './entity-document';
import { leafPath, mergeDocument } from './merge-document';

/** The parts of a connect chargeback or a PSP dispute that say whether it still counts. */
export interface ChargebackState {
  nonFraud?: unknown;
  outcome?: unknown;
  stage?: unknown;
}

/**
 * ADR-0004: a chargeback makes its customer a fraudster unless it is forgiven: marked
 * `nonFraud: true` (connect chargeback), or won by the merchant / reversed (PSP dispute).
 */
export function isChargebackForgiven(state: ChargebackState): boolean {
  return state.nonFraud === true || state.outcome === 'WON' || state.stage === 'CHARGEBACK_REVERSED';
}

/**
 * The customer record keeps one entry per chargeback, `chargebacks.<id>.forgiven`, merged by
 * timestamp like every field, so the newest state of each chargeback wins and scoring reads
 * one document instead of searching disputes.
 */
export function chargebackEntry(chargebackId: string, state: ChargebackState): Record<string, unknown> {
  return { chargebacks: { [chargebackId]: { forgiven: isChargebackForgiven(state) } } };
}

/** True when any chargeback recorded on the customer is not forgiven. */
export function hasUnforgivenChargeback(customerFields: Record<string, unknown> | undefined): boolean {
  const chargebacks = customerFields?.chargebacks;
  if (typeof chargebacks !== 'object' || chargebacks === null) return false;
  return Object.values(chargebacks).some((entry) => (entry as { forgiven?: unknown })?.forgiven === false);
}

/**
 * A PSP dispute names only its transaction, and the transaction (with its customer) may be
 * stored before or after it. So the dispute records its chargeback on the transaction's
 * document (`chargebacks.<id>.forgiven`, at the dispute's time, by `pspDisputePayloadUpdates`),
 * and whenever a transaction's document is written, everything recorded there is carried to
 * the transaction's customers, each entry at the time it was recorded. Both writes are
 * compare-and-set on the one transaction document, so whichever of the dispute and the
 * transaction is stored second sees the other and carries the chargeback; the per-field merge
 * makes carrying again (a replay, both sides carrying) change nothing.
 *
 * The customers are every one the transaction was stored with (`customerIds`, plus
 * `customerId`, which documents stored before `customerIds` existed have alone), as the graph
 * links a dispute to every customer of its transaction: a set, so the order never matters.
 *
 * The customers and the merge for each one's document; undefined when the transaction has no
 * customer yet or no chargeback.
 */
export function transactionChargebacksForCustomers(
  transaction: EntityDocument | null,
): { customerIds: string[]; merge: (customer: EntityDocument | null) => EntityDocument | null } | undefined {
  const chargebacks = transaction?.fields.chargebacks;
  if (transaction === null || transaction === undefined || typeof chargebacks !== 'object' || chargebacks === null) return undefined;
  const customerIds = transactionCustomerIds(transaction.fields);
  const entries: Array<{ chargebackId: string; forgiven: boolean; timestamp: number }> = [];
  for (const [chargebackId, entry] of Object.entries(chargebacks)) {
    const forgiven = (entry as { forgiven?: unknown } | null)?.forgiven;
    const timestamp = transaction.fieldTimestamps[leafPath('chargebacks', chargebackId, 'forgiven')];
    if (typeof forgiven === 'boolean' && typeof timestamp === 'number') entries.push({ chargebackId, forgiven, timestamp });
  }
  if (customerIds.length === 0 || entries.length === 0) return undefined;
  return {
    customerIds,
    merge: (customer) => {
      let merged: EntityDocument | null = null;
      for (const { chargebackId, forgiven, timestamp } of entries) {
        merged = mergeDocument(merged ?? customer, { chargebacks: { [chargebackId]: { forgiven } } }, timestamp) ?? merged;
      }
      return merged;
    },
  };
}

/** `customerId` and every key of `customerIds` set true, once each. */
function transactionCustomerIds(fields: Record<string, unknown>): string[] {
  const ids = new Set<string>();
  if (typeof fields.customerId === 'string' && fields.customerId.length > 0) ids.add(fields.customerId);
  const known = fields.customerIds;
  if (typeof known === 'object' && known !== null) {
    for (const [customerId, present] of Object.entries(known)) if (present === true && customerId.length > 0) ids.add(customerId);
  }
  return [...ids];
}
