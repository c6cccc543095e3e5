import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CustomerUpdatedEvent,
  EventTopics,
  PAYLOAD_ROUTE_LIST,
  PayoutRequestedEvent,
  RefundRequestedEvent,
  RegistrationSubmittedEvent,
  TransactionUpdatedEvent,
  VoucherRedemptionSubmittedEvent,
  normaliseTimestamps,
} from '@ringfence/contracts';
import { voucherRedemptionId } from '@ringfence/entities';
import { plainToInstance } from 'class-transformer';
import { VELOCITY_TOPICS, type VelocityEvent, merchantOfEvent, velocityEventOf } from './velocity-events';

const FIXTURES = join(__dirname, '../../../../test/contracts/fixtures');
const T = 1_763_800_000_000;

/** A golden valid request body as the ingest topic carries it: through its event class, times in ms, wire JSON. */
function fixture(slug: string, name: string, eventClass: new () => object, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { body } = JSON.parse(readFileSync(join(FIXTURES, slug, 'valid', `${name}.json`), 'utf8')) as { body: object };
  return { ...(JSON.parse(JSON.stringify(normaliseTimestamps(plainToInstance(eventClass, body)))) as Record<string, unknown>), ...extra };
}

const eventOf = (topic: string, payload: Record<string, unknown>): VelocityEvent | null => velocityEventOf(topic, payload, 'evt-1');

describe(velocityEventOf.name, () => {
  it('reads exactly the checkpoints’ ingest topics of the payload table', () => {
    const checkpointTopics = PAYLOAD_ROUTE_LIST.filter((route) => 'checkpoint' in route).map((route) => route.ingestTopic);
    expect([...VELOCITY_TOPICS].sort()).toEqual([...checkpointTopics].sort());
    expect(eventOf(EventTopics.supplierUpdated, { timestamp: T, supplier: { supplierId: 's1' } })).toBeNull();
    expect(eventOf(EventTopics.connectLinked, { timestamp: T, customerId: 'c1' })).toBeNull();
  });

  it('takes a PSP transaction’s customer, card, device, IP, e-mail, phone and merchant, and the transaction as an occurrence', () => {
    expect(eventOf(EventTopics.transactionUpdated, fixture('psp-transaction', 'full', TransactionUpdatedEvent))).toEqual({
      eventId: 'evt-1',
      timestampMillis: T,
      keys: {
        customer: 'cus-61213',
        cards: ['inst-9f2c61d0'],
        device: 'dev-4f1c',
        email: 'ada@example.com',
        phone: '+447700900123',
        ipAddress: '203.0.113.7',
        merchant: '000000123456789',
      },
      occurrence: { kind: 'transaction', id: 'tx-0001', counts: true, failed: true, amount: { minorUnits: 2447, currency: 'GBP' } },
    });
  });

  it('names no key a minimal transaction lacks, and tells refund steps and failures from attempts', () => {
    const minimal = eventOf(EventTopics.transactionUpdated, fixture('psp-transaction', 'minimal', TransactionUpdatedEvent));
    expect(minimal?.keys).toEqual({ cards: [] });
    expect(minimal?.occurrence).toEqual({ kind: 'transaction', id: 'tx-0001', counts: true, failed: false });
    const step = (transaction: Record<string, unknown>) => eventOf(EventTopics.transactionUpdated, { timestamp: T, transaction: { transactionId: 't', ...transaction } })?.occurrence;
    expect(step({ type: 'Refund' })?.counts).toBe(false);
    expect(step({ type: 'capture' })?.counts).toBe(true);
    expect(step({ success: false })?.failed).toBe(true);
    expect(step({ success: true, declineCode: ' ' })?.failed).toBe(false);
  });

  it('normalises the values the graph and lookup normalise: e-mail, telephone with its country, IP address', () => {
    const event = eventOf(EventTopics.customerUpdated, {
      timestamp: T,
      customer: { customerId: 'c1', email: '  Ada@Example.COM ', telephone: '07700 900123', telephoneCountry: 'GBR' },
      device: { deviceId: 'd1', ipAddress: '::FFFF:203.0.113.7' },
    });
    expect(event?.keys).toEqual({ customer: 'c1', cards: [], device: 'd1', ipAddress: '203.0.113.7', email: 'ada@example.com', phone: '+447700900123' });
    const unreadableCountry = eventOf(EventTopics.customerUpdated, { timestamp: T, customer: { customerId: 'c1', telephone: '+44 7700 900123', telephoneCountry: 'Narnia' } });
    expect(unreadableCountry?.keys.phone).toBe('+447700900123');
  });

  it('takes a customer update’s customer with its device (object or bare id), and no occurrence', () => {
    expect(eventOf(EventTopics.customerUpdated, fixture('customer', 'full', CustomerUpdatedEvent))).toEqual({
      eventId: 'evt-1',
      timestampMillis: T,
      keys: { customer: 'cus-61213', cards: [], device: 'dev-4f1c', ipAddress: '203.0.113.7', email: 'ada.lovelace@example.com', phone: '+447700900123' },
    });
    expect(eventOf(EventTopics.customerUpdated, fixture('customer', 'device-id', CustomerUpdatedEvent))?.keys).toMatchObject({ customer: 'cus-61213', device: 'dev-4f1c' });
  });

  it('takes a refund’s customer, cards, device, contacts and merchant, and its amount in the refund’s currency', () => {
    expect(eventOf(EventTopics.refundRequested, fixture('refund', 'full', RefundRequestedEvent))).toMatchObject({
      keys: { customer: 'cus-61213', cards: ['inst-9f2c61d0'], device: 'dev-4f1c', ipAddress: '203.0.113.7', merchant: '000000123456789' },
      occurrence: { kind: 'refund', id: 'rfd-10442', counts: true, failed: false, amount: { minorUnits: 7000, currency: 'GBP' } },
    });
  });

  it('takes a payout’s card and its net amount', () => {
    expect(eventOf(EventTopics.payoutRequested, fixture('payout', 'card-full', PayoutRequestedEvent))).toMatchObject({
      keys: { cards: ['inst-9f2c61d0'] },
      occurrence: { kind: 'payout', id: 'pay-2025-11-0193', amount: { minorUnits: 131800, currency: 'GBP' } },
    });
  });

  it('counts a supplier’s registration for its device, IP and contacts, but not as a customer', () => {
    const registration = (name: string) => eventOf(EventTopics.registrationSubmitted, fixture('registration', name, RegistrationSubmittedEvent, { registrationId: 'reg_1' }));
    expect(registration('full-customer')).toMatchObject({ keys: { customer: 'cus-61213', device: 'dev-4f1c', email: 'ada.lovelace@example.com' }, occurrence: { kind: 'registration', id: 'reg_1' } });
    const supplier = registration('full-supplier');
    expect(supplier?.keys.customer).toBeUndefined();
    expect(supplier?.keys).toMatchObject({ device: 'dev-4f1c', email: 'alan.turing@couriers.example', phone: '+447700900456' });
  });

  it('identifies a voucher redemption as ingestion stores it: customer, code and redemption time', () => {
    expect(eventOf(EventTopics.voucherRedemptionSubmitted, fixture('voucher-redemption', 'customer-id', VoucherRedemptionSubmittedEvent))).toMatchObject({
      keys: { customer: 'ada.lovelace@example.com', cards: [] },
      occurrence: { kind: 'voucherRedemption', id: voucherRedemptionId('ada.lovelace@example.com', 'WELCOME-ADA-25', T), counts: true },
    });
  });

  it('answers null for a payload without a time', () => {
    expect(eventOf(EventTopics.customerUpdated, { customer: { customerId: 'c1' } })).toBeNull();
  });
});

describe(merchantOfEvent.name, () => {
  it('names the merchant velocity keys: a transaction’s mid, a refund’s first transaction with one; none elsewhere', () => {
    expect(merchantOfEvent(EventTopics.transactionUpdated, fixture('psp-transaction', 'full', TransactionUpdatedEvent))).toBe('000000123456789');
    expect(merchantOfEvent(EventTopics.transactionUpdated, fixture('psp-transaction', 'minimal', TransactionUpdatedEvent))).toBeUndefined();
    expect(merchantOfEvent(EventTopics.refundRequested, { timestamp: T, transactions: [{ transactionId: 't1' }, { transactionId: 't2', mid: 'm2' }, { mid: 'm3' }] })).toBe('m2');
    expect(merchantOfEvent(EventTopics.customerUpdated, { timestamp: T, customer: { customerId: 'c1' } })).toBeUndefined();
    expect(merchantOfEvent(EventTopics.supplierUpdated, { timestamp: T, transaction: { mid: 'm1' } })).toBeUndefined();
  });
});

describe('blank identifiers', () => {
  it('take a device id of spaces as no device, bare or in the device object (as entities and the graph do)', () => {
    expect(eventOf(EventTopics.customerUpdated, { timestamp: T, customer: { customerId: 'c1' }, deviceId: '   ' })?.keys.device).toBeUndefined();
    expect(eventOf(EventTopics.customerUpdated, { timestamp: T, customer: { customerId: 'c1' }, device: { deviceId: ' ' } })?.keys.device).toBeUndefined();
    expect(eventOf(EventTopics.customerUpdated, { timestamp: T, customer: { customerId: '  ' }, deviceId: 'd1' })?.keys).toMatchObject({ customer: undefined, device: 'd1' });
  });
});
