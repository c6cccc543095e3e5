import fc from 'fast-check';
import type { EntityDocument } from './entity-document';
import {
  type EntityUpdate,
  connectPayloadUpdates,
  customerPayloadUpdates,
  payoutPayloadUpdates,
  pspDisputePayloadUpdates,
  pspTransactionPayloadUpdates,
  refundPayloadUpdates,
  registrationPayloadUpdates,
  voucherRedemptionPayloadUpdates,
} from './entity-updates';
import { hasUnforgivenChargeback } from './chargebacks';
import { mergeDocument } from './merge-document';

const T = 1_763_800_000_000;
const keyOf = (update: EntityUpdate) => `${update.kind}:${update.entityId}`;

/** Applies payloads' updates to an in-memory store, as ingestion does to the database. */
function applyAll(batches: Array<{ updates: EntityUpdate[]; timestamp: number }>): Map<string, EntityDocument> {
  const store = new Map<string, EntityDocument>();
  for (const { updates, timestamp } of batches) {
    for (const update of updates) {
      const next = mergeDocument(store.get(keyOf(update)) ?? null, update.fields, timestamp);
      if (next) store.set(keyOf(update), next);
    }
  }
  return store;
}

describe('entity updates of each payload', () => {
  it('keeps a refund with its customer, order, payment methods and refund transactions, each by id', () => {
    const updates = refundPayloadUpdates({
      timestamp: T,
      customer: { customerId: 'c1', email: 'a@b.c' },
      refund: { refundId: 'r1', amount: 500 },
      order: { orderId: 'o1', price: 1000 },
      paymentMethods: [{ methodType: 'card', paymentMethodId: 'pm1' }],
      transactions: [{ transactionId: 't1', amount: 500, type: 'refund' }],
      device: { deviceId: 'd1', os: 'iOS' },
    });
    expect(updates.map(keyOf).sort()).toEqual(['customer:c1', 'device:d1', 'order:o1', 'paymentMethod:pm1', 'refund:r1', 'transaction:t1']);
    expect(updates.find((u) => u.kind === 'refund')?.fields).toMatchObject({ customerId: 'c1', orderId: 'o1', paymentMethodIds: ['pm1'] });
    expect(updates.find((u) => u.kind === 'paymentMethod')?.fields).toMatchObject({ customerId: 'c1', methodType: 'card' });
  });

  it('keeps a payout with its supplier and the methods it goes to', () => {
    const updates = payoutPayloadUpdates({
      payout: { payoutId: 'p1', earnings: { totalNetAmount: 900 } },
      supplier: { supplierId: 's1' },
      paymentMethod: { methodType: 'bankAccount', paymentMethodId: 'pm9' },
    });
    expect(updates.map(keyOf).sort()).toEqual(['paymentMethod:pm9', 'payout:p1', 'supplier:s1']);
    expect(updates.find((u) => u.kind === 'paymentMethod')?.fields).toMatchObject({ supplierId: 's1' });
  });

  it('keeps a registration under the id the gateway assigned, linked to who registered', () => {
    const updates = registrationPayloadUpdates({
      registrationId: 'reg1',
      registration: { username: 'ada', success: true },
      customer: { customerId: 'c1' },
      device: { deviceId: 'd1' },
    });
    expect(updates.find((u) => u.kind === 'registration')).toEqual({
      kind: 'registration',
      entityId: 'reg1',
      fields: { username: 'ada', success: true, customerId: 'c1', deviceId: 'd1' },
    });
  });

  it('keeps updates of one transaction together with its 3-D Secure result, card and device', () => {
    const updates = pspTransactionPayloadUpdates({
      timestamp: T,
      transaction: { transactionId: 't1', amount: 100 },
      threeds: { liabilityShifted: true },
      paymentMethod: { instrumentId: 'ins1', lastFour: '4242' },
      customer: { customerId: 'c1' },
      device: { deviceId: 'd1' },
    });
    expect(updates.map(keyOf).sort()).toEqual(['customer:c1', 'device:d1', 'paymentMethod:ins1', 'transaction:t1']);
    expect(updates.find((u) => u.kind === 'transaction')?.fields).toMatchObject({ threeds: { liabilityShifted: true }, customerId: 'c1', deviceId: 'd1' });
  });

  it('counts a replayed redemption once: same customer, code and time is the same record', () => {
    const payload = { timestamp: T, customerId: 'c1', voucherRedemption: { voucherCode: 'V', redemptionTime: T - 5 } };
    expect(voucherRedemptionPayloadUpdates(payload).map(keyOf)).toEqual(voucherRedemptionPayloadUpdates({ ...payload, timestamp: T + 9 }).map(keyOf));
  });

  it('marks the customer of a chargeback until the chargeback is forgiven, newest state winning', () => {
    const lost = connectPayloadUpdates({ customerId: 'c1', chargeback: { chargebackId: 'cb1', status: 'LOST' } });
    const forgiven = connectPayloadUpdates({ customerId: 'c1', chargeback: { chargebackId: 'cb1', nonFraud: true } });
    const customer = (store: Map<string, EntityDocument>) => store.get('customer:c1')?.fields;
    expect(hasUnforgivenChargeback(customer(applyAll([{ updates: lost, timestamp: T }])))).toBe(true);
    expect(hasUnforgivenChargeback(customer(applyAll([{ updates: lost, timestamp: T }, { updates: forgiven, timestamp: T + 1 }])))).toBe(false);
    // The forgiveness arriving first does not let the older "lost" state win.
    expect(hasUnforgivenChargeback(customer(applyAll([{ updates: forgiven, timestamp: T + 1 }, { updates: lost, timestamp: T }])))).toBe(false);
  });

  it('records a PSP dispute on the transaction it names, never on a customer (it names none)', () => {
    const updates = pspDisputePayloadUpdates({ timestamp: T, dispute: { disputeId: 'd1', transactionId: 't1', stage: 'CHARGEBACK', outcome: 'WON', amount: 5 } });
    expect(updates).toEqual([
      { kind: 'dispute', entityId: 'd1', fields: { transactionId: 't1', stage: 'CHARGEBACK', outcome: 'WON', amount: 5 } },
      { kind: 'transaction', entityId: 't1', fields: { chargebacks: { d1: { forgiven: true } } } },
    ]);
    expect(pspDisputePayloadUpdates({ timestamp: T, dispute: { disputeId: 'd1' } })).toEqual([{ kind: 'dispute', entityId: 'd1', fields: {} }]);
  });

  it('gives the same store whatever order payloads arrive in, and replays change nothing', () => {
    const refund = fc.record({
      timestamp: fc.integer({ min: T, max: T + 1000 }),
      customer: fc.record({ customerId: fc.constantFrom('c1', 'c2'), email: fc.constantFrom('a@x.io', 'b@x.io'), name: fc.string({ maxLength: 3 }) }),
      refund: fc.record({ refundId: fc.constantFrom('r1', 'r2'), amount: fc.nat(1000), status: fc.constantFrom('OPEN', 'CLOSED') }),
      order: fc.record({ orderId: fc.constantFrom('o1', 'o2'), price: fc.nat(1000) }),
    });
    fc.assert(
      fc.property(fc.array(refund, { minLength: 1, maxLength: 8 }), fc.func(fc.integer()), (payloads, shuffleKey) => {
        const batches = payloads.map((payload) => ({ updates: refundPayloadUpdates(payload), timestamp: payload.timestamp }));
        const shuffled = [...batches].sort((a, b) => shuffleKey(a) - shuffleKey(b));
        const inOrder = applyAll(batches);
        expect(applyAll(shuffled)).toEqual(inOrder);
        expect(applyAll([...batches, ...batches])).toEqual(inOrder);
      }),
    );
  });
});

describe('blank identifiers', () => {
  it('takes a device id of spaces as no device (as the graph and velocity do): no device record, no lastDeviceId', () => {
    const payload = { timestamp: T, customer: { customerId: 'c1' }, device: { deviceId: '   ', ipAddress: '203.0.113.7' } };
    expect(customerPayloadUpdates(payload)).toEqual([{ kind: 'customer', entityId: 'c1', fields: {} }]);
    expect(customerPayloadUpdates({ timestamp: T, customer: { customerId: '  ' }, deviceId: ' ' })).toEqual([]);
  });
});
