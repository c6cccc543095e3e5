import { LegacyTransactionRequestDto, PspCustomerDto, PspTransactionDto } from '@ringfence/contracts';
import { removedTagMap, tagMapOf, transactionEvent } from './legacy-v2-payloads';

function legacyTransaction(overrides: Partial<LegacyTransactionRequestDto> = {}): LegacyTransactionRequestDto {
  return Object.assign(new LegacyTransactionRequestDto(), { timestamp: 1_763_800_000_000, transaction: Object.assign(new PspTransactionDto(), { transactionId: 'tx-1' }), ...overrides });
}

describe('legacy v2 payload mapping', () => {
  it('tagMapOf: tagNames set true, and `tags` wins for a name in both', () => {
    expect(tagMapOf({ tagNames: ['vip', 'staff'], tags: { staff: false, beta: true } })).toEqual({ vip: true, staff: false, beta: true });
  });

  it('tagMapOf and removedTagMap keep a tag named "__proto__" as a tag', () => {
    expect(Object.keys(tagMapOf({ tagNames: ['__proto__'] }))).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(removedTagMap(['__proto__']))).toBe(Object.prototype);
    expect(Object.keys(removedTagMap(['__proto__', 'vip']))).toEqual(['__proto__', 'vip']);
  });

  it('transactionEvent: the top-level customerId becomes the PSP customer and orderId the order, neither stays at the top level', () => {
    const event = transactionEvent(legacyTransaction({ customerId: 'cus-1', orderId: 'ord-1' }));
    expect(event.customer).toBeInstanceOf(PspCustomerDto);
    expect(JSON.parse(JSON.stringify(event))).toEqual({ timestamp: 1_763_800_000_000, transaction: { transactionId: 'tx-1' }, customer: { customerId: 'cus-1' }, order: { orderId: 'ord-1' } });
  });

  it('transactionEvent: without them, the PSP body is passed through as sent', () => {
    const customer = Object.assign(new PspCustomerDto(), { customerId: 'cus-2', email: 'ada@example.com' });
    expect(transactionEvent(legacyTransaction({ customer }))).toEqual({ timestamp: 1_763_800_000_000, transaction: { transactionId: 'tx-1' }, customer });
  });
});
