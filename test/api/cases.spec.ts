import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { EventTopics } from '@ringfence/contracts';
import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest, pspTransactionRequest } from '../support/payload-factories';

type Account = { accountId: string; keys: { secretTest: string; secretLive: string } };
type Envelope = { status: number; message: string };
type Case = {
  caseId: string;
  subjectType: string;
  subjectId: string;
  status: string;
  outcome: string | null;
  assignee: { email: string; name: string } | null;
  checkpoints: string[];
  decisionCount: number;
  maxScore: number;
  totalAmount: { amount: number; currency: string } | null;
  version: number;
};
type CaseList = { status: number; data: { cases: Case[]; nextCursor: string | null; total: number } };
type CaseRead = { data: { case: Case; decisions: Array<Record<string, unknown>>; notes: Array<{ text: string; author: string }>; audit: Array<{ actor: string; action: string; detail: Record<string, unknown> }> } };

const PASSWORD = 'a long enough password';
/** A public address as a literal: the callback is recorded (and its read shows it) without DNS; nothing is ever received. */
const PUBLIC_URL = 'https://93.184.216.34/ringfence';

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** Issue 37 (ADR-0017): cases, payment reviews and label undo through the embedded app over HTTPS. */
describe('cases API (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;
  /** Two analysts of the account, signed in as themselves (console sessions). */
  let ana: { email: string; token: string };
  let ben: { email: string; token: string };

  beforeAll(async () => {
    service = await startEmbeddedService();
    account = await reviewingAccount();
    ana = await analyst(account, 'Ana');
    ben = await analyst(account, 'Ben');
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = <T>(method: string, path: string, apiKey: string, body?: unknown) => service.client.send<T>({ method, path, body, apiKey });

  /** An account whose customers starting `rev-` are answered REVIEW at the customer and pspBeforeAuth checkpoints. */
  async function reviewingAccount(): Promise<Account> {
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('cases') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    for (const checkpoint of ['customer', 'pspBeforeAuth']) {
      const rule = { name: 'review rev-', checkpoint, action: 'REVIEW', state: 'active', expression: 'payload.customer.customerId.startsWith("rev-")' };
      expect((await send('POST', '/v2/rules', created.body.keys.secretTest, rule)).status).toBe(201);
    }
    return created.body;
  }

  async function analyst(of: Account, name: string): Promise<{ email: string; token: string }> {
    const email = `${newId(name.toLowerCase())}@shop.example`;
    expect((await send('POST', '/v2/users', of.keys.secretTest, { email, name, role: 'analyst', password: PASSWORD })).status).toBe(201);
    const session = await service.client.send<{ data: { token: string } }>({ method: 'POST', path: '/v2/sessions', body: { email, password: PASSWORD } });
    expect(session.status).toBe(201);
    return { email, token: session.body.data.token };
  }

  async function payment(apiKey: string, customerId: string, amount = 1999) {
    const body = pspTransactionRequest({ customer: { customerId, email: 'ada.lovelace@example.com' }, transaction: { transactionId: newId('tx'), amount, currency: 'GBP' } });
    const answer = await send<{ data: { action: string } }>('POST', '/psp/transaction?checkpoint=pspBeforeAuth', apiKey, body);
    expect(answer.status).toBe(200);
    return { transactionId: body.transaction.transactionId as string, action: answer.body.data.action };
  }

  const casesOf = (apiKey: string, customerId: string, query = '') => send<CaseList>('GET', `/v2/cases?subjectType=customer&subjectId=${encodeURIComponent(customerId)}${query}`, apiKey);
  const readCase = (apiKey: string, caseId: string) => send<CaseRead>('GET', `/v2/cases/${caseId}`, apiKey);

  it('opens a case at a checkpoint answered REVIEW, in the list on the very next request, and joins the next decision to it', async () => {
    const customerId = newId('rev');
    const first = await payment(account.keys.secretTest, customerId, 1_000);
    expect(first.action).toBe('REVIEW');

    const listed = await casesOf(account.keys.secretTest, customerId);
    expect(listed.status).toBe(200);
    expect(listed.body.data.total).toBe(1);
    expect(listed.body.data.cases[0]).toMatchObject({ subjectType: 'customer', subjectId: customerId, status: 'open', decisionCount: 1, totalAmount: { amount: 1_000, currency: 'GBP' } });

    expect((await send<{ data: { action: string } }>('POST', '/v2/customer', account.keys.secretTest, customerRequest({ customer: { customerId } }))).body.data.action).toBe('REVIEW');
    const joined = await casesOf(account.keys.secretTest, customerId);
    expect(joined.body.data.total).toBe(1);
    expect(joined.body.data.cases[0]).toMatchObject({ caseId: listed.body.data.cases[0].caseId, decisionCount: 2, checkpoints: ['pspBeforeAuth', 'customer'] });
    const read = await readCase(account.keys.secretTest, listed.body.data.cases[0].caseId);
    expect(read.body.data.decisions.map((decision) => decision.checkpoint)).toEqual(['customer', 'pspBeforeAuth']);
    expect(read.body.data.decisions[1]).toMatchObject({ transactionId: first.transactionId, amount: 1_000, currency: 'GBP', action: 'REVIEW' });
  });

  it('finds each REVIEW checkpoint in the very next list while other clients load the cases consumer (no polling)', async () => {
    const stop = { done: false };
    // Other customers answered REVIEW meanwhile: the cases consumer has a backlog to work through.
    const load = Promise.all(
      Array.from({ length: 6 }, async () => {
        while (!stop.done) await payment(account.keys.secretTest, newId('rev-load'));
      }),
    );
    try {
      for (let round = 0; round < 5; round += 1) {
        const customerId = newId('rev');
        expect((await payment(account.keys.secretTest, customerId)).action).toBe('REVIEW');
        expect((await casesOf(account.keys.secretTest, customerId)).body.data.total).toBe(1);
      }
    } finally {
      stop.done = true;
      await load;
    }
  }, 60_000);

  it('lets one analyst claim a case and refuses the second, naming the first; notes and the close are in the audit with their actor', async () => {
    const customerId = newId('rev');
    await payment(account.keys.secretTest, customerId);
    const [opened] = (await casesOf(ana.token, customerId)).body.data.cases;

    const claimed = await send<{ data: Case }>('POST', `/v2/cases/${opened.caseId}/claim`, ana.token, { version: opened.version });
    expect(claimed.status).toBe(200);
    expect(claimed.body.data).toMatchObject({ status: 'in_review', assignee: { email: ana.email, name: 'Ana' } });
    const refused = await send<Envelope>('POST', `/v2/cases/${opened.caseId}/claim`, ben.token, { version: claimed.body.data.version });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(ana.email);
    expect((await send<Envelope>('POST', `/v2/cases/${opened.caseId}/claim`, ben.token, { version: opened.version })).status).toBe(409);

    expect((await send('POST', `/v2/cases/${opened.caseId}/notes`, ana.token, { text: 'same card as a chargeback in May' })).status).toBe(201);
    const closed = await send<{ data: Case }>('POST', `/v2/cases/${opened.caseId}/close`, ana.token, { outcome: 'fraud', version: claimed.body.data.version });
    expect(closed.body.data).toMatchObject({ status: 'closed', outcome: 'fraud' });

    const read = (await readCase(account.keys.secretTest, opened.caseId)).body.data;
    expect(read.notes).toEqual([expect.objectContaining({ text: 'same card as a chargeback in May', author: ana.email })]);
    expect(read.audit.map(({ action, actor }) => [action, actor])).toEqual([
      ['open', 'ringfence'],
      ['claim', ana.email],
      ['note', ana.email],
      ['close', ana.email],
    ]);
    // Closing as fraud applied no label: the label API does.
    expect((await send<{ data: { labels: object } }>('GET', `/v2/customer/${customerId}/labels`, account.keys.secretTest)).body.data.labels).toEqual({});
  });

  it('assigns a case by e-mail to a person who may then close it, and reopens it for nobody', async () => {
    const customerId = newId('rev');
    await payment(account.keys.secretTest, customerId);
    const [opened] = (await casesOf(ana.token, customerId)).body.data.cases;

    const assigned = await send<{ data: Case }>('POST', `/v2/cases/${opened.caseId}/assign`, ana.token, { assignee: ben.email, version: opened.version });
    expect(assigned.body.data).toMatchObject({ status: 'in_review', assignee: { email: ben.email, name: 'Ben' } });
    const stranger = await analyst(await reviewingAccount(), 'Eve');
    const unknown = await send<Envelope>('POST', `/v2/cases/${opened.caseId}/assign`, ana.token, { assignee: stranger.email, version: assigned.body.data.version });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^assignee: /);
    expect((await send<Envelope>('POST', `/v2/cases/${opened.caseId}/close`, ana.token, { outcome: 'genuine', version: assigned.body.data.version })).body.message).toContain(ben.email);
    expect((await send<CaseList>('GET', `/v2/cases?assignee=me&subjectType=customer&subjectId=${customerId}`, ben.token)).body.data.total).toBe(1);
    const closed = await send<{ data: Case }>('POST', `/v2/cases/${opened.caseId}/close`, ben.token, { outcome: 'genuine', version: assigned.body.data.version });
    expect(closed.body.data).toMatchObject({ status: 'closed', outcome: 'genuine' });
    const reopened = await send<{ data: Case }>('POST', `/v2/cases/${opened.caseId}/reopen`, ana.token, { version: closed.body.data.version });
    expect(reopened.body.data).toMatchObject({ status: 'open', outcome: null, assignee: null });
    expect((await readCase(ana.token, opened.caseId)).body.data.audit.map(({ action }) => action)).toEqual(['open', 'assign', 'close', 'reopen']);
    expect((await send<Envelope>('POST', `/v2/cases/${opened.caseId}/assign`, ana.token, { assignee: 'not an e-mail', version: reopened.body.data.version })).status).toBe(400);
  });

  it("opens a supplier's case at a payout answered REVIEW, with the payout's amount", async () => {
    const supplierId = newId('sup');
    const rule = { name: 'weekly payouts', checkpoint: 'payout', action: 'REVIEW', state: 'active', expression: 'payload.payout.schedule == "WEEKLY"' };
    expect((await send('POST', '/v2/rules', account.keys.secretTest, rule)).status).toBe(201);
    const payout = { timestamp: Date.now(), supplier: { supplierId }, payout: { payoutId: newId('po'), schedule: 'WEEKLY', earnings: { totalNetAmount: 50_000, currency: 'EUR' } } };
    const answer = await send<{ data: { action: string } }>('POST', '/v2/payout', account.keys.secretTest, payout);
    expect(answer.body.data.action).toBe('REVIEW');

    const listed = await send<CaseList>('GET', `/v2/cases?subjectType=supplier&subjectId=${supplierId}&checkpoint=payout`, account.keys.secretTest);
    expect(listed.body.data.cases).toEqual([expect.objectContaining({ subjectType: 'supplier', subjectId: supplierId, checkpoints: ['payout'], totalAmount: { amount: 50_000, currency: 'EUR' } })]);
  });

  it('claims the oldest open case with next, bulk-closes the rest, and pages without an empty page', async () => {
    const other = await reviewingAccount();
    const customers = [newId('rev'), newId('rev'), newId('rev')];
    for (const customerId of customers) await payment(other.keys.secretTest, customerId);

    const next = await send<{ data: { case: Case } }>('POST', '/v2/cases/next', other.keys.secretTest, {});
    expect(next.body.data.case).toMatchObject({ subjectId: customers[0], status: 'in_review' });
    const pages: Case[][] = [];
    let cursor: string | null = null;
    do {
      const page: { body: CaseList } = await send<CaseList>('GET', `/v2/cases?order=age&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`, other.keys.secretTest);
      pages.push(page.body.data.cases);
      expect(page.body.data.total).toBe(3);
      cursor = page.body.data.nextCursor;
    } while (cursor !== null);
    expect(pages.map((page) => page.length)).toEqual([2, 1]);

    const open = (await send<CaseList>('GET', '/v2/cases?assignee=none', other.keys.secretTest)).body.data.cases;
    expect(open.map((record) => record.subjectId).sort()).toEqual([customers[1], customers[2]].sort());
    const bulk = await send<{ data: { results: Array<{ caseId: string; ok: boolean }> } }>('POST', '/v2/cases/bulk', other.keys.secretTest, {
      caseIds: open.map((record) => record.caseId),
      action: 'close',
      outcome: 'no_action',
    });
    expect(bulk.body.data.results.every((result) => result.ok)).toBe(true);
    expect((await send<CaseList>('GET', '/v2/cases?status=closed', other.keys.secretTest)).body.data.total).toBe(2);
    expect((await send<{ data: { case: Case | null } }>('POST', '/v2/cases/next', other.keys.secretTest, {})).body.data.case).toBeNull();
  });

  it('reviews a payment, withdraws the review, and each is in the case audit, on the feed and for the callback URL', async () => {
    const reviewer = await reviewingAccount();
    const patched = await send('PATCH', `/admin/accounts/${reviewer.accountId}/settings`, TEST_ADMIN_KEY, { testCallbackUrl: PUBLIC_URL, testCallbackSecret: `whsec-${newId('s')}-0123456789abcdef` });
    expect(patched.status).toBe(200);
    const customerId = newId('rev');
    const { transactionId } = await payment(reviewer.keys.secretTest, customerId);

    const reviewed = await send<{ data: Record<string, unknown> }>('POST', `/v2/payments/${transactionId}/review`, reviewer.keys.secretTest, { decision: 'decline', comment: 'stolen card' });
    expect(reviewed.status).toBe(201);
    expect(reviewed.body.data).toEqual({ transactionId, customerId, decision: 'decline', actor: expect.stringMatching(/^key /), at: expect.any(Number), comment: 'stolen card' });
    const [opened] = (await casesOf(reviewer.keys.secretTest, customerId)).body.data.cases;
    expect((await readCase(reviewer.keys.secretTest, opened.caseId)).body.data.decisions[0]).toMatchObject({ transactionId, review: { decision: 'decline' } });

    expect((await send('DELETE', `/v2/payments/${transactionId}/review`, reviewer.keys.secretTest)).status).toBe(200);
    expect((await send('DELETE', `/v2/payments/${transactionId}/review`, reviewer.keys.secretTest)).status).toBe(409);
    const read = (await readCase(reviewer.keys.secretTest, opened.caseId)).body.data;
    expect(read.decisions[0].review).toBeUndefined();
    expect(read.audit.map(({ action }) => action)).toEqual(['open', 'payment_review', 'payment_review_withdrawn']);

    const feed = await service.app.get<EventLogStore>(EVENT_LOG_STORE).readAfter(EventTopics.paymentReviewed, 0, 10_000);
    expect(feed.filter((event) => event.envelope.accountId === reviewer.accountId).map((event) => event.envelope.payload)).toEqual([
      expect.objectContaining({ transactionId, customerId, decision: 'decline', withdrawn: false, comment: 'stolen card' }),
      expect.objectContaining({ transactionId, customerId, decision: 'decline', withdrawn: true }),
    ]);
    const deliveries = await send<{ data: { deliveries: Array<{ event: Record<string, unknown> }> } }>('GET', '/v2/callbacks/deliveries', reviewer.keys.secretTest);
    expect(deliveries.body.data.deliveries.map((delivery) => [delivery.event.event, delivery.event.withdrawn])).toEqual([
      ['payment.reviewed', true],
      ['payment.reviewed', false],
    ]);
    expect((await send<Envelope>('POST', `/v2/payments/${newId('tx-unknown')}/review`, reviewer.keys.secretTest, { decision: 'approve' })).status).toBe(404);
  });

  it("counts a payment an analyst marked fraud as fraud in the very next backtest, not_fraud as genuine, and neither once withdrawn or approved (ADR-0012)", async () => {
    const reviewer = await reviewingAccount();
    const key = reviewer.keys.secretTest;
    const [marked, cleared] = [await payment(key, newId('rev')), await payment(key, newId('rev'))];
    type Labelled = { fraud: number; fraudTriggered: number; genuine: number; genuineTriggered: number };
    const labelled = async () => {
      const backtest = await send<{ data: { evaluated: number; labelled: Labelled } }>('POST', '/v2/rules/backtest', key, { checkpoint: 'pspBeforeAuth', rules: [{ expression: 'true', action: 'PREVENT' }] });
      expect(backtest.status).toBe(200);
      expect(backtest.body.data.evaluated).toBe(2);
      return backtest.body.data.labelled;
    };
    expect(await labelled()).toMatchObject({ fraud: 0, genuine: 0 });

    expect((await send('POST', `/v2/payments/${marked.transactionId}/review`, key, { decision: 'fraud' })).status).toBe(201);
    expect((await send('POST', `/v2/payments/${cleared.transactionId}/review`, key, { decision: 'not_fraud' })).status).toBe(201);
    expect(await labelled()).toMatchObject({ fraud: 1, fraudTriggered: 1, genuine: 1, genuineTriggered: 1 });

    // Withdrawn, the mark counts no more; approve says what the merchant did, not what the payment was.
    expect((await send('DELETE', `/v2/payments/${marked.transactionId}/review`, key)).status).toBe(200);
    expect((await send('POST', `/v2/payments/${cleared.transactionId}/review`, key, { decision: 'approve' })).status).toBe(201);
    expect(await labelled()).toMatchObject({ fraud: 0, genuine: 0 });
  });

  it('undoes a label change as a new change, and answers 409 when there is nothing to undo', async () => {
    const customerId = newId('cus');
    await send('POST', `/v2/customer/${customerId}/labels`, account.keys.secretTest, { review: 'GENUINE' });
    await send('POST', `/v2/customer/${customerId}/labels`, ana.token, { review: 'FRAUDSTER' });

    const undone = await send<{ data: { review: string; undone: string } }>('POST', `/v2/customer/${customerId}/labels/undo`, ben.token, { category: 'PAYMENT_FRAUD' });
    expect(undone.status).toBe(200);
    expect(undone.body.data).toMatchObject({ review: 'GENUINE', undone: 'FRAUDSTER' });
    const labels = (await send<{ data: { labels: Record<string, { review: string }>; history: Array<{ review: string; reviewer: { email?: string } | null }> } }>('GET', `/v2/customer/${customerId}/labels`, account.keys.secretTest)).body.data;
    expect(labels.labels.PAYMENT_FRAUD.review).toBe('GENUINE');
    expect(labels.history.map((entry) => entry.review)).toEqual(['GENUINE', 'FRAUDSTER', 'GENUINE']);
    expect(labels.history[2].reviewer?.email).toBe(ben.email);

    expect((await send<Envelope>('POST', `/v2/customer/${customerId}/labels/undo`, ben.token, { category: 'REFUND_ABUSE' })).status).toBe(409);
    expect((await send<Envelope>('POST', `/v2/supplier/${newId('sup')}/labels/undo`, ben.token, { category: 'SUPPLIER_FRAUD' })).status).toBe(409);
  });

  it("keeps accounts apart: another account neither sees, claims nor reviews this account's case and payment", async () => {
    const customerId = newId('rev');
    const { transactionId } = await payment(account.keys.secretTest, customerId);
    const [mine] = (await casesOf(account.keys.secretTest, customerId)).body.data.cases;
    const stranger = await reviewingAccount();

    expect((await casesOf(stranger.keys.secretTest, customerId)).body.data).toEqual({ cases: [], nextCursor: null, total: 0 });
    expect((await readCase(stranger.keys.secretTest, mine.caseId)).status).toBe(404);
    expect((await send('POST', `/v2/cases/${mine.caseId}/claim`, stranger.keys.secretTest, { version: mine.version })).status).toBe(404);
    expect((await send('POST', `/v2/payments/${transactionId}/review`, stranger.keys.secretTest, { decision: 'fraud' })).status).toBe(404);
    // Nor the live data set of the same account.
    expect((await readCase(account.keys.secretLive, mine.caseId)).status).toBe(404);
    expect((await readCase(account.keys.secretTest, mine.caseId)).body.data.case.assignee).toBeNull();
  });
});
