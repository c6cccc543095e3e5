import { type FeatureValue, featuresFromRecord } from '@ringfence/scoring-engine';
import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';
import type { TestResponse } from '../support/https-client';
import { pspTransactionRequest } from '../support/payload-factories';

type Envelope = { status: number; message: string; timestamp: number; traceId: string };
type IndicatorAnswer = {
  value: string;
  known: boolean;
  chargebacks: number;
  manualReviews: number;
  firstSeen: number | null;
  lastSeen: number | null;
  sources: { chargeback: number; manualReview: number; report: number };
};
type ReadAnswer = { status: number; timestamp: number; data: Record<string, IndicatorAnswer> };

const NOW_SECONDS = 1_763_800_000;
const DAY_SECONDS = 86_400;

let sequence = 0;
const uniqueEmail = () => `fraud-${Date.now().toString(36)}-${(sequence += 1)}@example.com`;
const uniqueIp = () => `198.51.100.${(sequence += 1) % 250}`;

/** A POST body with defaults; tests override what they are about. */
function lookupRequest(overrides: Record<string, unknown> = {}) {
  return {
    timestamp: NOW_SECONDS,
    email: { address: uniqueEmail() },
    chargebacks: [{ chargebackId: `cb-${(sequence += 1)}`, reason: 'FRAUD', amount: 1999, currency: 'GBP', customerId: 'cus-1' }],
    ...overrides,
  };
}

/** ADR-0007 and ADR-0009: POST, GET and DELETE /v2/lookup through the real embedded stack. */
describe('known-fraud lookup (/v2/lookup)', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  async function newAccount(industry?: string): Promise<{ accountId: string; name: string; keys: Record<string, string> }> {
    const name = `lookup-${Date.now()}-${(sequence += 1)}`;
    const created = await service.client.send<{ accountId: string; keys: Record<string, string> }>({
      method: 'POST',
      path: '/admin/accounts',
      body: { name, ...(industry ? { industry } : {}) },
      apiKey: TEST_ADMIN_KEY,
    });
    expect(created.status).toBe(201);
    return { ...created.body, name };
  }

  const add = (body: unknown, apiKey = TEST_BOOTSTRAP_KEY) => service.client.send({ method: 'POST', path: '/v2/lookup', body, apiKey });
  const read = (query: Record<string, string>, apiKey = TEST_BOOTSTRAP_KEY) =>
    service.client.send<ReadAnswer>({ path: `/v2/lookup?${new URLSearchParams(query).toString()}`, apiKey });
  const remove = (query: Record<string, string>, apiKey = TEST_BOOTSTRAP_KEY) =>
    service.client.send<{ status: number; data: { deleted: Record<string, number> } }>({
      method: 'DELETE',
      path: `/v2/lookup?${new URLSearchParams(query).toString()}`,
      apiKey,
    });

  function expectEnvelope(response: TestResponse<unknown>, status: number): Envelope {
    expect(response.status).toBe(status);
    const body = response.body as Envelope;
    expect(body).toEqual({ status, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
    return body;
  }

  async function eventsOn(topic: string): Promise<Array<{ accountId: string; subjectId: string; payload: Record<string, unknown> }>> {
    const events = await service.app.get<EventLogStore>(EVENT_LOG_STORE, { strict: false }).readAfter(topic, 0, 100_000);
    return events.map((event) => event.envelope as unknown as { accountId: string; subjectId: string; payload: Record<string, unknown> });
  }

  it('adds indicators with their evidence, reads them back, deletes them, and feeds the warehouse', async () => {
    const address = uniqueEmail();
    const ip = uniqueIp();
    const added = await add(
      lookupRequest({
        email: { address: `  ${address.toUpperCase()} `, verified: true },
        ipAddress: { address: ip, timestamp: NOW_SECONDS - DAY_SECONDS },
        manualReviews: [{ reviewId: 'rev-1', comment: 'stolen card', reviewer: { name: 'Grace Hopper', email: 'grace@merchant.example' } }],
      }),
    );
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      status: 200,
      timestamp: expect.any(Number),
      data: { added: { email: address, ipAddress: ip }, evidence: { chargebacks: 1, manualReviews: 1 } },
    });

    const known = await read({ email: address, ipAddress: ip });
    expect(known.status).toBe(200);
    expect(known.body).toEqual({
      status: 200,
      timestamp: expect.any(Number),
      data: {
        email: {
          value: address,
          known: true,
          chargebacks: 1,
          manualReviews: 1,
          firstSeen: NOW_SECONDS * 1000,
          lastSeen: NOW_SECONDS * 1000,
          sources: { chargeback: 1, manualReview: 1, report: 0 },
        },
        ipAddress: expect.objectContaining({ value: ip, known: true, firstSeen: (NOW_SECONDS - DAY_SECONDS) * 1000 }),
      },
    });

    const deleted = await remove({ email: address.toUpperCase(), ipAddress: ip });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ status: 200, timestamp: expect.any(Number), data: { deleted: { email: 2, ipAddress: 2 } } });
    expect((await read({ email: address })).body.data.email).toEqual({
      value: address,
      known: false,
      chargebacks: 0,
      manualReviews: 0,
      firstSeen: null,
      lastSeen: null,
      sources: { chargeback: 0, manualReview: 0, report: 0 },
    });

    const additions = (await eventsOn('ringfence.ingest.lookup.indicators-added.v1')).filter((event) =>
      JSON.stringify(event.payload).includes(address),
    );
    expect(additions).toHaveLength(1);
    expect(additions[0]).toMatchObject({
      subjectId: 'lookup-indicators',
      payload: {
        timestamp: NOW_SECONDS * 1000,
        indicators: [
          { kind: 'email', value: address, seenAt: NOW_SECONDS * 1000 },
          { kind: 'ipAddress', value: ip, seenAt: (NOW_SECONDS - DAY_SECONDS) * 1000 },
        ],
        manualReviews: [expect.objectContaining({ reviewId: 'rev-1' })],
      },
    });
    const deletions = (await eventsOn('ringfence.ingest.lookup.indicators-deleted.v1')).filter((event) =>
      JSON.stringify(event.payload).includes(address),
    );
    expect(deletions.map((event) => event.payload)).toEqual([
      { indicators: [{ kind: 'email', value: address }, { kind: 'ipAddress', value: ip }], deleted: { email: 2, ipAddress: 2 } },
    ]);
  });

  it('knows an indicator sent without evidence, as a report', async () => {
    const address = uniqueEmail();
    expect((await add({ timestamp: NOW_SECONDS, email: { address } })).status).toBe(200);

    expect((await read({ email: address })).body.data.email).toMatchObject({
      known: true,
      chargebacks: 0,
      manualReviews: 0,
      sources: { chargeback: 0, manualReview: 0, report: 1 },
    });
  });

  it('counts the same chargeback sent twice once', async () => {
    const request = lookupRequest();
    await add(request);
    await add(request);

    expect((await read({ email: request.email.address })).body.data.email).toMatchObject({ chargebacks: 1 });
  });

  it('normalises telephone numbers with an alpha-3, alpha-2 or calling-code country, and IPv6 addresses', async () => {
    const group = (sequence += 1).toString(16);
    await add(lookupRequest({ email: undefined, telephone: { number: '07700 900123', countryCode: 'GBR' }, ipAddress: { address: `2001:DB8:0:0:0:0:${group}:1` } }));
    await add(lookupRequest({ email: undefined, telephone: { number: '020 7946 0958', countryCode: 'gb' } }));
    await add(lookupRequest({ email: undefined, telephone: { number: '30 901820', countryCode: '49' } }));

    const answer = await read({ telephone: '+447700900123', ipAddress: `2001:db8::${group}:1` });
    expect(answer.body.data.telephone).toMatchObject({ value: '+447700900123', known: true });
    expect(answer.body.data.ipAddress).toMatchObject({ value: `2001:db8::${group}:1`, known: true });
    // A `+` left unencoded in a query string arrives as a space.
    const unencoded = await service.client.send<ReadAnswer>({ path: '/v2/lookup?telephone=+442079460958', apiKey: TEST_BOOTSTRAP_KEY });
    expect(unencoded.body.data.telephone).toMatchObject({ value: '+442079460958', known: true });
    expect((await read({ telephone: '+4930901820' })).body.data.telephone).toMatchObject({ known: true });
  });

  it('keeps a number it cannot read as its digits, so it still matches itself', async () => {
    await add(lookupRequest({ email: undefined, telephone: { number: '12-34' } }));

    expect((await read({ telephone: '1234' })).body.data.telephone).toMatchObject({ value: '1234', known: true });
  });

  it('records a payment method by its one identifier', async () => {
    const instrumentId = `card-${(sequence += 1)}`;
    const added = await add(lookupRequest({ email: undefined, paymentMethod: { instrumentId: `  ${instrumentId}` } }));
    expect(added.body).toMatchObject({ data: { added: { instrumentId } } });

    expect((await read({ instrumentId })).body.data.instrumentId).toMatchObject({ known: true, chargebacks: 1 });
  });

  it("counts other accounts' evidence in aggregate without showing any of it", async () => {
    const reporter = await newAccount('food-delivery');
    const asker = await newAccount('food-delivery');
    const address = uniqueEmail();
    await add(
      {
        timestamp: NOW_SECONDS,
        email: { address },
        chargebacks: [{ chargebackId: 'cb-confidential-77', customerId: 'cus-confidential', gatewayReference: 'ref-confidential' }],
        manualReviews: [{ reviewId: 'rev-confidential', comment: 'comment-confidential', reviewer: 'reviewer-confidential' }],
      },
      reporter.keys.secretLive,
    );
    await add({ timestamp: NOW_SECONDS + DAY_SECONDS, email: { address } }, asker.keys.secretLive);

    const answer = await read({ email: address }, asker.keys.secretLive);

    expect(answer.body.data.email).toEqual({
      value: address,
      known: true,
      chargebacks: 1,
      manualReviews: 1,
      firstSeen: NOW_SECONDS * 1000,
      lastSeen: (NOW_SECONDS + DAY_SECONDS) * 1000,
      sources: { chargeback: 1, manualReview: 1, report: 1 },
    });
    for (const secret of ['confidential', reporter.accountId, reporter.name]) expect(answer.text).not.toContain(secret);
  });

  it("keeps test and live data apart: a sandbox key does not see live indicators", async () => {
    const account = await newAccount();
    const request = lookupRequest();
    await add(request, account.keys.secretLive);

    expect((await read({ email: request.email.address }, account.keys.secretTest)).body.data.email).toMatchObject({ known: false });
    expect((await read({ email: request.email.address }, account.keys.secretLive)).body.data.email).toMatchObject({ known: true });
  });

  it("limits other accounts' evidence to the same industry with limitIndustry=true", async () => {
    const asker = await newAccount('ride-hailing');
    const sameIndustry = await newAccount('ride-hailing');
    const otherIndustry = await newAccount('travel');
    const address = uniqueEmail();
    await add(lookupRequest({ email: { address } }), sameIndustry.keys.secretLive);
    await add(lookupRequest({ email: { address } }), otherIndustry.keys.secretLive);

    expect((await read({ email: address, limitIndustry: 'true' }, asker.keys.secretLive)).body.data.email).toMatchObject({ chargebacks: 1 });
    expect((await read({ email: address, limitIndustry: 'false' }, asker.keys.secretLive)).body.data.email).toMatchObject({ chargebacks: 2 });
  });

  it('leaves out IP evidence seen before ipFromTime (seconds)', async () => {
    const ip = uniqueIp();
    await add(lookupRequest({ email: undefined, ipAddress: { address: ip, timestamp: NOW_SECONDS - 30 * DAY_SECONDS } }));

    expect((await read({ ipAddress: ip, ipFromTime: String(NOW_SECONDS - 31 * DAY_SECONDS) })).body.data.ipAddress).toMatchObject({ known: true });
    expect((await read({ ipAddress: ip, ipFromTime: String(NOW_SECONDS - DAY_SECONDS) })).body.data.ipAddress).toMatchObject({
      known: false,
      chargebacks: 0,
    });
  });

  it("deletes only the account's own records; other accounts' evidence stays", async () => {
    const first = await newAccount();
    const second = await newAccount();
    const address = uniqueEmail();
    await add(lookupRequest({ email: { address } }), first.keys.secretLive);
    await add(lookupRequest({ email: { address } }), second.keys.secretLive);

    expect((await remove({ email: address }, second.keys.secretLive)).body.data).toEqual({ deleted: { email: 1 } });

    expect((await read({ email: address }, second.keys.secretLive)).body.data.email).toMatchObject({ known: true, chargebacks: 1 });
  });

  it('answers 200 with a count of 0 when a DELETE matches nothing', async () => {
    const response = await remove({ email: uniqueEmail(), instrumentId: 'never-reported' });

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ deleted: { email: 0, instrumentId: 0 } });
  });

  describe('refuses what it cannot use (400, naming the field)', () => {
    it.each([
      ['GET', { ipFromTime: '1763800000' }],
      ['DELETE', {}],
    ])('%s without an indicator parameter', async (method, query) => {
      const response = await service.client.send({ method, path: `/v2/lookup?${new URLSearchParams(query).toString()}`, apiKey: TEST_BOOTSTRAP_KEY });
      expect(expectEnvelope(response, 400).message).toBe('query: must name at least one of email, telephone, ipAddress, instrumentId, payerId, bankId');
    });

    it('a POST without an indicator', async () => {
      const { message } = expectEnvelope(await add({ timestamp: NOW_SECONDS, chargebacks: [] }), 400);
      expect(message).toBe('body: must name at least one of email, telephone, ipAddress, paymentMethod');
    });

    it.each([
      [{ instrumentId: 'card-1', payerId: 'payer-1' }],
      [{ timestamp: NOW_SECONDS }],
    ])('a payment method without exactly one identifier: %j', async (paymentMethod) => {
      const { message } = expectEnvelope(await add(lookupRequest({ paymentMethod })), 400);
      expect(message).toContain('paymentMethod: must carry exactly one of instrumentId, payerId, bankId');
    });

    it('every failing field of a POST at once', async () => {
      const { message } = expectEnvelope(
        await add({
          timestamp: 2.5,
          email: { address: '   ' },
          ipAddress: { address: '300.1.2.3' },
          telephone: { number: '07700900123', countryCode: 'United Kingdom' },
          chargebacks: [{ amount: '12' }],
          manualReviews: 'none',
        }),
        400,
      );
      expect(message).toContain('timestamp: must be an integer number');
      expect(message).toContain('email.address: must not be blank');
      expect(message).toContain('ipAddress.address: must be an IPv4 or IPv6 address');
      expect(message).toContain('telephone.countryCode: must be an ISO 3166 alpha-3 or alpha-2 country code, or a calling code in digits');
      expect(message).toContain('chargebacks.0.amount: must be an integer number');
      expect(message).toMatch(/manualReviews: [^;]*must be an array/);
    });

    it('a country code that does not exist', async () => {
      const { message } = expectEnvelope(await add(lookupRequest({ telephone: { number: '07700900123', countryCode: 'ZZZ' } })), 400);
      expect(message).toBe('telephone.countryCode: must be an ISO 3166 alpha-3 or alpha-2 country code, or a calling code in digits');
    });

    it('bad query parameters', async () => {
      const { message } = expectEnvelope(await read({ ipAddress: 'localhost', ipFromTime: 'yesterday', limitIndustry: 'yes' }), 400);
      expect(message).toContain('ipAddress: must be an IPv4 or IPv6 address');
      expect(message).toContain('ipFromTime: must be a Unix time in seconds (an integer)');
      expect(message).toContain('limitIndustry: must be true or false');
    });
  });

  it('needs a secret key', async () => {
    const account = await newAccount();
    expectEnvelope(await read({ email: uniqueEmail() }, account.keys.publishableTest), 403);
    expectEnvelope(await service.client.send({ path: '/v2/lookup?email=a@example.com' }), 401);
  });

  describe('at checkpoints: only the account\'s own indicators PREVENT; other accounts\' at most REVIEW, from enough of them', () => {
    const YEAR_AGO_MS = Date.now() - 365 * 86_400_000;
    /** An e-mail of letters only, so that the model's digit-ratio signal stays out of the answer. */
    const letterEmail = () =>
      `ring.${`${Date.now()}${(sequence += 1)}`.replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)])}@example.com`;
    const settle = (accountId: string, settings: Record<string, unknown>) =>
      service.client.send({ method: 'PATCH', path: `/admin/accounts/${accountId}/settings`, body: settings, apiKey: TEST_ADMIN_KEY });

    /** The customer checkpoint for a new customer of `apiKey`'s account with `email`, and its decision event's features. */
    async function customerWith(email: string, apiKey: string) {
      const customerId = `cus-${(sequence += 1)}-${Date.now()}`;
      const response = await service.client.send<{ data: Record<string, unknown> }>({
        method: 'POST',
        path: '/v2/customer',
        body: { timestamp: Date.now(), customer: { customerId, email, emailVerifiedTime: YEAR_AGO_MS, name: 'Ada Lovelace', registrationTime: YEAR_AGO_MS } },
        apiKey,
      });
      expect(response.status).toBe(200);
      const decision = (await eventsOn('ringfence.decision.customer.scored.v1')).find(
        (event) => (event.payload.recommendation as { customerId: string }).customerId === customerId,
      );
      expect(decision).toBeDefined();
      // With the zeros the event leaves out.
      return { data: response.body.data, features: featuresFromRecord('customer', decision!.payload.features as Record<string, FeatureValue>) };
    }

    const report = (email: string, apiKey: string) => add(lookupRequest({ email: { address: email } }), apiKey);

    it("one other account's report does not PREVENT (nor REVIEW) this account's customer; it is recorded as a feature", async () => {
      const [reporter, asker] = [await newAccount(), await newAccount()];
      const email = letterEmail();
      expect((await report(email, reporter.keys.secretLive)).status).toBe(200);

      const { data, features } = await customerWith(email, asker.keys.secretLive);

      expect(data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });
      expect(features).toMatchObject({
        knownFraudIndicators: 1,
        lookupOwnIndicators: 0,
        lookupConsortiumIndicators: 1,
        lookupConsortiumAccounts: 1,
        lookupConsortiumChargebacks: 1,
        lookupConsortiumLastSeen: NOW_SECONDS * 1000,
        lookupConsortiumLastSeenHoursAgo: expect.any(Number),
      });
      // The reporter's own customer with that e-mail is prevented.
      expect((await customerWith(email, reporter.keys.secretLive)).data).toMatchObject({ action: 'PREVENT', source: 'LOOKUP' });
    });

    it("a reported e-mail the account stored earlier decides a checkpoint whose request does not carry it; one the request carries, a checkpoint of a customer stored without it", async () => {
      const owner = await newAccount();
      const [storedEmail, sentEmail] = [letterEmail(), letterEmail()];
      expect((await report(storedEmail, owner.keys.secretLive)).status).toBe(200);
      expect((await report(sentEmail, owner.keys.secretLive)).status).toBe(200);
      const customerId = (await customerWith(storedEmail, owner.keys.secretLive)).data.customerId as string;
      const transaction = (customer: Record<string, unknown>) =>
        service.client.send<{ data: Record<string, unknown> }>({ method: 'POST', path: '/psp/transaction?checkpoint=pspBeforeAuth', body: pspTransactionRequest({ customer }), apiKey: owner.keys.secretLive });

      // Only the stored record knows the e-mail: asked about once the subject is read.
      expect((await transaction({ customerId })).body.data).toMatchObject({ action: 'PREVENT', source: 'LOOKUP' });
      // A customer never stored, whose request names the reported e-mail: asked about at once.
      expect((await transaction({ customerId: `cus-new-${(sequence += 1)}`, email: sentEmail })).body.data).toMatchObject({ action: 'PREVENT', source: 'LOOKUP' });
      // Neither: nothing reported.
      expect((await transaction({ customerId: `cus-new-${(sequence += 1)}`, email: letterEmail() })).body.data).toMatchObject({ source: 'RINGFENCE' });
    });

    it('three distinct other accounts make it REVIEW (LOOKUP); the same account reporting twice counts once', async () => {
      const [first, second, third, asker] = [await newAccount(), await newAccount(), await newAccount(), await newAccount()];
      const email = letterEmail();
      await report(email, first.keys.secretLive);
      await report(email, first.keys.secretLive);
      await report(email, second.keys.secretLive);
      expect((await customerWith(email, asker.keys.secretLive)).data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });

      await report(email, third.keys.secretLive);
      const { data, features } = await customerWith(email, asker.keys.secretLive);

      expect(data).toMatchObject({ action: 'REVIEW', source: 'LOOKUP' });
      expect(features).toMatchObject({ lookupOwnIndicators: 0, lookupConsortiumAccounts: 3, decisionReason: expect.stringMatching(/other accounts/) });
      // Never across data sets: the sandbox sees none of it.
      expect((await customerWith(email, asker.keys.secretTest)).data).toMatchObject({ source: 'RINGFENCE' });
      // Its own report makes it PREVENT.
      await report(email, asker.keys.secretLive);
      expect((await customerWith(email, asker.keys.secretLive)).data).toMatchObject({ action: 'PREVENT', source: 'LOOKUP' });
    });

    it('the number of other accounts is an account setting', async () => {
      const [reporter, asker] = [await newAccount(), await newAccount()];
      const email = letterEmail();
      await report(email, reporter.keys.secretLive);
      expect((await settle(asker.accountId, { lookupConsortiumMinAccounts: 1 })).status).toBe(200);
      expect((await customerWith(email, asker.keys.secretLive)).data).toMatchObject({ action: 'REVIEW', source: 'LOOKUP' });

      expect((await settle(asker.accountId, { lookupConsortiumMinAccounts: 2 })).status).toBe(200);
      expect((await customerWith(email, asker.keys.secretLive)).data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });
      for (const invalid of [0, 1.5, '3', 1001]) {
        const refused = await settle(asker.accountId, { lookupConsortiumMinAccounts: invalid });
        expect(refused.status).toBe(400);
        expect((refused.body as Envelope).message).toMatch(/^lookupConsortiumMinAccounts: /);
      }
    });

    it("with lookupLimitIndustry, only accounts of the same industry count", async () => {
      const industry = `grocery-${Date.now()}-${(sequence += 1)}`;
      const asker = await newAccount(industry);
      const others = [await newAccount('travel'), await newAccount('travel'), await newAccount()];
      const email = letterEmail();
      for (const other of others) await report(email, other.keys.secretLive);
      expect((await customerWith(email, asker.keys.secretLive)).data).toMatchObject({ action: 'REVIEW', source: 'LOOKUP' });

      expect((await settle(asker.accountId, { lookupLimitIndustry: true, lookupConsortiumMinAccounts: 1 })).status).toBe(200);
      const limited = await customerWith(email, asker.keys.secretLive);
      expect(limited.data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });
      expect(limited.features).toMatchObject({ lookupConsortiumAccounts: 0, knownFraudIndicators: 0 });

      await report(email, (await newAccount(industry)).keys.secretLive);
      expect((await customerWith(email, asker.keys.secretLive)).data).toMatchObject({ action: 'REVIEW', source: 'LOOKUP' });
      expect((await settle(asker.accountId, { lookupLimitIndustry: 'yes' })).status).toBe(400);
    });
  });

  it('documents the three routes in the OpenAPI document', async () => {
    const document = await service.client.send<{ paths: Record<string, Record<string, { parameters?: Array<{ name: string }> }>> }>({
      path: '/openapi.json',
    });
    expect(Object.keys(document.body.paths['/v2/lookup']).sort()).toEqual(['delete', 'get', 'post']);
    expect(document.body.paths['/v2/lookup'].get.parameters?.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['email', 'telephone', 'ipAddress', 'ipFromTime', 'instrumentId', 'limitIndustry']),
    );
  });
});

/** ADR-0001 on the lookup routes: a valid POST over the account's limit is still recorded. */
describe('known-fraud lookup over the account rate limit', () => {
  const LIMIT = 2;
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService({ ACCOUNT_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  async function freshKey(): Promise<string> {
    const created = await service.client.send<{ keys: { secretTest: string } }>({
      method: 'POST',
      path: '/admin/accounts',
      body: { name: `lookup-limited-${Date.now()}-${(sequence += 1)}` },
      apiKey: TEST_ADMIN_KEY,
    });
    return created.body.keys.secretTest;
  }

  it('records a POST over the limit and answers 429 with Retry-After; a GET over it is 429', async () => {
    const key = await freshKey();
    const first = lookupRequest();
    const over = lookupRequest();
    expect((await service.client.send({ method: 'POST', path: '/v2/lookup', body: first, apiKey: key })).status).toBe(200);
    expect((await service.client.send({ path: `/v2/lookup?email=${encodeURIComponent(first.email.address)}`, apiKey: key })).status).toBe(200);

    const limited = await service.client.send({ method: 'POST', path: '/v2/lookup', body: over, apiKey: key });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: 429, message: expect.stringContaining('the indicators were recorded') });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const refused = await service.client.send({ path: `/v2/lookup?email=${encodeURIComponent(over.email.address)}`, apiKey: key });
    expect(refused.status).toBe(429);

    const other = await freshKey();
    const read = await service.client.send<ReadAnswer>({ path: `/v2/lookup?email=${encodeURIComponent(over.email.address)}`, apiKey: other });
    expect(read.body.data.email).toMatchObject({ known: true, chargebacks: 1 });
  });
});

/**
 * README, "Memory of a standalone server": the evidence counts held in memory are bounded
 * (MEMORY_CACHE_ENTRIES); a reported value the service let go of is read when a checkpoint asks,
 * at run time and after a restart that finds more reported values than it holds.
 */
describe('known-fraud lookup past the evidence counts held in memory', () => {
  const HELD = 1_000;
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService({ MEMORY_CACHE_ENTRIES: String(HELD) });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const reportEmail = (address: string) => service.client.send({ method: 'POST', path: '/v2/lookup', body: lookupRequest({ email: { address } }), apiKey: TEST_BOOTSTRAP_KEY });
  const customerWith = async (email: string) => {
    const response = await service.client.send<{ data: Record<string, unknown> }>({
      method: 'POST',
      path: '/v2/customer',
      body: { timestamp: Date.now(), customer: { customerId: `cus-held-${(sequence += 1)}`, email } },
      apiKey: TEST_BOOTSTRAP_KEY,
    });
    expect(response.status).toBe(200);
    return response.body.data;
  };

  it('prevents a customer whose e-mail it reported before more values than it holds, also after a restart', async () => {
    const first = uniqueEmail();
    expect((await reportEmail(first)).status).toBe(200);
    for (let batch = 0; batch < HELD / 50; batch += 1) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => reportEmail(uniqueEmail())));
      expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    }

    expect(await customerWith(first)).toMatchObject({ action: 'PREVENT', source: 'LOOKUP' });
    expect(await customerWith(uniqueEmail())).toMatchObject({ source: 'RINGFENCE' });

    const { dataDir } = service;
    await service.close();
    service = await startEmbeddedService({ MEMORY_CACHE_ENTRIES: String(HELD), DATA_DIR: dataDir });
    expect(await customerWith(first)).toMatchObject({ action: 'PREVENT', source: 'LOOKUP' });
  }, 120_000);
});
