import fc from 'fast-check';
import { hasUnforgivenChargeback, transactionChargebacksForCustomers } from './chargebacks';
import { type EntityUpdate, pspDisputePayloadUpdates, pspTransactionPayloadUpdates, refundPayloadUpdates } from './entity-updates';
import { mergeDocument } from './merge-document';
import { storeEntityUpdates } from './store-entity-updates';
import { InMemoryEntityDocuments } from './test-support/in-memory-entity-documents';

const T = 1_763_800_000_000;
const TENANT = { accountId: 'acc_1', environment: 'test' as const };

interface Payload {
  timestamp: number;
  updates: EntityUpdate[];
}

const transaction = (transactionId: string, customerId: string, timestamp = T): Payload => ({
  timestamp,
  updates: pspTransactionPayloadUpdates({ timestamp, transaction: { transactionId, amount: 100 }, customer: { customerId } }),
});
const dispute = (disputeId: string, transactionId: string, state: Record<string, unknown>, timestamp = T): Payload => ({
  timestamp,
  updates: pspDisputePayloadUpdates({ timestamp, dispute: { disputeId, transactionId, ...state } }),
});

async function storeInOrder(payloads: readonly Payload[], documents = new InMemoryEntityDocuments()): Promise<InMemoryEntityDocuments> {
  for (const { updates, timestamp } of payloads) await storeEntityUpdates(documents, TENANT, updates, timestamp);
  return documents;
}

const customerFields = (documents: InMemoryEntityDocuments, customerId: string) => documents.snapshot()[`customer:${customerId}`]?.fields;

describe(storeEntityUpdates.name, () => {
  it('marks the transaction’s customer whether the dispute is stored before or after the transaction', async () => {
    const payloads = [transaction('t1', 'c1'), dispute('d1', 't1', { stage: 'CHARGEBACK' }, T + 1)];
    for (const order of [payloads, [...payloads].reverse()]) {
      const documents = await storeInOrder(order);
      expect(customerFields(documents, 'c1')).toEqual({ chargebacks: { d1: { forgiven: false } } });
      expect(hasUnforgivenChargeback(customerFields(documents, 'c1'))).toBe(true);
      // The dispute stays on its transaction, and names no customer itself.
      expect(documents.snapshot()['transaction:t1'].fields).toMatchObject({ customerId: 'c1', customerIds: { c1: true }, chargebacks: { d1: { forgiven: false } } });
      expect(documents.snapshot()['dispute:d1'].fields).toEqual({ transactionId: 't1', stage: 'CHARGEBACK' });
    }
  });

  it('lets a later forgiving state win in any order, and marks nobody else', async () => {
    const payloads = [
      transaction('t1', 'c1'),
      dispute('d1', 't1', { stage: 'CHARGEBACK', outcome: 'LOST' }, T + 1),
      dispute('d1', 't1', { stage: 'CHARGEBACK', outcome: 'WON' }, T + 2),
      transaction('t2', 'c2'),
    ];
    for (const order of [payloads, [...payloads].reverse(), [payloads[2], payloads[0], payloads[1], payloads[3]]]) {
      const documents = await storeInOrder(order);
      expect(customerFields(documents, 'c1')).toEqual({ chargebacks: { d1: { forgiven: true } } });
      expect(customerFields(documents, 'c2')).toEqual({});
    }
  });

  it('reaches the customer of a transaction known only from a refund’s transaction records', async () => {
    const refund = { timestamp: T, updates: refundPayloadUpdates({ timestamp: T, customer: { customerId: 'c1' }, transactions: [{ transactionId: 't1', amount: 5 }] }) };
    const documents = await storeInOrder([dispute('d1', 't1', {}, T + 1), refund]);
    expect(hasUnforgivenChargeback(customerFields(documents, 'c1'))).toBe(true);
  });

  it('carries the chargebacks again after a crash between the transaction’s write and the customer’s (the redelivery writes the customer)', async () => {
    const documents = await storeInOrder([dispute('d1', 't1', {}, T + 1)]);
    // The transaction's document written, the process gone before the customer's.
    const transactionUpdate = transaction('t1', 'c1').updates.find((update) => update.kind === 'transaction')!;
    await documents.update({ ...TENANT, kind: transactionUpdate.kind, entityId: transactionUpdate.entityId }, (current) => mergeDocument(current, transactionUpdate.fields, T));
    expect(customerFields(documents, 'c1')).toBeUndefined();

    await storeInOrder([transaction('t1', 'c1')], documents);

    expect(hasUnforgivenChargeback(customerFields(documents, 'c1'))).toBe(true);
  });

  it('stores the same documents whatever the order and interleaving of transactions and disputes, and replays change nothing', async () => {
    const state = fc.constantFrom<Record<string, unknown>>({}, { stage: 'CHARGEBACK' }, { outcome: 'WON' }, { stage: 'CHARGEBACK_REVERSED' }, { outcome: 'LOST' });
    const payloads = fc
      .tuple(
        fc.array(fc.tuple(fc.constantFrom('t1', 't2'), fc.constantFrom('c1', 'c2'), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.constantFrom('d1', 'd2', 'd3'), fc.constantFrom('t1', 't2', 't3'), state, fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 5 }),
      )
      .map(([transactions, disputes]) => [
        ...transactions.map(([transactionId, customerId, step]) => transaction(transactionId, customerId, T + step)),
        ...disputes.map(([disputeId, transactionId, fields, step]) => dispute(disputeId, transactionId, fields, T + step)),
      ]);
    await fc.assert(
      fc.asyncProperty(payloads, fc.scheduler(), fc.func(fc.integer()), fc.array(fc.nat()), async (list, scheduler, shuffleKey, replays) => {
        const expected = (await storeInOrder(list)).snapshot();
        const shuffled = [...list].sort((a, b) => shuffleKey(a) - shuffleKey(b));
        const redelivered = [...shuffled, ...replays.map((index) => shuffled[index % shuffled.length])];
        // Every payload handled at once, reads and writes interleaved by the scheduler (as
        // ingestion's lanes do for different topics).
        const documents = new InMemoryEntityDocuments(() => scheduler.schedule(Promise.resolve()));
        const all = Promise.all(redelivered.map(({ updates, timestamp }) => storeEntityUpdates(documents, TENANT, updates, timestamp)));
        await scheduler.waitFor(all);
        await all;

        expect(documents.snapshot()).toEqual(expected);
        // Every dispute of a transaction reached every customer the transaction was stored with
        // (with the newest state of the chargeback, which another transaction may have given).
        for (const document of Object.values(expected)) {
          const carried = transactionChargebacksForCustomers(document);
          for (const customerId of carried?.customerIds ?? []) {
            expect(Object.keys(expected[`customer:${customerId}`].fields.chargebacks as object)).toEqual(expect.arrayContaining(Object.keys(document.fields.chargebacks as object)));
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe(transactionChargebacksForCustomers.name, () => {
  it('needs a customer and a chargeback, and carries each chargeback at the time it was recorded to every customer', () => {
    expect(transactionChargebacksForCustomers(null)).toBeUndefined();
    const lost = mergeDocument(null, { chargebacks: { d1: { forgiven: false } } }, T)!;
    expect(transactionChargebacksForCustomers(lost)).toBeUndefined();
    // customerId alone (a document stored before customerIds existed) counts too.
    const owned = mergeDocument(mergeDocument(lost, { customerId: 'c1', customerIds: { c2: true } }, T + 5)!, { chargebacks: { 'a/b~c': { forgiven: true } } }, T + 2)!;
    const carried = transactionChargebacksForCustomers(owned)!;
    expect(carried.customerIds).toEqual(['c1', 'c2']);
    const customer = carried.merge(null)!;
    expect(customer.fields).toEqual({ chargebacks: { d1: { forgiven: false }, 'a/b~c': { forgiven: true } } });
    expect(customer.fieldTimestamps).toEqual({ '/chargebacks/d1/forgiven': T, '/chargebacks/a~1b~0c/forgiven': T + 2 });
    // A newer state already on the customer stays; carrying again changes nothing.
    const newer = mergeDocument(customer, { chargebacks: { d1: { forgiven: true } } }, T + 9)!;
    expect(carried.merge(newer)).toBeNull();
  });
});
