import { customerPayloadUpdates, pspTransactionPayloadUpdates } from './entity-updates';

const T = 1_763_800_000_000;

/** The order the original service's /v2/order, /v2/checkout and /v2/transaction carry (docs/api.md, "Other v2 paths"). */
describe('orders inside customer and PSP transaction payloads', () => {
  it('a customer payload with an order stores the order with its customer', () => {
    const updates = customerPayloadUpdates({ timestamp: T, customer: { customerId: 'cus-1' }, deviceId: 'dev-1', order: { orderId: 'ord-1', price: 2447 } });
    expect(updates).toEqual([
      { kind: 'customer', entityId: 'cus-1', fields: { lastDeviceId: 'dev-1' } },
      { kind: 'order', entityId: 'ord-1', fields: { price: 2447, customerId: 'cus-1' } },
    ]);
  });

  it('a PSP transaction with an order stores the order apart and the orderId on the transaction, not the order itself', () => {
    const updates = pspTransactionPayloadUpdates({ timestamp: T, transaction: { transactionId: 'tx-1', amount: 1999 }, customer: { customerId: 'cus-1' }, order: { orderId: 'ord-1', currency: 'GBP' } });
    expect(updates).toContainEqual({ kind: 'order', entityId: 'ord-1', fields: { currency: 'GBP', customerId: 'cus-1' } });
    const transaction = updates.find((update) => update.kind === 'transaction')!;
    expect(transaction.fields).toMatchObject({ orderId: 'ord-1', customerId: 'cus-1', amount: 1999 });
    expect(transaction.fields).not.toHaveProperty('order');
  });

  it('an order without an orderId is not stored (nothing to upsert it by)', () => {
    expect(customerPayloadUpdates({ timestamp: T, customer: { customerId: 'cus-1' }, order: { price: 1 } }).map((update) => update.kind)).toEqual(['customer']);
  });
});
