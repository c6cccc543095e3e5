/** Realistic request bodies with defaults; tests override only what they are about. */

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

export function customerRequest(overrides: { customer?: Record<string, unknown> } & Record<string, unknown> = {}) {
  const { customer, ...rest } = overrides;
  return {
    timestamp: Date.now(),
    eventType: 'account-update',
    customer: {
      customerId: nextId('cus'),
      registrationTime: Date.now() - 400 * 24 * 3_600_000,
      email: 'ada.lovelace@example.com',
      emailVerifiedTime: Date.now() - 300 * 24 * 3_600_000,
      name: 'Ada Lovelace',
      telephone: '+447700900123',
      telephoneVerifiedTime: Date.now() - 300 * 24 * 3_600_000,
      telephoneCountry: 'GBR',
      tags: { vip: true },
      location: { country: 'GBR', city: 'London', postalCode: 'EC1V 9HX' },
      ...customer,
    },
    ...rest,
  };
}

export function pspTransactionRequest(overrides: { transaction?: Record<string, unknown> } & Record<string, unknown> = {}) {
  const { transaction, ...rest } = overrides;
  return {
    timestamp: Date.now(),
    transaction: {
      transactionId: nextId('tx'),
      type: 'auth',
      amount: 1999,
      currency: 'GBP',
      mcc: '5812',
      success: true,
      gateway: 'acquirer-one',
      ...transaction,
    },
    customer: { customerId: nextId('cus'), email: 'ada.lovelace@example.com' },
    ...rest,
  };
}
