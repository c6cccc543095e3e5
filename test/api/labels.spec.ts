import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { EventTopics } from '@ringfence/contracts';
import { LABEL_REPOSITORY, type LabelRepository } from '@ringfence/labels';
import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';

type Envelope = { status: number; message: string; timestamp: number; traceId: string };
type LabelView = { review: string; eventTime: string; reviewer: { name?: string; email?: string } | null; comment: string | null };
type HistoryView = LabelView & { category: string; previous: string | null };
type LabelsAnswer = { status: number; timestamp: number; data: { labels: Record<string, LabelView>; history: HistoryView[] } };
type Account = { accountId: string; keys: { secretTest: string; secretLive: string; publishableTest: string } };

const ISO_MILLIS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** Specification §4.13/§4.14 and ADR-0008/ADR-0009, through the embedded app over HTTPS. */
describe('labels API (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;

  beforeAll(async () => {
    service = await startEmbeddedService();
    account = await createAccount();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  async function createAccount(): Promise<Account> {
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('labels') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    return created.body;
  }

  const label = (kind: 'customer' | 'supplier', id: string, body: unknown, apiKey = account.keys.secretTest) =>
    service.client.send<{ eventTime: string }>({ method: 'POST', path: `/v2/${kind}/${encodeURIComponent(id)}/labels`, body, apiKey });
  const labelsOf = (kind: 'customer' | 'supplier', id: string, apiKey = account.keys.secretTest) =>
    service.client.send<LabelsAnswer>({ path: `/v2/${kind}/${encodeURIComponent(id)}/labels`, apiKey });
  const setSettings = (accountId: string, body: unknown) =>
    service.client.send<{ settings: Record<string, unknown> }>({ method: 'PATCH', path: `/admin/accounts/${accountId}/settings`, body, apiKey: TEST_ADMIN_KEY });

  function expectEnvelope(response: { status: number; body: unknown }, status: number): Envelope {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ status, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
    return response.body as Envelope;
  }

  describe('POST /v2/customer/:customerId/labels', () => {
    it('applies a review and answers only its eventTime, ISO 8601 UTC with milliseconds', async () => {
      const customerId = newId('cus');
      const before = Date.now();

      const response = await label('customer', customerId, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' });

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['eventTime']);
      expect(response.body.eventTime).toMatch(ISO_MILLIS_UTC);
      expect(Date.parse(response.body.eventTime)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(response.body.eventTime)).toBeLessThanOrEqual(Date.now());
      const read = await labelsOf('customer', customerId);
      expect(read.body.data.labels).toEqual({ PAYMENT_FRAUD: { review: 'FRAUDSTER', eventTime: response.body.eventTime, reviewer: null, comment: null } });
    });

    it('replaces the previous label of the category', async () => {
      const customerId = newId('cus');
      await label('customer', customerId, { review: 'GENUINE' });
      await label('customer', customerId, { review: 'FRAUDSTER' });

      const { data } = (await labelsOf('customer', customerId)).body;

      expect(data.labels).toEqual({ PAYMENT_FRAUD: expect.objectContaining({ review: 'FRAUDSTER' }) });
      expect(data.history.map(({ review, previous }) => [review, previous])).toEqual([
        ['GENUINE', null],
        ['FRAUDSTER', 'GENUINE'],
      ]);
    });

    it("clears a category's label with UNREVIEWED and keeps the other category", async () => {
      const customerId = newId('cus');
      await label('customer', customerId, { review: 'FRAUDSTER' });
      await label('customer', customerId, { review: 'REFUND_ABUSE' });

      expect((await label('customer', customerId, { category: 'PAYMENT_FRAUD', review: 'UNREVIEWED' })).status).toBe(200);

      const { data } = (await labelsOf('customer', customerId)).body;
      expect(data.labels).toEqual({ REFUND_ABUSE: expect.objectContaining({ review: 'REFUND_ABUSE' }) });
      expect(data.history.at(-1)).toMatchObject({ category: 'PAYMENT_FRAUD', review: 'UNREVIEWED', previous: 'FRAUDSTER' });
    });

    it('infers an omitted category: the category that allows the review, PAYMENT_FRAUD for UNREVIEWED', async () => {
      const customerId = newId('cus');
      await label('customer', customerId, { review: 'NOT_REFUND_ABUSE' });
      await label('customer', customerId, { review: 'GENUINE' });
      await label('customer', customerId, { review: 'UNREVIEWED' });

      const { data } = (await labelsOf('customer', customerId)).body;
      expect(data.history.map(({ category, review }) => [category, review])).toEqual([
        ['REFUND_ABUSE', 'NOT_REFUND_ABUSE'],
        ['PAYMENT_FRAUD', 'GENUINE'],
        ['PAYMENT_FRAUD', 'UNREVIEWED'],
      ]);
      expect(Object.keys(data.labels)).toEqual(['REFUND_ABUSE']);
    });

    it('refuses the POTENTIALLY_ reviews until the operator enables them, and again once disabled', async () => {
      const own = await createAccount();
      const customerId = newId('cus');
      const potential = { review: 'POTENTIALLY_FRAUDSTER' };

      const refused = expectEnvelope(await label('customer', customerId, potential, own.keys.secretTest), 400);
      expect(refused.message).toMatch(/^review: POTENTIALLY_FRAUDSTER is not enabled for this account/);

      expect((await setSettings(own.accountId, { potentialLabelsEnabled: true })).status).toBe(200);
      expect((await label('customer', customerId, potential, own.keys.secretTest)).status).toBe(200);
      expect((await label('customer', customerId, { review: 'POTENTIALLY_GENUINE' }, own.keys.secretLive)).status).toBe(200);

      await setSettings(own.accountId, { potentialLabelsEnabled: false });
      expectEnvelope(await label('customer', customerId, { review: 'POTENTIALLY_GENUINE' }, own.keys.secretTest), 400);
      expect((await labelsOf('customer', customerId, own.keys.secretTest)).body.data.labels).toEqual({
        PAYMENT_FRAUD: expect.objectContaining({ review: 'POTENTIALLY_FRAUDSTER' }),
      });
    });

    it('publishes the label event after storing it', async () => {
      const customerId = newId('cus');
      const { body } = await label('customer', customerId, { review: 'FRAUDSTER', reviewer: { name: 'Grace Hopper' }, comment: 'chargeback' });

      const events = await service.app.get<EventLogStore>(EVENT_LOG_STORE).readAfter(EventTopics.customerLabelUpdated, 0, 10_000);

      const ours = events.filter((event) => event.envelope.subjectId === customerId);
      expect(ours.map((event) => event.envelope.payload)).toEqual([
        {
          accountId: account.accountId,
          environment: 'test',
          subjectKind: 'customer',
          subjectId: customerId,
          category: 'PAYMENT_FRAUD',
          review: 'FRAUDSTER',
          previous: null,
          eventTime: Date.parse(body.eventTime),
          reviewer: { name: 'Grace Hopper' },
          comment: 'chargeback',
        },
      ]);
    });
  });

  describe('POST /v2/supplier/:supplierId/labels', () => {
    it('applies, replaces and clears the SUPPLIER_FRAUD label, the category may be omitted', async () => {
      const supplierId = newId('sup');
      await label('supplier', supplierId, { review: 'GENUINE', reviewer: { name: 'Ops', email: 'ops@merchant.example' } });
      expect((await label('supplier', supplierId, { category: 'SUPPLIER_FRAUD', review: 'FRAUDULENT' })).status).toBe(200);

      let { data } = (await labelsOf('supplier', supplierId)).body;
      expect(data.labels).toEqual({ SUPPLIER_FRAUD: expect.objectContaining({ review: 'FRAUDULENT' }) });

      await label('supplier', supplierId, { review: 'UNREVIEWED' });
      ({ data } = (await labelsOf('supplier', supplierId)).body);
      expect(data.labels).toEqual({});
      expect(data.history.map(({ category, review, previous }) => [category, review, previous])).toEqual([
        ['SUPPLIER_FRAUD', 'GENUINE', null],
        ['SUPPLIER_FRAUD', 'FRAUDULENT', 'GENUINE'],
        ['SUPPLIER_FRAUD', 'UNREVIEWED', 'FRAUDULENT'],
      ]);
    });

    it('keeps a supplier and a customer with the same identifier apart, and publishes on the supplier topic', async () => {
      const id = newId('both');
      await label('supplier', id, { review: 'FRAUDULENT' });

      expect((await labelsOf('customer', id)).body.data).toEqual({ labels: {}, history: [] });
      const events = await service.app.get<EventLogStore>(EVENT_LOG_STORE).readAfter(EventTopics.supplierLabelUpdated, 0, 10_000);
      expect(events.filter((event) => event.envelope.subjectId === id).map((event) => event.envelope.payload)).toEqual([
        expect.objectContaining({ subjectKind: 'supplier', category: 'SUPPLIER_FRAUD', review: 'FRAUDULENT' }),
      ]);
    });

    it('refuses customer categories and reviews, listing the supplier values', async () => {
      const supplierId = newId('sup');
      expect(expectEnvelope(await label('supplier', supplierId, { review: 'FRAUDSTER' }), 400).message).toBe(
        'review: must be one of FRAUDULENT, GENUINE, UNREVIEWED',
      );
      expect(expectEnvelope(await label('supplier', supplierId, { category: 'PAYMENT_FRAUD', review: 'GENUINE' }), 400).message).toBe(
        'category: must be one of SUPPLIER_FRAUD',
      );
    });
  });

  describe('GET /v2/customer/:customerId/labels', () => {
    it('answers the current labels and the whole history, newest last, with reviewer and comment', async () => {
      const customerId = newId('cus');
      const grace = { name: 'Grace Hopper', email: 'grace.hopper@merchant.example' };
      const first = await label('customer', customerId, { review: 'GENUINE', reviewer: grace, comment: 'looks fine' });
      const second = await label('customer', customerId, { category: 'REFUND_ABUSE', review: 'REFUND_ABUSE', reviewer: { email: grace.email } });
      const third = await label('customer', customerId, { review: 'FRAUDSTER', comment: 'chargeback' });

      const response = await labelsOf('customer', customerId);

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        status: 200,
        timestamp: expect.any(Number),
        data: {
          labels: {
            PAYMENT_FRAUD: { review: 'FRAUDSTER', eventTime: third.body.eventTime, reviewer: null, comment: 'chargeback' },
            REFUND_ABUSE: { review: 'REFUND_ABUSE', eventTime: second.body.eventTime, reviewer: { email: grace.email }, comment: null },
          },
          history: [
            { category: 'PAYMENT_FRAUD', review: 'GENUINE', previous: null, eventTime: first.body.eventTime, reviewer: grace, comment: 'looks fine' },
            { category: 'REFUND_ABUSE', review: 'REFUND_ABUSE', previous: null, eventTime: second.body.eventTime, reviewer: { email: grace.email }, comment: null },
            { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER', previous: 'GENUINE', eventTime: third.body.eventTime, reviewer: null, comment: 'chargeback' },
          ],
        },
      });
      for (const entry of response.body.data.history) expect(entry.eventTime).toMatch(ISO_MILLIS_UTC);
    });

    it('answers empty labels for an identifier never labelled', async () => {
      expect((await labelsOf('customer', newId('never'))).body).toEqual({ status: 200, timestamp: expect.any(Number), data: { labels: {}, history: [] } });
    });
  });

  describe('path identifiers', () => {
    it.each([
      ['a slash', 'cus/1'],
      ['spaces and a percent sign', 'ada lovelace 100%'],
      ['non-ASCII characters', 'clïent-ü-🙂'],
      ['a question mark and a hash', 'who?#me'],
    ])('percent-decodes an identifier with %s', async (_case, customerId) => {
      expect((await label('customer', customerId, { review: 'GENUINE' }, account.keys.secretLive)).status).toBe(200);

      await expect(
        service.app.get<LabelRepository>(LABEL_REPOSITORY).currentLabels(account.accountId, 'live', 'customer', customerId),
      ).resolves.toEqual({ PAYMENT_FRAUD: expect.objectContaining({ review: 'GENUINE' }) });
      expect((await labelsOf('customer', customerId, account.keys.secretLive)).body.data.labels).toEqual({
        PAYMENT_FRAUD: expect.objectContaining({ review: 'GENUINE' }),
      });
    });

    it('accepts 300 characters and refuses 301, naming the parameter', async () => {
      expect((await label('customer', 'x'.repeat(300), { review: 'GENUINE' })).status).toBe(200);
      expect(expectEnvelope(await label('customer', 'x'.repeat(301), { review: 'GENUINE' }), 400).message).toBe(
        'customerId: must be shorter than or equal to 300 characters',
      );
      expect(expectEnvelope(await labelsOf('supplier', 'é'.repeat(301)), 400).message).toBe('supplierId: must be shorter than or equal to 300 characters');
      expect((await label('supplier', '🙂'.repeat(300), { review: 'GENUINE' })).status).toBe(200);
      expect(expectEnvelope(await label('customer', 'x'.repeat(5_000), { review: 'GENUINE' }), 414).message).toBe('path: a parameter is too long');
    });

    it('answers 400 in the envelope for a malformed percent-encoding', async () => {
      const response = await service.client.send({ method: 'POST', path: '/v2/customer/%E0%A4%A/labels', body: { review: 'GENUINE' }, apiKey: account.keys.secretTest });
      expect(expectEnvelope(response, 400).message).toBe('path: is not a valid percent-encoded URL');
    });
  });

  describe('tenants', () => {
    it("never shows one account's labels to another, nor one data set's to the other", async () => {
      const other = await createAccount();
      const customerId = newId('cus');
      await label('customer', customerId, { review: 'FRAUDSTER' });
      await label('supplier', customerId, { review: 'FRAUDULENT' });

      for (const kind of ['customer', 'supplier'] as const) {
        expect((await labelsOf(kind, customerId, other.keys.secretTest)).body.data).toEqual({ labels: {}, history: [] });
        expect((await labelsOf(kind, customerId, account.keys.secretLive)).body.data).toEqual({ labels: {}, history: [] });
      }
      await label('customer', customerId, { review: 'UNREVIEWED' }, other.keys.secretTest);
      expect((await labelsOf('customer', customerId)).body.data.labels).toEqual({ PAYMENT_FRAUD: expect.objectContaining({ review: 'FRAUDSTER' }) });
    });

    it('refuses publishable keys (403) and missing keys (401)', async () => {
      expectEnvelope(await label('customer', 'cus-1', { review: 'GENUINE' }, account.keys.publishableTest), 403);
      expectEnvelope(await service.client.send({ path: '/v2/supplier/sup-1/labels' }), 401);
    });
  });

  describe('400 answers', () => {
    it.each<[string, unknown, string]>([
      ['no review and no category', {}, 'review: is required'],
      ['a category without a review', { category: 'PAYMENT_FRAUD' }, 'review: is required'],
      ['an unknown review', { review: 'FRAUD' }, 'review: must be one of FRAUDSTER, GENUINE, POTENTIALLY_FRAUDSTER, POTENTIALLY_GENUINE, UNREVIEWED, REFUND_ABUSE, NOT_REFUND_ABUSE'],
      ['a review in another case', { review: 'fraudster' }, 'review: must be one of FRAUDSTER, GENUINE,'],
      ['an unknown category', { category: 'CHARGEBACK', review: 'FRAUDSTER' }, 'category: must be one of PAYMENT_FRAUD, REFUND_ABUSE'],
      ['a review the category does not allow', { category: 'REFUND_ABUSE', review: 'FRAUDSTER' }, 'review: must be one of REFUND_ABUSE, NOT_REFUND_ABUSE, UNREVIEWED for category REFUND_ABUSE'],
      ['a reviewer that is not an object', { review: 'GENUINE', reviewer: 'Grace' }, 'reviewer: must be an object'],
      ['a reviewer email that is not a string', { review: 'GENUINE', reviewer: { email: 42 } }, 'reviewer.email: must be a string'],
      ['a comment that is not a string', { review: 'GENUINE', comment: 42 }, 'must be a string'],
    ])('names the field for %s', async (_case, body, message) => {
      const customerId = newId('cus');

      expect(expectEnvelope(await label('customer', customerId, body), 400).message).toContain(message);

      expect((await labelsOf('customer', customerId)).body.data.history).toEqual([]);
    });

    it('lists every failing field in one answer', async () => {
      const { message } = expectEnvelope(await label('customer', newId('cus'), { category: 'payment_fraud', review: 7, comment: false }), 400);
      expect(message.split('; ').map((problem) => problem.split(':')[0])).toEqual(['category', 'review', 'comment']);
    });
  });

  describe('PATCH /admin/accounts/:accountId/settings', () => {
    it('sets the settings sent, keeps the others, answers the account and lists the settings', async () => {
      const own = await createAccount();
      await setSettings(own.accountId, { voucherAbuseEnabled: false });

      const response = await setSettings(own.accountId, { potentialLabelsEnabled: true, defaultAction: 'REVIEW' });

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        accountId: own.accountId,
        name: expect.any(String),
        industry: null,
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
        settings: { voucherAbuseEnabled: false, potentialLabelsEnabled: true, defaultAction: 'REVIEW' },
      });
      const listed = await service.client.send<{ accounts: Array<{ accountId: string; settings: unknown }> }>({ path: '/admin/accounts', apiKey: TEST_ADMIN_KEY });
      expect(listed.body.accounts.find((entry) => entry.accountId === own.accountId)?.settings).toEqual(response.body.settings);
    });

    it('refuses values of the wrong type, listing the allowed actions, and unknown accounts', async () => {
      const { message } = expectEnvelope(await setSettings(account.accountId, { potentialLabelsEnabled: 'yes', defaultAction: 'BLOCK' }), 400);
      expect(message).toContain('potentialLabelsEnabled: must be a boolean value');
      expect(message).toContain('defaultAction: must be one of ALLOW, REVIEW, PREVENT');
      expectEnvelope(await setSettings('acc_missing', { potentialLabelsEnabled: true }), 404);
    });

    it('is an admin route: account keys get 403', async () => {
      expectEnvelope(
        await service.client.send({ method: 'PATCH', path: `/admin/accounts/${account.accountId}/settings`, body: { potentialLabelsEnabled: true }, apiKey: account.keys.secretTest }),
        403,
      );
    });
  });
});

describe('labels API rate limit', () => {
  const ACCOUNT_LIMIT = 3;
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService({ ACCOUNT_RATE_LIMIT_PER_MINUTE: String(ACCOUNT_LIMIT) });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  it('answers 429 with Retry-After past the account limit, and still applies the label', async () => {
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('limited') }, apiKey: TEST_ADMIN_KEY });
    const { accountId, keys } = created.body;
    const customerId = newId('cus');
    for (let i = 0; i < ACCOUNT_LIMIT; i += 1) {
      const response = await service.client.send({ path: `/v2/customer/${customerId}/labels`, apiKey: keys.secretTest });
      expect(response.status).toBe(200);
    }

    const over = await service.client.send({ method: 'POST', path: `/v2/customer/${customerId}/labels`, body: { review: 'FRAUDSTER' }, apiKey: keys.secretTest });

    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ status: 429, message: expect.stringContaining('the label was applied') });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await service.client.send({ path: `/v2/customer/${customerId}/labels`, apiKey: keys.secretTest })).status).toBe(429);
    await expect(service.app.get<LabelRepository>(LABEL_REPOSITORY).currentLabels(accountId, 'test', 'customer', customerId)).resolves.toEqual({
      PAYMENT_FRAUD: expect.objectContaining({ review: 'FRAUDSTER' }),
    });
  });
});
