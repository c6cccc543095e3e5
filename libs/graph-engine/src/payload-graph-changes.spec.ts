import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConnectRequestDto,
  CustomerRequestDto,
  PayoutRequestDto,
  PspDisputeRequestDto,
  PspTransactionRequestDto,
  RefundRequestDto,
  RegistrationRequestDto,
  SupplierRequestDto,
  VoucherRedemptionRequestDto,
  VoucherRequestDto,
  normaliseTimestamps,
} from '@ringfence/contracts';
import { plainToInstance } from 'class-transformer';
import fc from 'fast-check';
import { type GraphChange, type GraphNodeRef, isSubjectNode } from './graph-change';
import { cardIdentity, customNodeIdentity, identificationIdentity, vehicleIdentity } from './node-identity';
import {
  type WirePayload,
  connectPayloadGraphChanges,
  customerPayloadGraphChanges,
  labelGraphChanges,
  payoutPayloadGraphChanges,
  pspDisputePayloadGraphChanges,
  pspTransactionPayloadGraphChanges,
  refundPayloadGraphChanges,
  registrationPayloadGraphChanges,
  supplierPayloadGraphChanges,
  voucherPayloadGraphChanges,
  voucherRedemptionPayloadGraphChanges,
} from './payload-graph-changes';
import { TenantGraph } from './tenant-graph';

const FIXTURES = join(__dirname, '../../../test/contracts/fixtures');

/**
 * A golden valid request body as ingestion receives it: through its request class, times
 * normalised to epoch ms by `normaliseTimestamps` as the gateway does, then as wire JSON.
 */
function fixture(slug: string, name: string, requestClass: new () => object): WirePayload {
  const { body } = JSON.parse(readFileSync(join(FIXTURES, slug, 'valid', `${name}.json`), 'utf8')) as { body: object };
  return JSON.parse(JSON.stringify(normaliseTimestamps(plainToInstance(requestClass, body)))) as WirePayload;
}

const T = 1_763_800_000_000;
const customer = (identity: string): GraphNodeRef => ({ kind: 'customer', identity });
const supplier = (identity: string): GraphNodeRef => ({ kind: 'supplier', identity });
const email = (identity: string): GraphNodeRef => ({ kind: 'email', identity });
const phone = (identity: string): GraphNodeRef => ({ kind: 'phone', identity });
const device = (identity: string): GraphNodeRef => ({ kind: 'device', identity });
const card = (identity: string | null): GraphNodeRef => ({ kind: 'card', identity: identity! });
const chargebackNode = (identity: string): GraphNodeRef => ({ kind: 'chargeback', identity });
const custom = (nodeType: string, nodeId: string): GraphNodeRef => ({ kind: 'custom', nodeType, identity: customNodeIdentity(nodeType, nodeId) });
const node = (ref: GraphNodeRef): GraphChange => ({ type: 'node', node: ref });
const link = (a: GraphNodeRef, b: GraphNodeRef, firstSeenMs = T): GraphChange => ({ type: 'link', a, b, firstSeenMs });
const tags = (customerId: string, values: Record<string, boolean>, atMs = T): GraphChange => ({ type: 'tags', customerId, tags: values, atMs });
const chargeback = (chargebackId: string, forgiven: boolean, atMs = T): GraphChange => ({ type: 'chargeback', chargebackId, forgiven, atMs });
const owner = (transactionId: string, customerId: string, firstSeenMs = T): GraphChange => ({ type: 'transaction-owner', transactionId, customerId, firstSeenMs });
const dispute = (chargebackId: string, transactionId: string, firstSeenMs = T): GraphChange => ({ type: 'dispute', chargebackId, transactionId, firstSeenMs });
const paidAt = (merchantId: string, customerId: string, firstSeenMs = T): GraphChange => ({ type: 'merchant-customer', merchantId, customerId, firstSeenMs });
// The fixtures' `mid`.
const MID = '000000123456789';

const ADA = 'cus-61213';
const ADA_EMAIL = email('ada.lovelace@example.com');
const ADA_PHONE = phone('+447700900123');
const DEVICE = device('dev-4f1c');

describe('customerPayloadGraphChanges', () => {
  it('links the customer to its e-mail, telephone and device, and sets its tags', () => {
    expect(customerPayloadGraphChanges(fixture('customer', 'full', CustomerRequestDto))).toEqual([
      node(customer(ADA)),
      link(customer(ADA), ADA_EMAIL),
      link(customer(ADA), ADA_PHONE),
      tags(ADA, { vip: true }),
      link(customer(ADA), DEVICE),
    ]);
  });

  it('takes a top-level deviceId, at the payload time normalised from seconds', () => {
    expect(customerPayloadGraphChanges(fixture('customer', 'device-id', CustomerRequestDto))).toEqual([
      node(customer(ADA)),
      link(customer(ADA), email('ada@example.com')),
      link(customer(ADA), DEVICE),
    ]);
  });

  it('gives a customer without identities only its node', () => {
    expect(customerPayloadGraphChanges(fixture('customer', 'minimal', CustomerRequestDto))).toEqual([node(customer(ADA))]);
  });

  it('trims and lower-cases the e-mail and reads a national telephone with its country', () => {
    const payload = { timestamp: T, customer: { customerId: 'c1', email: '  Ada.Lovelace@Example.COM ', telephone: '07700 900123', telephoneCountry: 'GBR' } };
    expect(customerPayloadGraphChanges(payload)).toEqual([node(customer('c1')), link(customer('c1'), ADA_EMAIL), link(customer('c1'), ADA_PHONE)]);
    const alpha2 = { timestamp: T, customer: { customerId: 'c1', telephone: '07700 900123', telephoneCountry: 'GB' } };
    expect(customerPayloadGraphChanges(alpha2)).toContainEqual(link(customer('c1'), ADA_PHONE));
  });

  it('keeps only boolean tags, and sends no tags change when none is left', () => {
    const payload = { timestamp: T, customer: { customerId: 'c1', tags: { vip: true, odd: 'yes', churned: false } } };
    expect(customerPayloadGraphChanges(payload)).toEqual([node(customer('c1')), tags('c1', { vip: true, churned: false })]);
    expect(customerPayloadGraphChanges({ timestamp: T, customer: { customerId: 'c1', tags: { odd: 1 } } })).toEqual([node(customer('c1'))]);
  });

  it('skips blank or non-text identities and a customer without an id', () => {
    const payload = { timestamp: T, customer: { customerId: 'c1', email: '   ', telephone: 7700900123 }, device: { deviceId: '' } };
    expect(customerPayloadGraphChanges(payload)).toEqual([node(customer('c1'))]);
    expect(customerPayloadGraphChanges({ timestamp: T, customer: { email: 'a@b.c' }, deviceId: 'd1' })).toEqual([]);
  });
});

describe('supplierPayloadGraphChanges', () => {
  it('links the supplier to its contact, device, identification and vehicle (no tags: they are customers’)', () => {
    expect(supplierPayloadGraphChanges(fixture('supplier', 'full', SupplierRequestDto))).toEqual([
      node(supplier('sup-2231')),
      link(supplier('sup-2231'), email('alan.turing@couriers.example')),
      link(supplier('sup-2231'), phone('+447700900456')),
      link(supplier('sup-2231'), DEVICE),
      link(supplier('sup-2231'), {
        kind: 'identification',
        identity: identificationIdentity('driversLicense', { idNumber: 'TURIN712236AM9IJ', jurisdictionCountry: 'GBR', jurisdictionState: 'ENG' })!,
      }),
      link(supplier('sup-2231'), { kind: 'vehicle', identity: vehicleIdentity({ plate: 'MA12 TUR', jurisdictionCountry: 'GBR' })! }),
    ]);
  });

  it('gives a supplier with empty arrays only its node', () => {
    expect(supplierPayloadGraphChanges(fixture('supplier', 'empty-arrays', SupplierRequestDto))).toEqual([node(supplier('sup-2231'))]);
  });

  it('skips a document without a number and a vehicle with neither VIN nor plate', () => {
    const payload = { timestamp: T, supplier: { supplierId: 's1' }, nationalIdentifications: [{ passport: { jurisdictionCountry: 'GBR' } }, { passport: 'x' }], vehicles: [{ make: 'Brompton' }] };
    expect(supplierPayloadGraphChanges(payload)).toEqual([node(supplier('s1'))]);
  });
});

describe('registrationPayloadGraphChanges', () => {
  it('links a registering customer to its contact and device and sets its tags', () => {
    expect(registrationPayloadGraphChanges(fixture('registration', 'full-customer', RegistrationRequestDto))).toEqual([
      node(customer(ADA)),
      link(customer(ADA), ADA_EMAIL),
      link(customer(ADA), ADA_PHONE),
      tags(ADA, { newsletter: true }),
      link(customer(ADA), DEVICE),
    ]);
  });

  it('links a registering supplier to its contact and device', () => {
    expect(registrationPayloadGraphChanges(fixture('registration', 'full-supplier', RegistrationRequestDto))).toEqual([
      node(supplier('sup-2231')),
      link(supplier('sup-2231'), email('alan.turing@couriers.example')),
      link(supplier('sup-2231'), phone('+447700900456')),
      link(supplier('sup-2231'), DEVICE),
    ]);
  });

  it('adds nothing for an attempt without an account, and never reads the registration object', () => {
    const failed = fixture('registration', 'failed-attempt', RegistrationRequestDto);
    expect(registrationPayloadGraphChanges(failed)).toEqual([]);
    const hash = '03ac674216f3e15c761ee1a5e255f067953623c8b388b4459e13f978d7c846f4';
    const changes = registrationPayloadGraphChanges(fixture('registration', 'full-customer', RegistrationRequestDto));
    expect(JSON.stringify(changes)).not.toContain(hash);
    const registration = new Proxy({}, {
      get: () => {
        throw new Error('the registration object was read');
      },
    });
    expect(registrationPayloadGraphChanges({ timestamp: T, registration, customer: { customerId: 'c1' } })).toEqual([node(customer('c1'))]);
  });
});

describe('payoutPayloadGraphChanges', () => {
  it('links the recipient to its contact and the card the payout goes to', () => {
    const owner = { kind: 'supplier' as const, id: 'sup-driver-0917' };
    expect(payoutPayloadGraphChanges(fixture('payout', 'card-full', PayoutRequestDto))).toEqual([
      node(supplier('sup-driver-0917')),
      link(supplier('sup-driver-0917'), email('driver.0917@example.com')),
      link(supplier('sup-driver-0917'), phone('+447700900456')),
      link(supplier('sup-driver-0917'), card(cardIdentity({ instrumentId: 'inst-9f2c61d0' }, owner))),
    ]);
  });

  it('counts only the card variants of the deprecated array; a card without instrument is the supplier’s own', () => {
    const changes = payoutPayloadGraphChanges(fixture('payout', 'deprecated-payment-methods', PayoutRequestDto));
    expect(changes).toEqual([node(supplier('sup-1')), link(supplier('sup-1'), card(cardIdentity({ paymentMethodId: 'pm-card-1' }, { kind: 'supplier', id: 'sup-1' })))]);
    expect(payoutPayloadGraphChanges(fixture('payout', 'bank-account', PayoutRequestDto))).toEqual([node(supplier('sup-1'))]);
  });

  it('counts an encrypted card (paymentMethodCipher) as a card', () => {
    const payload = { timestamp: T, supplier: { supplierId: 's1' }, paymentMethod: { methodType: 'paymentMethodCipher', instrumentId: 'ins-1' } };
    expect(payoutPayloadGraphChanges(payload)).toEqual([node(supplier('s1')), link(supplier('s1'), card(cardIdentity({ instrumentId: 'ins-1' }, { kind: 'supplier', id: 's1' })))]);
  });
});

describe('refundPayloadGraphChanges', () => {
  it('links the customer to contact, device, card and the order’s supplier, each edge once, and owns its refund transactions and their merchants', () => {
    expect(refundPayloadGraphChanges(fixture('refund', 'full', RefundRequestDto))).toEqual([
      node(customer(ADA)),
      link(customer(ADA), email('ada@example.com')),
      link(customer(ADA), ADA_PHONE),
      link(customer(ADA), DEVICE),
      link(customer(ADA), card(cardIdentity({ instrumentId: 'inst-9f2c61d0' }, { kind: 'customer', id: ADA }))),
      node(supplier('sup-courier-12')),
      link(customer(ADA), supplier('sup-courier-12')),
      owner('tx-rfd-0001', ADA),
      paidAt(MID, ADA),
    ]);
  });

  it('links no card for removal and from-transaction variants', () => {
    expect(refundPayloadGraphChanges(fixture('refund', 'removal-and-from-transaction', RefundRequestDto))).toEqual([node(customer('cus-1'))]);
  });

  it('links the order’s own contact to the customer', () => {
    const payload = { timestamp: T, customer: { customerId: 'c1' }, order: { email: 'Other@Example.com', telephone: '+1 202 555 0143', suppliers: [{ supplierId: 's1' }, { fee: 2 }] } };
    expect(refundPayloadGraphChanges(payload)).toEqual([
      node(customer('c1')),
      link(customer('c1'), email('other@example.com')),
      link(customer('c1'), phone('+12025550143')),
      node(supplier('s1')),
      link(customer('c1'), supplier('s1')),
    ]);
  });
});

describe('voucherPayloadGraphChanges', () => {
  it('makes the referrer a customer node and links nothing', () => {
    expect(voucherPayloadGraphChanges(fixture('voucher', 'full', VoucherRequestDto))).toEqual([node(customer(ADA))]);
    expect(voucherPayloadGraphChanges(fixture('voucher', 'minimal', VoucherRequestDto))).toEqual([]);
  });
});

describe('voucherRedemptionPayloadGraphChanges', () => {
  it('links the customer object and records the redemption at its own time', () => {
    expect(voucherRedemptionPayloadGraphChanges(fixture('voucher-redemption', 'full', VoucherRedemptionRequestDto))).toEqual([
      node(customer(ADA)),
      link(customer(ADA), ADA_EMAIL),
      link(customer(ADA), ADA_PHONE),
      tags(ADA, { vip: true }),
      { type: 'redemption', customerId: ADA, voucherCode: 'WELCOME-ADA-25', redemptionTimeMs: T, success: true, atMs: T },
    ]);
  });

  it('names a guest by its customerId (an id, not an e-mail node), redeemed at the payload time', () => {
    const payload = { ...fixture('voucher-redemption', 'customer-id', VoucherRedemptionRequestDto), timestamp: T + 5 };
    expect(voucherRedemptionPayloadGraphChanges(payload)).toEqual([
      node(customer('ada.lovelace@example.com')),
      { type: 'redemption', customerId: 'ada.lovelace@example.com', voucherCode: 'WELCOME-ADA-25', redemptionTimeMs: T + 5, success: true, atMs: T + 5 },
    ]);
  });

  it('records a failed redemption as unsuccessful', () => {
    expect(voucherRedemptionPayloadGraphChanges(fixture('voucher-redemption', 'customer-id-and-customer', VoucherRedemptionRequestDto))).toEqual([
      node(customer(ADA)),
      link(customer(ADA), email('ada@example.com')),
      { type: 'redemption', customerId: ADA, voucherCode: 'WELCOME-ADA-25', redemptionTimeMs: T, success: false, atMs: T },
    ]);
  });

  it('records no redemption without a customer or a code', () => {
    expect(voucherRedemptionPayloadGraphChanges({ timestamp: T, voucherRedemption: { voucherCode: 'V' } })).toEqual([]);
    expect(voucherRedemptionPayloadGraphChanges({ timestamp: T, customerId: 'c1', voucherRedemption: { voucherCode: '' } })).toEqual([node(customer('c1'))]);
  });
});

describe('pspTransactionPayloadGraphChanges', () => {
  it('links the paying customer to its contact, device and card, and records it as the transaction’s owner and the merchant’s customer', () => {
    expect(pspTransactionPayloadGraphChanges(fixture('psp-transaction', 'full', PspTransactionRequestDto))).toEqual([
      node(customer(ADA)),
      link(customer(ADA), email('ada@example.com')),
      link(customer(ADA), ADA_PHONE),
      link(customer(ADA), DEVICE),
      link(customer(ADA), card(cardIdentity({ instrumentId: 'inst-9f2c61d0' }, { kind: 'customer', id: ADA }))),
      owner('tx-0001', ADA),
      paidAt(MID, ADA),
    ]);
  });

  it('links nothing without a customer', () => {
    const payload = fixture('psp-transaction', 'full', PspTransactionRequestDto);
    expect(pspTransactionPayloadGraphChanges({ ...payload, customer: { email: 'ada@example.com' } })).toEqual([]);
    expect(pspTransactionPayloadGraphChanges(fixture('psp-transaction', 'minimal', PspTransactionRequestDto))).toEqual([]);
  });

  it('links the customer to the suppliers of an order it carries', () => {
    const payload = { timestamp: T, transaction: { transactionId: 't1' }, customer: { customerId: 'c1' }, order: { suppliers: [{ supplierId: 's1' }] } };
    expect(pspTransactionPayloadGraphChanges(payload)).toEqual([
      node(customer('c1')),
      node(supplier('s1')),
      link(customer('c1'), supplier('s1')),
      owner('t1', 'c1'),
    ]);
  });
});

describe('pspDisputePayloadGraphChanges', () => {
  it('gives the dispute of its transaction and the chargeback’s state, without reading anything', () => {
    expect(pspDisputePayloadGraphChanges(fixture('psp-dispute', 'full', PspDisputeRequestDto))).toEqual([
      dispute('dsp-20251122-0042', 'tx-0001'),
      chargeback('dsp-20251122-0042', false),
    ]);
  });

  it('forgives a reversed dispute (nanoseconds normalised), and without a transaction gives only the state', () => {
    expect(pspDisputePayloadGraphChanges(fixture('psp-dispute', 'reversed', PspDisputeRequestDto))).toEqual([
      dispute('dsp-20251122-0042', 'tx-0001', 1_763_900_000_000),
      chargeback('dsp-20251122-0042', true, 1_763_900_000_000),
    ]);
    expect(pspDisputePayloadGraphChanges(fixture('psp-dispute', 'minimal', PspDisputeRequestDto))).toEqual([chargeback('dsp-1', false)]);
  });

  it('marks the transaction’s customer whether the dispute comes before or after the transaction, until a later state forgives it', () => {
    const payment = pspTransactionPayloadGraphChanges(fixture('psp-transaction', 'full', PspTransactionRequestDto));
    const lost = pspDisputePayloadGraphChanges(fixture('psp-dispute', 'full', PspDisputeRequestDto));
    const reversed = pspDisputePayloadGraphChanges(fixture('psp-dispute', 'reversed', PspDisputeRequestDto));
    for (const order of [[payment, lost], [lost, payment]]) {
      const graph = new TenantGraph();
      for (const changes of order) graph.applyAll(changes);
      expect(graph.index.isFraudster(ADA)).toBe(true);
      expect(graph.index.connect(ADA, { depth: 1, nowMs: T })).toMatchObject({ hopsToFraud: 0, chargebackCount: 1 });
    }
    for (const order of [[payment, lost, reversed], [reversed, lost, payment], [lost, reversed, payment], [reversed, payment, lost]]) {
      const graph = new TenantGraph();
      for (const changes of order) graph.applyAll(changes);
      expect(graph.index.isFraudster(ADA)).toBe(false);
      expect(graph.index.connect(ADA, { depth: 1, nowMs: T })).toMatchObject({ hopsToFraud: -1, chargebackCount: 1 });
    }
  });
});

describe('connectPayloadGraphChanges', () => {
  it('links everything in the body to the customer', () => {
    const owner = { kind: 'customer' as const, id: ADA };
    expect(connectPayloadGraphChanges(fixture('connect', 'full', ConnectRequestDto))).toEqual([
      node(customer(ADA)),
      link(customer(ADA), ADA_EMAIL),
      link(customer(ADA), ADA_PHONE),
      tags(ADA, { vip: true, 'referral-abuser': false }),
      link(customer(ADA), DEVICE),
      link(customer(ADA), card(cardIdentity({ instrumentId: 'ins-7d1f0c9a' }, owner))),
      link(customer(ADA), card(cardIdentity({ instrumentId: 'ins-00ab12cd' }, owner))),
      link(customer(ADA), {
        kind: 'identification',
        identity: identificationIdentity('driversLicense', { idNumber: 'LOVEL853116AA9IJ', jurisdictionCountry: 'GBR', jurisdictionState: 'ENG' })!,
      }),
      link(customer(ADA), { kind: 'identification', identity: identificationIdentity('passport', { idNumber: '533112245', jurisdictionCountry: 'GBR' })! }),
      link(customer(ADA), { kind: 'vehicle', identity: vehicleIdentity({ vin: 'JTDKN3DU5A0123456' })! }),
      link(customer(ADA), custom('loyaltyCard', 'LC-0098812')),
      link(customer(ADA), custom('bankAccount', 'GB29NWBK60161331926819')),
      link(customer(ADA), custom('loyaltyCard', 'LC-0098813')),
      link(customer(ADA), chargebackNode('cb-88120')),
      chargeback('cb-88120', false),
      link(customer(ADA), chargebackNode('dsp-20251122-0042')),
      chargeback('dsp-20251122-0042', false),
    ]);
  });

  it('names the customer by customerId and takes the top-level deviceId', () => {
    const guest = customer('ada.lovelace@example.com');
    expect(connectPayloadGraphChanges(fixture('connect', 'customer-id-and-device-id', ConnectRequestDto))).toEqual([
      node(guest),
      link(guest, DEVICE),
      link(guest, custom('loyaltyCard', 'LC-0098812')),
    ]);
    expect(connectPayloadGraphChanges(fixture('connect', 'minimal', ConnectRequestDto))).toEqual([node(customer(ADA))]);
  });

  it('forgives a nonFraud chargeback, scopes a card without instrument to its customer, skips a half custom node', () => {
    const payload = {
      timestamp: T,
      customerId: 'c1',
      paymentMethods: [{ card: { paymentMethodId: 'pm-1' } }, { card: {} }],
      customNodes: [{ nodeType: 'loyaltyCard' }],
      chargeback: { chargebackId: 'cb-1', nonFraud: true },
      review: { label: 'FRAUDSTER' },
    };
    expect(connectPayloadGraphChanges(payload)).toEqual([
      node(customer('c1')),
      link(customer('c1'), card(cardIdentity({ paymentMethodId: 'pm-1' }, { kind: 'customer', id: 'c1' }))),
      link(customer('c1'), chargebackNode('cb-1')),
      chargeback('cb-1', true),
    ]);
  });
});

describe('labelGraphChanges', () => {
  const event = { subjectKind: 'customer', subjectId: 'c1', category: 'PAYMENT_FRAUD', review: 'FRAUDSTER', eventTime: T + 123 };

  it('sets a customer’s PAYMENT_FRAUD label at the label’s time', () => {
    expect(labelGraphChanges(event)).toEqual([{ type: 'label', customerId: 'c1', label: 'FRAUDSTER', atMs: T + 123 }]);
    expect(labelGraphChanges({ ...event, review: 'POTENTIALLY_GENUINE' })).toEqual([{ type: 'label', customerId: 'c1', label: 'POTENTIALLY_GENUINE', atMs: T + 123 }]);
  });

  it('clears it on UNREVIEWED', () => {
    expect(labelGraphChanges({ ...event, review: 'UNREVIEWED' })).toEqual([{ type: 'label', customerId: 'c1', label: null, atMs: T + 123 }]);
  });

  it('ignores other categories and supplier labels', () => {
    expect(labelGraphChanges({ ...event, category: 'REFUND_ABUSE', review: 'REFUND_ABUSE' })).toEqual([]);
    expect(labelGraphChanges({ ...event, subjectKind: 'supplier', category: 'SUPPLIER_FRAUD', review: 'FRAUDULENT' })).toEqual([]);
    expect(labelGraphChanges({ ...event, subjectKind: 'supplier' })).toEqual([]);
  });
});

describe('payload graph changes applied to a tenant graph', () => {
  it('links two customers through an e-mail and a national number however each wrote them', () => {
    const graph = new TenantGraph();
    graph.applyAll(customerPayloadGraphChanges(fixture('customer', 'free-form-contact', CustomerRequestDto)));
    graph.applyAll(
      connectPayloadGraphChanges({ timestamp: T, customer: { customerId: 'c2', email: 'ada.lovelace@example.com', telephone: '(020) 7946-0958' } }),
    );
    expect(graph.index.connect('c2', { depth: 2, nowMs: T })).toMatchObject({ customerCount: 2, emailCount: 1, phoneCount: 1, emailDegreeMax: 2, phoneDegreeMax: 2 });
  });

  it('joins a refunding customer to a disputed payer through their shared card', () => {
    const graph = new TenantGraph();
    graph.applyAll(refundPayloadGraphChanges(fixture('refund', 'full', RefundRequestDto)));
    const payment = fixture('psp-transaction', 'full', PspTransactionRequestDto);
    graph.applyAll(pspTransactionPayloadGraphChanges({ ...payment, customer: { customerId: 'payer' } }));
    graph.applyAll(pspDisputePayloadGraphChanges(fixture('psp-dispute', 'full', PspDisputeRequestDto)));
    expect(graph.index.isFraudster('payer')).toBe(true);
    expect(graph.index.connect(ADA, { depth: 20, nowMs: T }).hopsToFraud).toBe(2);
  });
});

describe('payload graph changes of arbitrary payloads', () => {
  // Payloads shaped like the real ones, where any field may instead hold any JSON value, so that
  // odd values reach every reader rather than stopping at the top level.
  const leaf = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
  const { json } = fc.letrec<{ json: unknown }>((tie) => ({
    json: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('json'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), tie('json'), { maxKeys: 4 })),
  }));
  const or = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary }, { weight: 1, arbitrary: json });
  const partial = <T extends Record<string, unknown>>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) => or(fc.record(model, { requiredKeys: [] }));
  const list = <T>(item: fc.Arbitrary<T>) => or(fc.array(or(item), { maxLength: 3 }));
  const id = fc.constantFrom('c1', 'c2', 's1', 'x', '', ' ', '__proto__');
  const text = fc.oneof(fc.constantFrom('', ' ', 'A@B.C', ' a@b.c ', '+447700900123', '07700 900123', 'GBR', 'GB', 'XX', '44'), fc.string({ maxLength: 6 }));
  const contact = partial({
    customerId: or(id),
    supplierId: or(id),
    email: or(text),
    telephone: or(text),
    telephoneCountry: or(text),
    tags: or(fc.dictionary(fc.string({ maxLength: 4 }), or(fc.boolean()), { maxKeys: 3 })),
  });
  const method = partial({ methodType: or(fc.constantFrom('card', 'paymentMethodCipher', 'cash', 'removal')), instrumentId: or(id), paymentMethodId: or(id) });
  const document = partial({ idNumber: or(id), jurisdictionCountry: or(text), jurisdictionState: or(text) });
  const state = partial({
    chargebackId: or(id),
    disputeId: or(id),
    transactionId: or(id),
    nonFraud: or(fc.boolean()),
    outcome: or(fc.constantFrom('WON', 'LOST')),
    stage: or(fc.constantFrom('CHARGEBACK', 'CHARGEBACK_REVERSED')),
  });
  const payload = fc
    .record(
      {
        customer: contact,
        supplier: contact,
        customerId: or(id),
        deviceId: or(id),
        device: partial({ deviceId: or(id) }),
        paymentMethod: method,
        paymentMethods: list(fc.oneof(method, partial({ card: method }))),
        nationalIdentifications: list(fc.dictionary(fc.constantFrom('driversLicense', 'passport', ''), or(document), { maxKeys: 2 })),
        vehicles: list(partial({ vin: or(id), plate: or(id), jurisdictionCountry: or(text), jurisdictionState: or(text) })),
        customNode: partial({ nodeType: or(id), nodeId: or(id) }),
        customNodes: list(partial({ nodeType: or(id), nodeId: or(id) })),
        order: partial({ email: or(text), telephone: or(text), telephoneCountry: or(text), suppliers: list(partial({ supplierId: or(id) })) }),
        chargeback: state,
        dispute: state,
        transaction: partial({ transactionId: or(id) }),
        transactions: list(partial({ transactionId: or(id) })),
        voucher: partial({ referrerId: or(id) }),
        voucherRedemption: partial({ voucherCode: or(id), redemptionTime: or(fc.integer()), success: or(fc.boolean()) }),
        registration: json,
        timestamp: fc.integer({ min: 0, max: 4_102_444_800_000 }),
      },
      { requiredKeys: ['timestamp'] },
    )
    .map((fields): WirePayload => fields);

  const extractors: Array<(payload: WirePayload) => GraphChange[]> = [
    customerPayloadGraphChanges,
    supplierPayloadGraphChanges,
    registrationPayloadGraphChanges,
    payoutPayloadGraphChanges,
    refundPayloadGraphChanges,
    voucherPayloadGraphChanges,
    voucherRedemptionPayloadGraphChanges,
    pspTransactionPayloadGraphChanges,
    pspDisputePayloadGraphChanges,
    connectPayloadGraphChanges,
  ];
  const sameNode = (a: GraphNodeRef, b: GraphNodeRef) => a.kind === b.kind && a.identity === b.identity && (a.kind !== 'custom' || (b.kind === 'custom' && a.nodeType === b.nodeType));

  it('add nothing for a payload without a numeric timestamp', () => {
    fc.assert(
      fc.property(payload, fc.constantFrom(undefined, '1763800000000', Number.NaN), (body, timestamp) => {
        for (const extract of extractors) expect(extract({ ...body, timestamp })).toEqual([]);
      }),
    );
  });

  it('never throw, link only a customer or supplier to something else, and apply cleanly', () => {
    fc.assert(
      fc.property(payload, (body) => {
        const graph = new TenantGraph();
        for (const extract of extractors) {
          const changes = extract(body);
          for (const change of changes) {
            if (change.type === 'merchant-customer') expect(change.merchantId).not.toBe('');
            if (change.type === 'transaction-owner' || change.type === 'dispute' || change.type === 'merchant-customer') {
              if (change.type !== 'merchant-customer') expect(change.transactionId).not.toBe('');
              expect(change.firstSeenMs).toBe(body.timestamp);
            }
            if (change.type !== 'link') continue;
            expect(isSubjectNode(change.a) || isSubjectNode(change.b)).toBe(true);
            expect(sameNode(change.a, change.b)).toBe(false);
            expect(change.a.identity).not.toBe('');
            expect(change.b.identity).not.toBe('');
            expect(change.firstSeenMs).toBe(body.timestamp);
          }
          expect(extract(body)).toEqual(changes);
          graph.applyAll(changes);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('blank identifiers', () => {
  it('take a device id of spaces as no device (as entities and velocity do)', () => {
    expect(customerPayloadGraphChanges({ timestamp: T, customer: { customerId: 'c1' }, deviceId: '   ' })).toEqual([node(customer('c1'))]);
    expect(customerPayloadGraphChanges({ timestamp: T, customer: { customerId: 'c1' }, device: { deviceId: ' \t' } })).toEqual([node(customer('c1'))]);
    expect(customerPayloadGraphChanges({ timestamp: T, customer: { customerId: '  ' }, deviceId: 'd1' })).toEqual([]);
  });
});
