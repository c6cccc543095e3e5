// The traffic of `npm run bench:mixed` (mixed-load.bench.mjs): a population of customers in
// small rings that share devices, cards, e-mails and telephones, suppliers, vouchers, and a
// reproducible sequence of requests over them in the proportions of CLASSES.
//
// Every body is a valid golden fixture of test/contracts/fixtures with its ids, contact details,
// amounts and times replaced (and objects that make no sense for the traffic, such as a flight
// booking on a food order, left out), so the bodies keep up with the contracts. Ids come from a
// seeded PRNG: the same seed gives the same population and the same sequence; only the
// timestamps follow the clock.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './bench-processes.mjs';
import { seededRandom } from './synthetic-graph.mjs';

/**
 * The request classes and their share of the traffic, in percent. The integration pictured is a
 * food-delivery marketplace: each order is scored before authorisation and again after it (fewer
 * after, since some orders stop at the first check); customer updates come with logins and
 * profile changes; sign-ups and logins also send a connect (a third of them asking for the
 * network features) and look up the known-fraud lists; vouchers are checked and redeemed at a
 * fraction of checkouts; couriers are paid out, a few orders are refunded, and known fraud is
 * reported (POST /v2/lookup) and labelled by a review team at a low rate.
 */
export const CLASSES = [
  { name: 'customer', share: 18, route: 'POST /v2/customer' },
  { name: 'psp before auth', share: 16, route: 'POST /psp/transaction?checkpoint=pspBeforeAuth' },
  { name: 'psp after auth', share: 14, route: 'POST /psp/transaction?checkpoint=pspAfterAuth' },
  { name: 'connect', share: 8, route: 'POST /v2/connect' },
  { name: 'connect features', share: 4, route: 'POST /v2/connect?features=true' },
  { name: 'voucher check', share: 6, route: 'POST /v2/voucher/check' },
  { name: 'voucher redemption', share: 5, route: 'POST /v2/paymentmethod/voucher' },
  { name: 'refund', share: 4, route: 'POST /v2/refund' },
  { name: 'payout', share: 5, route: 'POST /v2/payout' },
  { name: 'label', share: 2, route: 'POST /v2/customer/:id/labels' },
  { name: 'lookup read', share: 15, route: 'GET /v2/lookup' },
  { name: 'lookup report', share: 3, route: 'POST /v2/lookup' },
];
if (CLASSES.reduce((sum, { share }) => sum + share, 0) !== 100) throw new Error('the shares of CLASSES must add up to 100');

const fixture = (name) => JSON.parse(readFileSync(join(ROOT, 'test/contracts/fixtures', `${name}.json`), 'utf8'));
// The fixtures' bodies (and one query); `clone` copies one (JSON.parse of its text: several
// times faster than structuredClone for these plain objects).
const T = {
  customer: fixture('customer/valid/full').body,
  psp: fixture('psp-transaction/valid/full').body,
  pspAfter: fixture('psp-transaction/valid/three-d-secure-after-auth').body,
  connect: fixture('connect/valid/full').body,
  voucherCheck: fixture('voucher-check/valid/full').body,
  redemption: fixture('voucher-redemption/valid/full').body,
  refund: fixture('refund/valid/full').body,
  payout: fixture('payout/valid/card-full').body,
  labelGenuine: fixture('label-customer/valid/full').body,
  labelFraudster: fixture('label-customer/valid/minimal').body,
  lookupRead: fixture('lookup-read/valid/every-parameter').query,
  lookupAdd: fixture('lookup-add/valid/full').body,
};
const TEXTS = new Map(Object.values(T).map((template) => [template, JSON.stringify(template)]));
const clone = (template) => JSON.parse(TEXTS.get(template));
const DAY = 86_400_000;

const GIVEN = ['Ada', 'Grace', 'Alan', 'Katherine', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Radia', 'Tim', 'Margaret', 'Ken', 'Hedy', 'Dennis', 'Karen'];
const FAMILY = ['Lovelace', 'Hopper', 'Turing', 'Johnson', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus', 'Perlman', 'Berners-Lee', 'Hamilton', 'Thompson', 'Lamarr', 'Ritchie', 'Jones'];
const DEVICES = [
  { model: 'iPhone15,2', os: 'iOS 18.1', manufacturer: 'Apple', type: 'phone' },
  { model: 'SM-S918B', os: 'Android 14', manufacturer: 'Samsung', type: 'phone' },
  { model: 'Pixel 8', os: 'Android 15', manufacturer: 'Google', type: 'phone' },
  { model: 'MacBookPro18,3', os: 'macOS 15.1', manufacturer: 'Apple', type: 'desktop' },
];
const CARD_BINS = [['424242', 'visa'], ['400000', 'visa'], ['555555', 'mastercard'], ['510510', 'mastercard'], ['378282', 'amex']];
const DECLINES = ['DO_NOT_HONOUR', 'INSUFFICIENT_FUNDS', 'LOST_OR_STOLEN', 'EXPIRED_CARD'];
const AVS = ['STRONG_MATCH', 'STRONG_MATCH', 'STRONG_MATCH', 'PARTIAL_MATCH', 'NO_MATCH'];

/**
 * Customers in rings: 45 % alone, the rest in rings of 2–12 (mean 2.6 customers a ring) sharing
 * about 0.6 devices and 0.5 cards per member, some a ring e-mail (30 % of members) or telephone
 * (25 %); 5 % of rings also use a device of an earlier ring, so a few components span rings.
 * About 8 % of the rings of 3 or more are fraud rings (labelled, reported, their own referral
 * code). Suppliers (one for ten customers) have their own device and card; 4 % share a card
 * with a customer ring.
 */
export function population({ customers: CUSTOMERS, seed }) {
  const { random, pick } = seededRandom(seed);
  const hex = (digits) => {
    let out = '';
    while (out.length < digits) out += ((random() * 2 ** 32) >>> 0).toString(16).padStart(8, '0');
    return out.slice(0, digits);
  };
  const digits = (n) => String(pick(10 ** n)).padStart(n, '0');
  const newDevice = () => ({ id: `dev-${hex(12)}`, ip: `10.${pick(256)}.${pick(256)}.${1 + pick(254)}`, ...DEVICES[pick(DEVICES.length)] });
  const newCard = () => {
    const [bin, scheme] = CARD_BINS[pick(CARD_BINS.length)];
    return { instrumentId: `inst-${hex(12)}`, bin, scheme, lastFour: digits(4), expiryMonth: 1 + pick(12), expiryYear: 2027 + pick(5) };
  };
  const newPhone = () => `+4477${digits(8)}`;
  const newEmail = (given, family) => `${given}.${family}.${hex(6)}@example.com`.toLowerCase();

  const customers = [];
  const rings = [];
  while (customers.length < CUSTOMERS) {
    const r = random();
    const wanted = r < 0.45 ? 1 : r < 0.65 ? 2 : r < 0.78 ? 3 : r < 0.87 ? 4 : r < 0.94 ? 5 + pick(2) : 7 + pick(6);
    const size = Math.min(wanted, CUSTOMERS - customers.length);
    const family = FAMILY[pick(FAMILY.length)];
    const ring = {
      index: rings.length,
      members: [],
      fraud: size >= 3 && random() < 0.08,
      devices: Array.from({ length: Math.max(1, Math.round(size * 0.6)) }, newDevice),
      cards: Array.from({ length: Math.max(1, Math.round(size * 0.5)) }, newCard),
      email: size > 1 ? newEmail('shared', family) : null,
      phone: size > 1 ? newPhone() : null,
      referralCode: null,
    };
    if (ring.fraud) ring.referralCode = `REF-${hex(8).toUpperCase()}`;
    if (rings.length > 0 && random() < 0.05) ring.devices.push(rings[pick(rings.length)].devices[0]);
    for (let m = 0; m < size; m += 1) {
      const given = GIVEN[pick(GIVEN.length)];
      const customer = {
        index: customers.length,
        id: `cus-${hex(12)}`,
        given,
        family,
        email: ring.email && random() < 0.3 ? ring.email : newEmail(given, family),
        phone: ring.phone && random() < 0.25 ? ring.phone : newPhone(),
        device: ring.devices[pick(ring.devices.length)],
        card: ring.cards[pick(ring.cards.length)],
        ring,
        registrationTime: Date.UTC(2024, 0, 1) + pick(600) * DAY,
      };
      ring.members.push(customer);
      customers.push(customer);
    }
    rings.push(ring);
  }
  const suppliers = Array.from({ length: Math.max(1, Math.round(CUSTOMERS / 10)) }, () => {
    const given = GIVEN[pick(GIVEN.length)];
    const family = FAMILY[pick(FAMILY.length)];
    const shared = random() < 0.04 ? rings[pick(rings.length)] : null;
    return {
      id: `sup-${hex(12)}`,
      given,
      family,
      email: newEmail(given, family),
      phone: newPhone(),
      device: newDevice(),
      card: shared ? shared.cards[0] : newCard(),
      group: `fleet-${pick(40)}`,
    };
  });
  const vouchers = Array.from({ length: 200 }, () => `PROMO-${hex(6).toUpperCase()}`);
  const fraudRings = rings.filter((ring) => ring.fraud);
  return { customers, suppliers, rings, fraudRings, vouchers, random, pick, hex };
}

/** The body builders, one per class: each takes a customer (or supplier) and the event time. */
export function builders(pop) {
  const { random, pick, hex } = pop;
  const customerObject = (base, c) => ({
    ...base,
    customerId: c.id,
    email: c.email,
    telephone: c.phone,
    name: `${c.given} ${c.family}`,
    givenName: c.given,
    familyName: c.family,
    registrationTime: c.registrationTime,
  });
  const device = (base, d) => ({ ...base, deviceId: d.id, ipAddress: d.ip, model: d.model, os: d.os, manufacturer: d.manufacturer, type: d.type });
  const pspCard = (base, card, c) => ({ ...base, instrumentId: card.instrumentId, iin: card.bin, lastFour: card.lastFour, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, scheme: card.scheme, nameOnCard: `${c.given} ${c.family}` });
  const methodCard = (base, card, name) => ({ ...base, instrumentId: card.instrumentId, cardBin: card.bin, cardLastFour: card.lastFour, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, nameOnCard: name });

  function psp(c, t, transaction, after) {
    const body = clone(T.psp);
    delete body.flightBooking; // a food order: no flight, no point-of-sale terminal
    delete body.posTerminal;
    body.timestamp = t;
    const tx = body.transaction;
    delete tx.parentTransactionId;
    tx.transactionId = transaction.id;
    tx.amount = transaction.amount;
    tx.gatewayReference = transaction.reference;
    tx.mcc = '5812';
    if (after) {
      const approved = random() < 0.93;
      tx.success = approved;
      if (approved) delete tx.declineCode;
      else tx.declineCode = DECLINES[pick(DECLINES.length)];
      tx.avsResultCode = { postalCode: AVS[pick(AVS.length)], street: AVS[pick(AVS.length)] };
      tx.cvvResultCode = random() < 0.97 ? 'PASS' : 'FAIL';
      // The 3-D Secure outcome as the after-authorisation fixture reports it (a challenge).
      if (random() < 0.2) body.threeds = { ...T.pspAfter.threeds, startTime: t - 20_000, endTime: t - 5_000 };
      else Object.assign(body.threeds, { startTime: t - 20_000, endTime: t - 5_000 });
    } else {
      // Before authorisation there is no result yet: 3-D Secure only.
      for (const field of ['success', 'partial', 'declineCode', 'arn', 'avsResultCode', 'cvvResultCode']) delete tx[field];
      Object.assign(body.threeds, { startTime: t - 20_000, endTime: t - 5_000 });
    }
    body.paymentMethod = pspCard(body.paymentMethod, transaction.card, c);
    body.customer = { ...body.customer, customerId: c.id, email: c.email, telephone: c.phone };
    body.device = device(body.device, c.device);
    body.billingAddress.addressee = `${c.given} ${c.family}`;
    body.shippingAddress.addressee = `${c.given} ${c.family}`;
    return body;
  }

  return {
    customer(c, t) {
      const body = clone(T.customer);
      body.timestamp = t;
      body.customer = customerObject(body.customer, c);
      body.customer.tags = { vip: random() < 0.05 };
      body.customer.location = { ...body.customer.location, addresseeName: `${c.given} ${c.family}` };
      body.device = device(body.device, c.device);
      return body;
    },
    newTransaction(c) {
      return { id: `tx-${hex(16)}`, amount: 500 + pick(14_500), reference: hex(16), card: random() < 0.9 ? c.card : c.ring.cards[pick(c.ring.cards.length)], customer: c };
    },
    pspBeforeAuth: (c, t, transaction) => psp(c, t, transaction, false),
    pspAfterAuth: (c, t, transaction) => psp(c, t, transaction, true),
    connect(c, t) {
      // The customer, one card and the device: what a sign-up or login sends (the fixture's
      // chargeback, dispute, review and documents are other traffic).
      const { customer, paymentMethods, device: baseDevice } = clone(T.connect);
      delete customer.tags;
      return {
        timestamp: t,
        customer: customerObject(customer, c),
        paymentMethods: [{ card: methodCard(paymentMethods[0].card, c.card, `${c.given} ${c.family}`.toUpperCase()) }],
        device: device(baseDevice, c.device),
      };
    },
    voucherCheck(c, t) {
      const body = clone(T.voucherCheck);
      const referral = c.ring.referralCode && random() < 0.7;
      return { ...body, timestamp: t, customerId: c.id, voucherCode: referral ? c.ring.referralCode : pop.vouchers[pick(pop.vouchers.length)], voucherType: referral ? 'REFERRAL' : 'GENERAL' };
    },
    voucherRedemption(c, t) {
      const body = clone(T.redemption);
      const referral = c.ring.referralCode && random() < 0.7;
      body.timestamp = t;
      body.voucherRedemption = {
        ...body.voucherRedemption,
        voucherCode: referral ? c.ring.referralCode : pop.vouchers[pick(pop.vouchers.length)],
        voucherType: referral ? 'REFERRAL' : 'GENERAL',
        paymentMethodId: `pm-voucher-${hex(10)}`,
        redemptionTime: t,
        success: random() < 0.95,
        value: 500 + 100 * pick(20),
      };
      body.customer = customerObject(body.customer, c);
      delete body.customer.tags;
      return body;
    },
    refund(c, t, supplier) {
      const body = clone(T.refund);
      const name = `${c.given} ${c.family}`;
      const food = body.order.items.find((item) => item.category === 'food') ?? body.order.items[0];
      const amount = food.price * food.quantity;
      const paymentMethodId = `pm-card-${hex(10)}`;
      body.timestamp = t;
      body.customer = customerObject(body.customer, c);
      Object.assign(body.refund, { refundId: `rfd-${hex(12)}`, refundRequestTime: t - 60_000, amount, nonRefundableAmount: 0, items: [food] });
      Object.assign(body.order, {
        orderId: `ord-${hex(12)}`,
        creationTime: t - DAY,
        executionTime: t - DAY + 3_600_000,
        price: amount,
        category: 'food',
        items: [food],
        email: c.email,
        telephone: c.phone,
        suppliers: [{ ...body.order.suppliers[0], supplierId: supplier.id }],
      });
      const [card, credit] = body.paymentMethods;
      body.paymentMethods = [{ ...methodCard(card, c.card, name), paymentMethodId, billingFamilyName: c.family, billingGivenName: c.given }, credit];
      body.transactions = [{ ...body.transactions[0], transactionId: `tx-${hex(16)}`, time: t - 30_000, amount, paymentMethodId, mcc: '5812' }];
      body.device = device(body.device, c.device);
      return body;
    },
    payout(s, t) {
      const body = clone(T.payout);
      const name = `${s.given} ${s.family}`;
      body.timestamp = t;
      Object.assign(body.payout, { payoutId: `pay-${hex(12)}`, notificationEmail: s.email, creationTime: t - 3_600_000, payoutTime: t + DAY, periodStart: t - 30 * DAY, periodEnd: t - DAY });
      Object.assign(body.supplier, { supplierId: s.id, email: s.email, telephone: s.phone, name, groupId: s.group });
      body.paymentMethod = { ...methodCard(body.paymentMethod, s.card, name), paymentMethodId: `pm-card-${s.card.instrumentId}` };
      return body;
    },
    label(c) {
      // Reviews confirm fraud rings and clear genuine customers.
      return c.ring.fraud && random() < 0.8 ? clone(T.labelFraudster) : clone(T.labelGenuine);
    },
    lookupQuery(c, t) {
      const query = new URLSearchParams();
      const values = { email: c.email, telephone: c.phone, ipAddress: c.device.ip, instrumentId: c.card.instrumentId, ipFromTime: String(t - 30 * DAY) };
      // The fixture's parameters, with this customer's values; no PayPal payer or bank account here.
      for (const name of Object.keys(T.lookupRead)) if (name in values) query.set(name, values[name]);
      return query.toString();
    },
    lookupReport(c, t) {
      const body = clone(T.lookupAdd);
      const ago = t - DAY;
      body.timestamp = t;
      body.email = { ...body.email, address: c.email, timestamp: ago };
      body.telephone = { ...body.telephone, number: c.phone, countryCode: 'GBR', timestamp: ago };
      body.ipAddress = { ...body.ipAddress, address: c.device.ip, timestamp: ago };
      body.paymentMethod = { ...body.paymentMethod, instrumentId: c.card.instrumentId, timestamp: ago };
      body.chargebacks = [{ ...body.chargebacks[0], chargebackId: `cb-${hex(10)}`, customerId: c.id, disputeTime: ago }];
      body.manualReviews = [{ ...body.manualReviews[0], reviewId: `rev-${hex(8)}`, customerId: c.id, timestamp: ago }];
      return body;
    },
  };
}

const POST_HEADERS = (key) => ({ 'content-type': 'application/json', authorization: `token ${key}` });

/**
 * `count` requests in the proportions of CLASSES, as { cls, customer (its index, if the request
 * names one), method, path, headers, body (Buffer or undefined) }, built before any load so the load generator only hands them out. Customers are
 * picked uniformly; an after-authorisation check names a transaction checked before
 * authorisation about 300 requests earlier; fraud reports and most fraud labels name members of
 * fraud rings.
 */
export function requestSequence(pop, { count, startMs, key }) {
  const build = builders(pop);
  const { random, pick } = pop;
  const thresholds = [];
  let total = 0;
  for (const cls of CLASSES) thresholds.push([(total += cls.share) / 100, cls]);
  const anyCustomer = () => pop.customers[pick(pop.customers.length)];
  const fraudster = () => {
    const ring = pop.fraudRings[pick(pop.fraudRings.length)];
    return ring ? ring.members[pick(ring.members.length)] : anyCustomer();
  };
  const pendingAuth = [];
  const headers = POST_HEADERS(key);
  const getHeaders = { authorization: `token ${key}` };
  const out = new Array(count);
  for (let i = 0; i < count; i += 1) {
    const t = startMs + i;
    const r = random();
    const cls = thresholds.find(([upTo]) => r < upTo)?.[1] ?? CLASSES[CLASSES.length - 1];
    let method = 'POST';
    let path;
    let body;
    let c = anyCustomer();
    switch (cls.name) {
      case 'customer':
        path = '/v2/customer';
        body = build.customer(c, t);
        break;
      case 'psp before auth': {
        const transaction = build.newTransaction(c);
        pendingAuth.push(transaction);
        path = '/psp/transaction?checkpoint=pspBeforeAuth';
        body = build.pspBeforeAuth(c, t, transaction);
        break;
      }
      case 'psp after auth': {
        const transaction = pendingAuth.length > 50 ? pendingAuth.shift() : build.newTransaction(c);
        c = transaction.customer;
        path = '/psp/transaction?checkpoint=pspAfterAuth';
        body = build.pspAfterAuth(c, t, transaction);
        break;
      }
      case 'connect':
        path = '/v2/connect';
        body = build.connect(c, t);
        break;
      case 'connect features':
        path = '/v2/connect?features=true';
        body = build.connect(c, t);
        break;
      case 'voucher check':
        if (random() < 0.3) c = fraudster();
        path = '/v2/voucher/check';
        body = build.voucherCheck(c, t);
        break;
      case 'voucher redemption':
        if (random() < 0.3) c = fraudster();
        path = '/v2/paymentmethod/voucher';
        body = build.voucherRedemption(c, t);
        break;
      case 'refund':
        path = '/v2/refund';
        body = build.refund(c, t, pop.suppliers[pick(pop.suppliers.length)]);
        break;
      case 'payout':
        c = undefined;
        path = '/v2/payout';
        body = build.payout(pop.suppliers[pick(pop.suppliers.length)], t);
        break;
      case 'label':
        if (random() < 0.5) c = fraudster();
        path = `/v2/customer/${encodeURIComponent(c.id)}/labels`;
        body = build.label(c);
        break;
      case 'lookup read':
        if (random() < 0.1) c = fraudster();
        method = 'GET';
        path = `/v2/lookup?${build.lookupQuery(c, t)}`;
        break;
      case 'lookup report':
        c = fraudster();
        path = '/v2/lookup';
        body = build.lookupReport(c, t);
        break;
      default:
        throw new Error(`no builder for ${cls.name}`);
    }
    out[i] = { cls: cls.name, customer: c?.index, method, path, headers: body === undefined ? getHeaders : headers, body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)) };
  }
  return out;
}
