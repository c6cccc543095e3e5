import { transactionChargebacksForCustomers } from './chargebacks';
import type { EntityDocumentRepository, EntityRef } from './entity-document';
import type { EntityUpdate } from './entity-updates';
import { mergeDocument } from './merge-document';

/**
 * Stores a payload's entity updates, each merged field by field at the payload's `timestamp`
 * (compare-and-set, so concurrent writers of one entity apply one after the other). After each
 * write of a transaction's document, the chargebacks recorded on it reach the transaction's
 * customers (`transactionChargebacksForCustomers`): a PSP dispute marks the customer whether it
 * is stored before, with or after its transaction, and storing anything again changes nothing.
 */
export async function storeEntityUpdates(
  documents: EntityDocumentRepository,
  tenant: Pick<EntityRef, 'accountId' | 'environment'>,
  updates: readonly EntityUpdate[],
  timestamp: number,
): Promise<void> {
  for (const { kind, entityId, fields } of updates) {
    const stored = await documents.update({ ...tenant, kind, entityId }, (current) => mergeDocument(current, fields, timestamp));
    if (kind !== 'transaction') continue;
    const chargebacks = transactionChargebacksForCustomers(stored);
    if (chargebacks === undefined) continue;
    for (const customerId of chargebacks.customerIds) await documents.update({ ...tenant, kind: 'customer', entityId: customerId }, chargebacks.merge);
  }
}
