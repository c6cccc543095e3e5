import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { type Checkpoint, EventTopics } from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository, type EntityKind } from '@ringfence/entities';
import { SCORE_MODEL_VERSION, type FeatureValue, featureDeclarations, featuresFromRecord } from '@ringfence/scoring-engine';
import { FIXTURES_DIRECTORY } from '../contracts/fixture-loader';
import { pspTransactionRequest } from '../support/payload-factories';
import { type EmbeddedService, defaultAccountId, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, eventually, startEmbeddedService } from '../support/embedded-service';

// Fixture bodies are free-form JSON, read and changed by path in these tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;
let sequence = 0;

/** A golden fixture's body with its identifiers made unique to the test (`cus-61213` → `cus-61213-7`). */
function fixtureBody(slugAndName: string, ids: string[]): Body {
  let text = JSON.stringify((JSON.parse(readFileSync(join(FIXTURES_DIRECTORY, `${slugAndName}.json`), 'utf8')) as { body: Body }).body);
  sequence += 1;
  for (const id of ids) text = text.split(`"${id}"`).join(`"${id}-${sequence}"`);
  return { ...JSON.parse(text), timestamp: Date.now() };
}

describe('checkpoints and ingest routes (embedded, over HTTPS)', () => {
  let service: EmbeddedService;
  let accountId: string;

  beforeAll(async () => {
    service = await startEmbeddedService();
    accountId = await defaultAccountId(service);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const post = (path: string, body: unknown) => service.client.send<Body>({ method: 'POST', path, body, apiKey: TEST_BOOTSTRAP_KEY });
  // Reads the entity store directly, not through the API: the store is written by the ingestion
  // consumer, asynchronously by design, so this (and only this) is polled. The API's own reads
  // are asserted on the next request, never polled.
  const stored = (kind: EntityKind, entityId: string) =>
    eventually(() => service.app.get<EntityDocumentRepository>(ENTITY_DOCUMENT_REPOSITORY).find({ accountId, environment: 'test', kind, entityId }));
  const feed = async (topic: string) =>
    (await service.app.get<EventLogStore>(EVENT_LOG_STORE).readAfter(topic, 0, 10_000)).map((event) => event.envelope);

  it('refund: answers data {customerId, action, source, score, scoreId, rules} and keeps refund, order, transactions and methods', async () => {
    const body = fixtureBody('refund/valid/full', ['cus-61213', 'ref-2025-11-0042', 'ord-2025-11-7781', 'tx-refund-0001']);
    const response = await post('/v2/refund', body);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 200,
      timestamp: expect.any(Number),
      data: {
        customerId: body.customer.customerId,
        action: expect.stringMatching(/ALLOW|REVIEW|PREVENT/),
        source: 'RINGFENCE',
        score: expect.any(Number),
        scoreId: expect.stringMatching(/^scr_/),
        rules: { triggered: [] },
      },
    });
    const refund = await stored('refund', body.refund.refundId);
    expect(refund.fields).toMatchObject({ customerId: body.customer.customerId, orderId: body.order.orderId });
    expect((await stored('order', body.order.orderId)).fields).toMatchObject({ customerId: body.customer.customerId });
    expect((await stored('transaction', body.transactions[0].transactionId)).fields).toMatchObject({ type: 'refund' });
  });

  it('refund: asking back more than the order cost raises the model score', async () => {
    const modelScoreOf = async (body: Body) => {
      const before = (await feed(EventTopics.refundScored)).length;
      expect((await post('/v2/refund', body)).status).toBe(200);
      // The decision is published before the answer: it is on the feed for the next read.
      const events = await feed(EventTopics.refundScored);
      expect(events.length).toBe(before + 1);
      return (events.at(-1)!.payload as { features: { modelScore: number } }).features.modelScore;
    };
    // Its own e-mail, card and device: the fixture's are shared by the other tests' customers,
    // and that network would push both scores to the cap.
    const ids = ['cus-61213', 'ref-2025-11-0042', 'ord-2025-11-7781', 'tx-refund-0001', 'ada@example.com', 'inst-9f2c61d0', 'pm-card-7731', 'dev-4f1c'];
    const fair = fixtureBody('refund/valid/full', ids);
    fair.refund.amount = Math.floor(fair.order.price / 4);
    const greedy = fixtureBody('refund/valid/full', ids);
    greedy.refund.amount = greedy.order.price * 3;
    expect(await modelScoreOf(greedy)).toBeGreaterThanOrEqual((await modelScoreOf(fair)) + 40);
  });

  it('payout: answers data {supplierId, payoutId, action, source, score, scoreId, rules}; a FRAUDULENT label decides it', async () => {
    const body = fixtureBody('payout/valid/card-full', ['sup-driver-0917', 'pay-2025-11-0193', 'pm-card-7781']);
    const first = await post('/v2/payout', body);
    expect(first.body.data).toEqual({
      supplierId: body.supplier.supplierId,
      payoutId: body.payout.payoutId,
      action: expect.any(String),
      source: 'RINGFENCE',
      score: expect.any(Number),
      scoreId: expect.stringMatching(/^scr_/),
      rules: { triggered: [] },
    });
    expect((await stored('payout', body.payout.payoutId)).fields).toMatchObject({ supplierId: body.supplier.supplierId });
    await post(`/v2/supplier/${encodeURIComponent(body.supplier.supplierId)}/labels`, { review: 'FRAUDULENT' });
    const second = await post('/v2/payout', { ...body, timestamp: Date.now() });
    expect(second.body.data).toMatchObject({ action: 'PREVENT', source: 'MANUAL_REVIEW' });
  });

  it('voucher redemption: customer-shaped answer with warnings for unknown references; a replay is stored once', async () => {
    const body = { timestamp: Date.now(), customerId: `guest-${Date.now()}@example.com`, voucherRedemption: { voucherCode: 'SPRING', paymentMethodId: `pm-${Date.now()}`, redemptionTime: Date.now() } };
    const response = await post('/v2/paymentmethod/voucher?score=true', body);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ customerId: body.customerId, scoreId: expect.stringMatching(/^scr_/) });
    expect(response.body.data.warnings.map((warning: { class: string }) => warning.class).sort()).toEqual(['customer-not-found', 'paymentmethod-not-found']);
    // Each warning links to its entry in the API docs this server serves.
    for (const warning of response.body.data.warnings) expect(warning.help).toBe(`/docs/api#warning-${warning.class}`);
    expect((await service.client.send<string>({ path: response.body.data.warnings[0].help.split('#')[0] })).status).toBe(200);
    await post('/v2/paymentmethod/voucher', { ...body, timestamp: body.timestamp + 1000 });
    // Both redemptions were published before their answers; the store keeps them as one record.
    const redemptions = (await feed(EventTopics.voucherRedemptionSubmitted)).filter((event) => (event.payload as Body).customerId === body.customerId);
    expect(redemptions).toHaveLength(2);
    // One record: the same customer, code and redemption time.
    const key = JSON.stringify([body.customerId, 'SPRING', body.voucherRedemption.redemptionTime]);
    expect((await stored('voucherRedemption', key)).fields).toMatchObject({ voucherCode: 'SPRING' });
  });

  it('voucher: stores the voucher; check answers OK for an unused code, 403 when the account disabled it', async () => {
    const voucher = fixtureBody('voucher/valid/full', ['WELCOME-ADA-25']);
    expect((await post('/v2/voucher', voucher)).body).toEqual({ status: 200, timestamp: expect.any(Number) });
    expect((await stored('voucher', voucher.voucher.voucherCode)).fields).toMatchObject({ voucherType: voucher.voucher.voucherType });
    const check = { timestamp: Date.now(), customerId: 'cus-1', voucherCode: voucher.voucher.voucherCode };
    expect((await post('/v2/voucher/check', check)).body).toEqual({ timestamp: expect.any(Number), recommendation: 'OK' });
    await service.client.send({ method: 'PATCH', path: `/admin/accounts/${accountId}/settings`, body: { voucherAbuseEnabled: false }, apiKey: TEST_ADMIN_KEY });
    try {
      const refused = await post('/v2/voucher/check', check);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toMatch(/disabled/);
    } finally {
      await service.client.send({ method: 'PATCH', path: `/admin/accounts/${accountId}/settings`, body: { voucherAbuseEnabled: true }, apiKey: TEST_ADMIN_KEY });
    }
  });

  it('PSP transaction: data only with a checkpoint; updates of one transaction merge into one record', async () => {
    const base = fixtureBody('psp-transaction/valid/full', ['tx-0001', 'cus-61213']);
    const withoutCheckpoint = await post('/psp/transaction', base);
    expect(withoutCheckpoint.status).toBe(200);
    expect(withoutCheckpoint.body.data).toBeUndefined();
    const captured = { ...base, timestamp: Date.now() + 5, transaction: { ...base.transaction, type: 'capture', amount: base.transaction.amount + 100 } };
    const scored = await post('/psp/transaction?checkpoint=pspAfterAuth', captured);
    expect(scored.body).toEqual({
      status: 200,
      timestamp: expect.any(Number),
      data: {
        action: expect.any(String),
        source: 'RINGFENCE',
        rules: { triggered: [] },
        score: expect.any(Number),
        scoreId: expect.stringMatching(/^scr_/),
        transactionId: base.transaction.transactionId,
      },
    });
    const record = await eventually(async () => {
      const document = await stored('transaction', base.transaction.transactionId);
      return document.fields.type === 'capture' ? document : null;
    });
    expect(record.fields).toMatchObject({ amount: base.transaction.amount + 100, customerId: base.customer.customerId });
  });

  it('PSP transaction /async with a checkpoint: the recommendation goes to the decision feed only', async () => {
    const body = fixtureBody('psp-transaction/valid/full', ['tx-0001', 'cus-61213']);
    const response = await post('/psp/transaction/async?checkpoint=pspBeforeAuth', body);
    expect(response.body).toEqual({ status: 200, timestamp: expect.any(Number) });
    const decision = await eventually(async () =>
      (await feed(EventTopics.transactionScored)).find((event) => (event.payload as Body).recommendation.transactionId === body.transaction.transactionId),
    );
    expect(decision.payload).toMatchObject({ checkpoint: 'transaction', recommendation: { action: expect.any(String) } });
  });

  it('a lost dispute on a customer\'s transaction decides their next checkpoint (CHARGEBACK); winning it forgives', async () => {
    const transaction = fixtureBody('psp-transaction/valid/full', ['tx-0001', 'cus-61213']);
    await post('/psp/transaction', transaction);
    await stored('transaction', transaction.transaction.transactionId);
    const dispute = fixtureBody('psp-dispute/valid/full', ['dsp-20251122-0042']);
    dispute.dispute.transactionId = transaction.transaction.transactionId;
    const answer = await post('/psp/dispute/async', dispute);
    expect(answer.body).toEqual({ status: 200, timestamp: expect.any(Number), data: { disputeId: dispute.dispute.disputeId, transactionId: transaction.transaction.transactionId } });
    const customerId = transaction.customer.customerId;
    const customer = { timestamp: Date.now(), customer: { customerId } };
    expect((await post('/v2/customer', customer)).body.data).toMatchObject({ action: 'PREVENT', source: 'CHARGEBACK' });
    await post('/psp/dispute', { ...dispute, timestamp: Date.now(), dispute: { ...dispute.dispute, outcome: 'WON' } });
    expect((await post('/v2/customer', { ...customer, timestamp: Date.now() })).body.data.source).not.toBe('CHARGEBACK');
  });

  it('connect: the short answer, links stored; a connect chargeback marks the customer', async () => {
    const body = fixtureBody('connect/valid/full', ['cus-61213']);
    // Its review would decide (MANUAL_REVIEW comes before CHARGEBACK); reviews have their own test.
    delete body.review;
    const response = await post('/v2/connect', body);
    expect(response.body).toEqual({ status: 200, success: 'true', timestamp: expect.any(Number), clientID: accountId, customerID: body.customer.customerId });
    const customer = await stored('customer', body.customer.customerId);
    expect(customer.fields).toMatchObject({ vehicles: expect.any(Array), nationalIdentifications: expect.any(Array) });
    const chargebackId = `cb-${Date.now()}`;
    await post('/v2/connect', { timestamp: Date.now(), customerId: body.customer.customerId, chargeback: { chargebackId, status: 'LOST' } });
    const decision = await post('/v2/customer', { timestamp: Date.now(), customer: { customerId: body.customer.customerId } });
    expect(decision.body.data.source).toBe('CHARGEBACK');
  });

  it('connect: a review sets the PAYMENT_FRAUD label as the label endpoint does, audit log included', async () => {
    const customerId = `cus-reviewed-${Date.now()}`;
    const review = { label: 'FRAUDSTER', comment: 'ring of stolen cards', reviewer: { name: 'Grace', email: 'grace@merchant.example' } };
    expect((await post('/v2/connect', { timestamp: Date.now(), customerId, review })).status).toBe(200);
    const labels = await service.client.send<Body>({ path: `/v2/customer/${customerId}/labels`, apiKey: TEST_BOOTSTRAP_KEY });
    expect(labels.body.data.labels.PAYMENT_FRAUD).toMatchObject({ review: 'FRAUDSTER', comment: review.comment, reviewer: review.reviewer });
    expect((await post('/v2/customer', { timestamp: Date.now(), customer: { customerId } })).body.data).toMatchObject({ action: 'PREVENT', source: 'MANUAL_REVIEW' });
    const potential = await post('/v2/connect', { timestamp: Date.now(), customerId, review: { label: 'POTENTIALLY_GENUINE' } });
    expect(potential.status).toBe(400);
    expect(potential.body.message).toMatch(/not enabled/);
  });

  it('a known-fraud indicator in the request decides the checkpoint (LOOKUP)', async () => {
    const email = `stolen-${Date.now()}@example.com`;
    const reported = await post('/v2/lookup', {
      timestamp: Math.floor(Date.now() / 1000),
      email: { address: email },
      chargebacks: [{ chargebackId: `cb-lookup-${Date.now()}`, reason: 'fraudulent' }],
    });
    expect(reported.status).toBe(200);
    const customer = { timestamp: Date.now(), customer: { customerId: `cus-lookup-${Date.now()}`, email: email.toUpperCase() } };
    expect((await post('/v2/customer', customer)).body.data).toMatchObject({ action: 'PREVENT', source: 'LOOKUP' });
    const clean = { timestamp: Date.now(), customer: { customerId: `cus-clean-${Date.now()}`, email: `clean-${Date.now()}@example.com` } };
    expect((await post('/v2/customer', clean)).body.data.source).toBe('RINGFENCE');
  });

  /**
   * The feature vector of the newest decision event on `topic` whose recommendation matches, read
   * right after the answer (published before it), with the zeros the event leaves out.
   */
  const decisionOn = async (topic: string, matches: (recommendation: Body) => boolean) => {
    const event = (await feed(topic)).filter((item) => matches((item.payload as Body).recommendation)).at(-1);
    expect(event).toBeDefined();
    const { checkpoint, features } = event!.payload as { checkpoint: Checkpoint; features: Record<string, FeatureValue> };
    return featuresFromRecord(checkpoint, features) as Body;
  };
  const label = (customerId: string, body: Body) => post(`/v2/customer/${encodeURIComponent(customerId)}/labels`, body);
  const YEAR_AGO = Date.now() - 365 * 86_400_000;

  it('refund: a REFUND_ABUSE label prevents refunds (MANUAL_REVIEW), NOT_REFUND_ABUSE allows them; other checkpoints ignore it', async () => {
    const n = `${Date.now()}-${(sequence += 1)}`;
    const customerId = `cus-refund-abuse-${n}`;
    let refunds = 0;
    const refund = async () => {
      refunds += 1;
      const body = {
        timestamp: Date.now(),
        customer: { customerId },
        refund: { refundId: `rfd-${n}-${refunds}`, amount: 500, currency: 'GBP' },
        order: { orderId: `ord-${n}`, price: 1000, currency: 'GBP' },
      };
      const response = await post('/v2/refund', body);
      expect(response.status).toBe(200);
      return response.body.data as Body;
    };
    expect(await refund()).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });

    expect((await label(customerId, { category: 'REFUND_ABUSE', review: 'REFUND_ABUSE' })).status).toBe(200);
    expect(await refund()).toMatchObject({ action: 'PREVENT', source: 'MANUAL_REVIEW' });
    expect((await decisionOn(EventTopics.refundScored, (data) => data.customerId === customerId)).decisionReason).toBe('current label REFUND_ABUSE');
    // A refund abuser is no payment fraudster: the customer checkpoint does not read that label.
    expect((await post('/v2/customer', { timestamp: Date.now(), customer: { customerId } })).body.data).toMatchObject({ source: 'RINGFENCE' });
    // A GENUINE payment-fraud verdict says nothing about refunds: the refund stays prevented.
    expect((await label(customerId, { category: 'PAYMENT_FRAUD', review: 'GENUINE' })).status).toBe(200);
    expect(await refund()).toMatchObject({ action: 'PREVENT', source: 'MANUAL_REVIEW' });
    expect((await label(customerId, { category: 'PAYMENT_FRAUD', review: 'UNREVIEWED' })).status).toBe(200);

    expect((await label(customerId, { category: 'REFUND_ABUSE', review: 'NOT_REFUND_ABUSE' })).status).toBe(200);
    expect(await refund()).toMatchObject({ action: 'ALLOW', source: 'MANUAL_REVIEW' });
    expect((await label(customerId, { category: 'REFUND_ABUSE', review: 'UNREVIEWED' })).status).toBe(200);
    expect(await refund()).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });
  });

  it("payout: a supplier whose order's customer has an unforgiven chargeback gets REVIEW (NETWORK), until it is forgiven", async () => {
    const n = `${Date.now()}-${(sequence += 1)}`;
    const [customerId, supplierId, chargebackId] = [`cus-buyer-${n}`, `sup-driver-${n}`, `cb-buyer-${n}`];
    let payouts = 0;
    const payout = async () => {
      payouts += 1;
      const body = {
        timestamp: Date.now(),
        payout: { payoutId: `pay-${n}-${payouts}`, earnings: { currency: 'GBP', totalNetAmount: 12_000 } },
        supplier: { supplierId, email: `driver-${n}@example.com`, emailVerifiedTime: YEAR_AGO, name: 'Grace Hopper', registrationTime: YEAR_AGO, identityVerified: true },
        paymentMethod: { methodType: 'card', paymentMethodId: `pm-${n}`, instrumentId: `inst-${n}` },
      };
      const response = await post('/v2/payout', body);
      expect(response.status).toBe(200);
      return { data: response.body.data as Body, payoutId: body.payout.payoutId };
    };
    // The refund's order links its customer and the supplier (the order's suppliers).
    const refund = { timestamp: Date.now(), customer: { customerId }, refund: { refundId: `rfd-${n}` }, order: { orderId: `ord-${n}`, suppliers: [{ supplierId }] } };
    expect((await post('/v2/refund', refund)).status).toBe(200);
    expect((await payout()).data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });

    const lost = await post('/v2/connect?features=true', { timestamp: Date.now(), customerId, chargeback: { chargebackId, status: 'LOST' } });
    expect(lost.body).toMatchObject({ hopsToFraud: 0 });
    const flagged = await payout();
    expect(flagged.data).toMatchObject({ action: 'REVIEW', source: 'NETWORK' });
    expect(await decisionOn(EventTopics.payoutScored, (data) => data.payoutId === flagged.payoutId)).toMatchObject({
      networkAnswered: true,
      networkHopsToFraud: 1,
      decisionReason: 'a fraudster 1 hops away in the graph',
    });

    await post('/v2/connect?features=true', { timestamp: Date.now(), customerId, chargeback: { chargebackId, nonFraud: true } });
    expect((await payout()).data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });
  });

  it("voucher redemption: a redemption whose network reaches the account's abuse threshold gets REVIEW (NETWORK), with the count on its decision event", async () => {
    const n = `${Date.now()}-${(sequence += 1)}`;
    // Letters only: a digit-heavy local part would raise the model's score by itself.
    const email = `ring.${n.replace(/[^0-9]/g, '').replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)])}@example.com`;
    const code = `RING-${n}`;
    const redeem = async (customerId: string) => {
      const body = {
        timestamp: Date.now(),
        customer: { customerId, email, emailVerifiedTime: YEAR_AGO, name: 'Ada Lovelace', registrationTime: YEAR_AGO },
        voucherRedemption: { voucherCode: code, redemptionTime: Date.now(), success: true },
      };
      const response = await post('/v2/paymentmethod/voucher', body);
      expect(response.status).toBe(200);
      const features = await decisionOn(EventTopics.voucherRedemptionScored, (data) => data.customerId === customerId);
      return { data: response.body.data as Body, features };
    };
    // Three customers share one e-mail, and so one network; each redeems the code once.
    const first = await redeem(`ring-a-${n}`);
    expect(first.data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });
    expect(first.features).toMatchObject({ voucherNetworkUses: 1, voucherAbuseThreshold: 3, voucherAbuse: false });
    const second = await redeem(`ring-b-${n}`);
    expect(second.data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });
    expect(second.features).toMatchObject({ voucherNetworkUses: 2, voucherAbuse: false });
    // The third use reaches the default threshold of 3: what the voucher check would now answer ABUSE for.
    const third = await redeem(`ring-c-${n}`);
    expect(third.data).toMatchObject({ action: 'REVIEW', source: 'NETWORK' });
    expect(third.features).toMatchObject({
      voucherNetworkUses: 3,
      voucherAbuseThreshold: 3,
      voucherAbuse: true,
      decisionReason: "voucher abuse: 3 successful uses of the code in the customer's network (threshold 3)",
    });
    const check = await post('/v2/voucher/check', { timestamp: Date.now(), customerId: `ring-c-${n}`, voucherCode: code });
    expect(check.body.recommendation).toBe('ABUSE');

    await service.client.send({ method: 'PATCH', path: `/admin/accounts/${accountId}/settings`, body: { voucherAbuseEnabled: false }, apiKey: TEST_ADMIN_KEY });
    try {
      const disabled = await redeem(`ring-d-${n}`);
      expect(disabled.data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });
      expect(disabled.features).toMatchObject({ voucherNetworkUses: null, voucherAbuse: false });
    } finally {
      await service.client.send({ method: 'PATCH', path: `/admin/accounts/${accountId}/settings`, body: { voucherAbuseEnabled: true }, apiKey: TEST_ADMIN_KEY });
    }
  });

  it('fraud rates: a device\'s share of fraudsters counts a label given after the device was used, at the very next checkpoint', async () => {
    const n = `${Date.now()}-${(sequence += 1)}`;
    const deviceId = `dev-rate-${n}`;
    const customers = ['a', 'b', 'c'].map((letter) => `cus-rate-${letter}-${n}`);
    const visit = (customerId: string) => post('/v2/customer', { timestamp: Date.now(), customer: { customerId, email: `${customerId}@example.com` }, device: { deviceId } });
    for (const customerId of customers) expect((await visit(customerId)).status).toBe(200);
    const [subject, fraudster] = customers;
    const rateOf = async () => {
      expect((await visit(subject)).status).toBe(200);
      const features = await decisionOn(EventTopics.customerScored, (data) => data.customerId === subject);
      return { rate: features.networkDeviceFraudRate, fraudsters: features.networkDeviceFraudCustomers };
    };
    expect(await rateOf()).toEqual({ rate: 0, fraudsters: 0 });

    expect((await label(fraudster, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' })).status).toBe(200);
    expect(await rateOf()).toEqual({ rate: 0.5, fraudsters: 1 });
  });

  it('fraud rates: a merchant\'s share of fraudsters among its other customers follows labels and chargebacks at the very next transaction', async () => {
    const n = `${Date.now()}-${(sequence += 1)}`;
    const mid = `mid-rate-${n}`;
    const [subject, fraudster, genuine] = ['a', 'b', 'c'].map((letter) => `cus-mid-${letter}-${n}`);
    const pay = async (customerId: string, transactionMid = mid) => {
      const body = pspTransactionRequest({ transaction: { transactionId: `tx-mid-${customerId}-${(sequence += 1)}`, mid: transactionMid }, customer: { customerId } });
      expect((await post('/psp/transaction?checkpoint=pspBeforeAuth', body)).status).toBe(200);
      return body.transaction.transactionId;
    };
    const rateSeenBy = async (customerId: string, transactionMid = mid) => {
      const transactionId = await pay(customerId, transactionMid);
      const features = await decisionOn(EventTopics.transactionScored, (data) => data.transactionId === transactionId);
      return { customers: features.merchantCustomers, fraudCustomers: features.merchantFraudCustomers, rate: features.merchantFraudRate };
    };
    await pay(fraudster);
    const chargedBack = await pay(genuine);
    expect(await rateSeenBy(subject)).toEqual({ customers: 2, fraudCustomers: 0, rate: 0 });

    expect((await label(fraudster, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' })).status).toBe(200);
    expect(await rateSeenBy(subject)).toEqual({ customers: 2, fraudCustomers: 1, rate: 0.5 });
    // The fraudster's own label does not count against the merchant it pays at.
    expect(await rateSeenBy(fraudster)).toEqual({ customers: 2, fraudCustomers: 0, rate: 0 });
    const dispute = { timestamp: Date.now(), dispute: { disputeId: `dsp-mid-${n}`, transactionId: chargedBack, stage: 'CHARGEBACK' } };
    expect((await post('/psp/dispute', dispute)).status).toBe(200);
    expect(await rateSeenBy(subject)).toEqual({ customers: 2, fraudCustomers: 2, rate: 1 });
    // Another merchant, and a request without one.
    expect(await rateSeenBy(subject, `mid-other-${n}`)).toEqual({ customers: 0, fraudCustomers: 0, rate: 0 });
    const withoutMid = pspTransactionRequest({ customer: { customerId: subject } });
    expect((await post('/psp/transaction?checkpoint=pspBeforeAuth', withoutMid)).status).toBe(200);
    expect(await decisionOn(EventTopics.transactionScored, (data) => data.transactionId === withoutMid.transaction.transactionId)).toMatchObject({
      merchantCustomers: null,
      merchantFraudRate: null,
    });
  });

  it('the model: a new customer with complete details is allowed, a large payout to a supplier nobody has seen is reviewed; every catalogue feature is on the decision event', async () => {
    const n = `${Date.now()}-${(sequence += 1)}`;
    const letters = n.replace(/[^0-9]/g, '').replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)]);
    const customerId = `cus-signup-${n}`;
    const signUp = {
      timestamp: Date.now(),
      customer: { customerId, email: `grace.hopper.${letters}@example.com`, name: 'Grace Hopper', registrationTime: Date.now() - 60_000 },
      device: { deviceId: `dev-signup-${n}`, ipAddress: '81.2.69.142', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1' },
    };
    expect((await post('/v2/customer', signUp)).body.data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });
    const event = (await feed(EventTopics.customerScored)).filter((item) => ((item.payload as Body).recommendation as Body).customerId === customerId).at(-1);
    const recorded = (event!.payload as Body).features as Body;
    // The event leaves out the zeros (most of the vector): whatever is listed is not 0 or false.
    expect(Object.values(recorded).filter((value) => value === 0 || value === false)).toEqual([]);
    const features = await decisionOn(EventTopics.customerScored, (data) => data.customerId === customerId);
    expect(Object.keys(features)).toEqual(expect.arrayContaining(featureDeclarations('customer').map((feature) => feature.name)));
    expect(features).toMatchObject({ emailMatchesName: true, emailDisposable: false, ipCountry: 'GBR', userAgentBrowser: 'Safari', userAgentBot: false, modelVersion: SCORE_MODEL_VERSION });

    const payout = {
      timestamp: Date.now(),
      payout: { payoutId: `pay-first-${n}`, earnings: { currency: 'GBP', totalNetAmount: 800_000 } },
      supplier: { supplierId: `sup-unknown-${n}`, name: 'Sam Carter', email: `sam.carter.${letters}@example.com` },
      paymentMethod: { methodType: 'card', paymentMethodId: `pm-first-${n}`, instrumentId: `inst-first-${n}` },
    };
    expect((await post('/v2/payout', payout)).body.data).toMatchObject({ action: 'REVIEW', source: 'RINGFENCE' });
    expect(await decisionOn(EventTopics.payoutScored, (data) => data.payoutId === payout.payout.payoutId)).toMatchObject({
      payoutSupplierFirstSeen: true,
      amountLarge: true,
      largePayoutToNewSupplier: true,
    });
  });

  it('PSP transaction: a large amount is judged in its own currency (ISO 4217 minor units)', async () => {
    const scoreOf = async (amount: number, currency: string) => {
      const body = { timestamp: Date.now(), transaction: { transactionId: `tx-currency-${Date.now()}-${(sequence += 1)}`, amount, currency } };
      const response = await post('/psp/transaction?checkpoint=pspBeforeAuth', body);
      expect(response.status).toBe(200);
      return response.body.data.score as number;
    };
    // 120,000 minor units: 1,200.00 euros is large, 120,000 yen (no minor unit) is not.
    expect(await scoreOf(120_000, 'EUR')).toBe((await scoreOf(120_000, 'JPY')) + 10);
    expect(await scoreOf(150_000, 'JPY')).toBe(await scoreOf(120_000, 'EUR'));
  });

  it('supplier: {status, success} and the supplier stored with identifications and vehicles', async () => {
    const body = fixtureBody('supplier/valid/full', ['sup-2231']);
    expect((await post('/v2/supplier', body)).body).toEqual({ status: 200, success: 'true' });
    expect((await stored('supplier', body.supplier.supplierId)).fields).toMatchObject({ email: body.supplier.email });
  });

  it('registration: credentialStatus in data and at the top level; the password hash never reaches the bus', async () => {
    const body = fixtureBody('registration/valid/full-customer', ['cus-61213']);
    const hash = body.registration.registrationMechanism.password.passwordHashed as string;
    const response = await post('/v2/registration', body);
    expect(response.status).toBe(200);
    const credentialStatus = { usernameBreached: false, passwordBreached: true };
    expect(response.body).toEqual({
      status: 200,
      timestamp: expect.any(Number),
      data: expect.objectContaining({ customerId: body.customer.customerId, registrationId: expect.stringMatching(/^reg_/), credentialStatus }),
      credentialStatus,
    });
    const events = await feed(EventTopics.registrationSubmitted);
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain(hash);
    expect(JSON.stringify(await feed(EventTopics.registrationScored))).not.toContain(hash);
  });

  it('normalises every time in a payload to milliseconds before it is published', async () => {
    const seconds = Math.floor(Date.now() / 1000);
    const body = fixtureBody('supplier/valid/full', ['sup-2231']);
    body.timestamp = seconds;
    body.supplier.registrationTime = seconds * 1_000_000_000;
    await post('/v2/supplier', body);
    const event = (await feed(EventTopics.supplierUpdated)).find((item) => (item.payload as Body).supplier.supplierId === body.supplier.supplierId);
    expect(event?.payload).toMatchObject({ timestamp: seconds * 1000, supplier: { registrationTime: seconds * 1000 } });
  });

  it('refuses a PSP transaction time whose milliseconds every later reader would take for seconds (before March 1973), naming the field', async () => {
    // 99,999,999 s is 99,999,999,000 ms, under 1e11: a consumer validating the stored milliseconds
    // would read them as seconds, past 2100, so the time is refused before anything is accepted.
    const seconds = 99_999_999;
    const body: Body = { ...fixtureBody('psp-transaction/valid/full', ['tx-0001', 'cus-61213']), timestamp: seconds };
    const refused = await post('/psp/transaction?checkpoint=pspBeforeAuth', body);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^timestamp: /);
    const event = (await feed(EventTopics.transactionUpdated)).find((item) => (item.payload as Body).transaction.transactionId === body.transaction.transactionId);
    expect(event).toBeUndefined();
  });

  it('normalises a PSP transaction time once, for the ingest event and the checkpoint alike', async () => {
    const seconds = 1_763_800_000;
    const body: Body = { ...fixtureBody('psp-transaction/valid/full', ['tx-0002', 'cus-61214']), timestamp: seconds };
    const scored = await post('/psp/transaction?checkpoint=pspBeforeAuth', body);
    expect(scored.status).toBe(200);
    const decision = await service.client.send<{ data: { context: { payload: Body } } }>({ path: `/v2/decisions/${(scored.body.data as Body).scoreId}`, apiKey: TEST_BOOTSTRAP_KEY });
    expect(decision.body.data.context.payload.timestamp).toBe(seconds * 1000);
    const event = (await feed(EventTopics.transactionUpdated)).find((item) => (item.payload as Body).transaction.transactionId === body.transaction.transactionId);
    expect(event?.payload).toMatchObject({ timestamp: seconds * 1000 });
  });

  it('serves the warehouse feed to the admin, page by page', async () => {
    const topics = await service.client.send<{ topics: string[] }>({ path: '/admin/feed', apiKey: TEST_ADMIN_KEY });
    expect(topics.body.topics).toEqual(expect.arrayContaining([EventTopics.customerUpdated, EventTopics.payoutScored]));
    const first = await service.client.send<{ events: Body[]; next: number; done: boolean }>({ path: `/admin/feed/${EventTopics.supplierUpdated}?limit=1`, apiKey: TEST_ADMIN_KEY });
    expect(first.body.events).toHaveLength(1);
    expect(first.body.done).toBe(false);
    const rest = await service.client.send<{ events: Body[] }>({ path: `/admin/feed/${EventTopics.supplierUpdated}?after=${first.body.next}`, apiKey: TEST_ADMIN_KEY });
    expect(rest.body.events[0].sequence).toBeGreaterThan(first.body.next - 1);
    expect((await service.client.send({ path: '/admin/feed/ringfence.rpc.reply.v1', apiKey: TEST_ADMIN_KEY })).status).toBe(404);
    expect((await service.client.send({ path: `/admin/feed/${EventTopics.supplierUpdated}?limit=0`, apiKey: TEST_ADMIN_KEY })).status).toBe(400);
    expect((await service.client.send({ path: `/admin/feed/${EventTopics.supplierUpdated}`, apiKey: TEST_BOOTSTRAP_KEY })).status).toBe(403);
  });
});
