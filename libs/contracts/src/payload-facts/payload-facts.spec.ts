import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { PAYLOAD_ROUTES } from '../messages/payload-routes';
import { normaliseTimestamps } from '../validation/timestamp-fields';
import { payloadFacts } from './payload-facts';
import type { PayloadFacts } from './payload-facts.types';
import { namedText } from './payload-values';

const FIXTURES = join(__dirname, '../../../../test/contracts/fixtures');
const T = 1_763_800_000_000;

const SLUGS: Record<keyof typeof PAYLOAD_ROUTES, string> = {
  customer: 'customer',
  registration: 'registration',
  payout: 'payout',
  refund: 'refund',
  voucherRedemption: 'voucher-redemption',
  transaction: 'psp-transaction',
  supplier: 'supplier',
  voucher: 'voucher',
  dispute: 'psp-dispute',
  connect: 'connect',
};

/** A golden valid body as its ingest topic carries it: through the topic's payload class, times in ms, wire JSON. */
function fixture(route: keyof typeof PAYLOAD_ROUTES, name: string): Record<string, unknown> {
  const payloadClass: new () => object = PAYLOAD_ROUTES[route].payloadClass;
  const { body } = JSON.parse(readFileSync(join(FIXTURES, SLUGS[route], 'valid', `${name}.json`), 'utf8')) as { body: object };
  return JSON.parse(JSON.stringify(normaliseTimestamps(plainToInstance(payloadClass, body)))) as Record<string, unknown>;
}

/** The named facts of a payload, without the objects kept as sent, so a table row reads at a glance. */
function named(facts: PayloadFacts) {
  return {
    timestampMs: facts.timestampMs,
    customerId: facts.customerId,
    supplierId: facts.supplier?.id,
    email: facts.customer?.email ?? facts.supplier?.email,
    deviceId: facts.device.id,
    ipAddress: facts.device.ipAddress,
    instrumentIds: [facts.paymentMethod, ...facts.paymentMethods, ...facts.connectCards].map((method) => method?.instrumentId).filter(Boolean),
    merchantId: facts.merchantId,
    money: facts.money,
    transactionId: facts.transaction?.id,
    orderId: facts.order?.id,
    disputeId: facts.dispute?.id,
  };
}

describe(payloadFacts.name, () => {
  it.each([
    ['customer', 'full', { customerId: 'cus-61213', email: 'ada.lovelace@example.com', deviceId: 'dev-4f1c', ipAddress: '203.0.113.7' }],
    ['transaction', 'full', { customerId: 'cus-61213', deviceId: 'dev-4f1c', ipAddress: '203.0.113.7', instrumentIds: ['inst-9f2c61d0'], merchantId: '000000123456789', money: { minorUnits: 2447, currency: 'GBP' }, transactionId: 'tx-0001' }],
    ['dispute', 'full', { disputeId: 'dsp-20251122-0042' }],
    ['connect', 'full', { customerId: 'cus-61213', instrumentIds: ['ins-7d1f0c9a', 'ins-00ab12cd'] }],
    ['payout', 'card-full', { supplierId: 'sup-driver-0917' }],
  ] as const)('reads the %s payload (%s)', (route, name, expected) => {
    expect(named(payloadFacts(fixture(route, name)))).toMatchObject({ timestampMs: T, ...expected });
  });

  it('reads a payload of every topic of the payload table', () => {
    for (const route of Object.keys(PAYLOAD_ROUTES) as Array<keyof typeof PAYLOAD_ROUTES>) {
      expect(payloadFacts(fixture(route, route === 'voucherRedemption' ? 'customer-id' : 'minimal')).timestampMs).toBe(T);
    }
  });

  it('takes an empty or space-only string as naming nothing, and keeps a named one as sent', () => {
    expect([namedText(''), namedText('   '), namedText('\t\n'), namedText(' a '), namedText(7)]).toEqual([undefined, undefined, undefined, ' a ', undefined]);
    const facts = payloadFacts({
      timestamp: T,
      customerId: '  ',
      customer: { customerId: 'c1', email: ' ', telephone: '' },
      deviceId: '   ',
      device: { deviceId: 'd1', ipAddress: '  ' },
      transaction: { transactionId: ' ', mid: '' },
      paymentMethod: { instrumentId: '   ' },
    });
    expect(facts).toMatchObject({ customerId: 'c1', customer: { id: 'c1', email: undefined, telephone: undefined }, device: { id: 'd1', ipAddress: undefined } });
    expect([facts.transaction?.id, facts.merchantId, facts.paymentMethod?.instrumentId]).toEqual([undefined, undefined, undefined]);
  });

  it('takes a device of spaces as no device, whether sent bare or in the device object', () => {
    expect(payloadFacts({ timestamp: T, deviceId: '   ' }).device.id).toBeUndefined();
    expect(payloadFacts({ timestamp: T, device: { deviceId: '  ' } }).device).toEqual({ id: undefined, ipAddress: undefined, userAgent: undefined, fields: { deviceId: '  ' } });
  });

  it('reads nested payment methods: connect cards inside paymentMethods[].card, payout methods single and listed', () => {
    const connect = payloadFacts({ timestamp: T, paymentMethods: [{ card: { paymentMethodId: 'pm-1', instrumentId: 'ins-1', countryIssued: 'GBR' } }, { card: 'x' }, 3] });
    expect(connect.connectCards).toEqual([expect.objectContaining({ paymentMethodId: 'pm-1', instrumentId: 'ins-1', countryIssued: 'GBR' })]);
    expect(connect.paymentMethods.map((method) => method.instrumentId)).toEqual([undefined]);
    const payout = payloadFacts({ timestamp: T, paymentMethod: { methodType: 'card', instrumentId: 'ins-1' }, paymentMethods: [{ methodType: 'cash' }, null] });
    expect([payout.paymentMethod?.instrumentId, payout.paymentMethods.map((method) => method.methodType)]).toEqual(['ins-1', ['cash']]);
  });

  it('reads the alternative field shapes: a top-level customerId or deviceId, a refund in its order’s currency', () => {
    expect(payloadFacts({ timestamp: T, deviceId: 'bare', device: { ipAddress: '203.0.113.7' } }).device).toMatchObject({ id: 'bare', ipAddress: '203.0.113.7' });
    expect(payloadFacts({ timestamp: T, customerId: 'top', customer: { customerId: 'inner' } }).customerId).toBe('top');
    expect(payloadFacts({ timestamp: T, refund: { amount: 500 }, order: { currency: 'EUR' } }).money).toEqual({ minorUnits: 500, currency: 'EUR' });
    expect(payloadFacts({ timestamp: T, refund: { amount: 500, currency: 'GBP' }, order: { currency: 'EUR' } }).money).toEqual({ minorUnits: 500, currency: 'GBP' });
  });

  it('names the merchant of a refund by its first transaction with a mid', () => {
    expect(payloadFacts({ timestamp: T, transactions: [{ transactionId: 't1' }, { mid: ' ' }, { mid: 'm2' }, { mid: 'm3' }] }).merchantId).toBe('m2');
  });

  it('reads identifications, vehicles and custom nodes, keeping jurisdictions as sent', () => {
    const facts = payloadFacts({
      timestamp: T,
      nationalIdentifications: [{ passport: { idNumber: 'P1', jurisdictionCountry: 'GBR', jurisdictionState: '' }, bad: 3 }],
      vehicles: [{ plate: 'AB12', jurisdictionState: ' ' }],
      customNode: { nodeType: 'loyalty', nodeId: 'L1' },
      customNodes: [{ nodeType: 'x', nodeId: ' ' }],
    });
    expect(facts.identifications).toEqual([{ documentKind: 'passport', idNumber: 'P1', jurisdictionCountry: 'GBR', jurisdictionState: '' }]);
    expect(facts.vehicles).toEqual([{ vin: undefined, plate: 'AB12', jurisdictionCountry: undefined, jurisdictionState: ' ' }]);
    expect(facts.customNodes.map(({ nodeType, nodeId }) => [nodeType, nodeId])).toEqual([['loyalty', 'L1'], ['x', undefined]]);
  });

  it('reads each fact once, when first asked, and never opens what no reader asks for', () => {
    const facts = payloadFacts({ timestamp: T, customer: { customerId: 'c1' }, registration: new Proxy({}, { get: () => { throw new Error('read'); } }) });
    expect(facts.customer).toBe(facts.customer);
    expect(facts.customerId).toBe('c1');
    expect(() => facts.registration).toThrow('read');
    expect(payloadFacts({ timestamp: 'soon' }).timestampMs).toBeUndefined();
  });
});
