import { setTimeout as delay } from 'node:timers/promises';
import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest } from '../support/payload-factories';

type Account = { accountId: string; keys: { secretTest: string; secretLive: string; publishableTest: string } };
type Envelope = { status: number; message: string; timestamp: number; traceId: string };
type Answer = { data: { action: string; source: string; score: number; scoreId: string } };
type Decision = {
  scoreId: string;
  checkpoint: string;
  action: string;
  score: number | null;
  source: string | null;
  subjectType: string | null;
  subjectId: string | null;
  customerId?: string;
  supplierId?: string;
  eventTime: number;
  decidedAt: number;
  rules: { triggered: unknown[]; passiveAction?: string };
  explanation?: Record<string, unknown>;
  modelVersion?: string;
};
type DecisionList = { status: number; timestamp: number; data: { decisions: Decision[]; nextCursor: string | null } };
/** A decision made in the test, as its checkpoint answered it. */
type Made = { scoreId: string; action: string; eventTime: number; subjectId: string };

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** ADR-0014: `GET /v2/decisions`, the list and the review queue, through the embedded app over HTTPS. */
describe('decision list API (embedded app over HTTPS)', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = <T>(method: string, path: string, apiKey: string, body?: unknown) => service.client.send<T>({ method, path, body, apiKey });
  const list = (apiKey: string, query = '') => send<DecisionList>('GET', `/v2/decisions${query === '' ? '' : `?${query}`}`, apiKey);

  async function newAccount(): Promise<Account> {
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('decisions') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    return created.body;
  }

  /** An account whose customers starting `rev-` and payouts of WEEKLY schedule are answered REVIEW by an active rule. */
  async function accountWithReviewRules(): Promise<Account> {
    const account = await newAccount();
    for (const rule of [
      { checkpoint: 'customer', expression: 'payload.customer.customerId.startsWith("rev-")' },
      { checkpoint: 'payout', expression: 'payload.payout.schedule == "WEEKLY"' },
    ]) {
      const saved = await send('POST', '/v2/rules', account.keys.secretTest, { name: 'review', action: 'REVIEW', state: 'active', ...rule });
      expect(saved.status).toBe(201);
    }
    return account;
  }

  async function customerDecision(apiKey: string, customerId: string, eventTime: number): Promise<Made> {
    const answer = await send<Answer>('POST', '/v2/customer', apiKey, customerRequest({ timestamp: eventTime, customer: { customerId } }));
    expect(answer.status).toBe(200);
    return { scoreId: answer.body.data.scoreId, action: answer.body.data.action, eventTime, subjectId: customerId };
  }

  async function payoutDecision(apiKey: string, supplierId: string, eventTime: number): Promise<Made> {
    const answer = await send<Answer>('POST', '/v2/payout', apiKey, { timestamp: eventTime, supplier: { supplierId }, payout: { payoutId: newId('po'), schedule: 'WEEKLY' } });
    expect(answer.status).toBe(200);
    return { scoreId: answer.body.data.scoreId, action: answer.body.data.action, eventTime, subjectId: supplierId };
  }

  function expectEnvelope(response: { status: number; body: unknown }, status: number): Envelope {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ status, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
    return response.body as Envelope;
  }

  const scoreIds = (response: { body: DecisionList }) => response.body.data.decisions.map((decision) => decision.scoreId);
  const newestFirst = (made: Made[]) => [...made].sort((a, b) => b.eventTime - a.eventTime).map((decision) => decision.scoreId);

  describe('listing and filtering', () => {
    let account: Account;
    const made: Made[] = [];
    const base = Date.now() - 3_600_000;
    const supplierId = newId('sup');
    const reviewed = newId('rev-a');

    beforeAll(async () => {
      account = await accountWithReviewRules();
      // Sent out of payload-time order: the list orders by the payload's time, not by arrival.
      made.push(await customerDecision(account.keys.secretTest, reviewed, base + 3_000));
      made.push(await customerDecision(account.keys.secretTest, newId('ok'), base + 1_000));
      made.push(await payoutDecision(account.keys.secretTest, supplierId, base + 4_000));
      made.push(await customerDecision(account.keys.secretTest, newId('rev-b'), base + 2_000));
      made.push(await customerDecision(account.keys.secretTest, reviewed, base + 5_000));
    }, 60_000);

    it('lists the data set\'s decisions newest first on the very next request, with what each answered', async () => {
      const response = await list(account.keys.secretTest);

      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 200, timestamp: expect.any(Number), data: { decisions: expect.any(Array), nextCursor: null } });
      expect(scoreIds(response)).toEqual(newestFirst(made));
      const payout = response.body.data.decisions.find((decision) => decision.checkpoint === 'payout');
      expect(payout).toEqual({
        scoreId: made[2].scoreId,
        checkpoint: 'payout',
        action: 'REVIEW',
        score: expect.any(Number),
        source: 'RULE',
        subjectType: 'supplier',
        subjectId: supplierId,
        supplierId,
        eventTime: base + 4_000,
        decidedAt: expect.any(Number),
        rules: { triggered: [expect.objectContaining({ action: 'REVIEW', state: 'active' })] },
        explanation: expect.objectContaining({ modelVersion: expect.any(String), reason: expect.any(String) }),
        modelVersion: expect.any(String),
      });
      const customer = response.body.data.decisions.find((decision) => decision.scoreId === made[0].scoreId);
      expect(customer).toMatchObject({ checkpoint: 'customer', action: 'REVIEW', subjectType: 'customer', subjectId: reviewed, customerId: reviewed, eventTime: base + 3_000 });
      expect(customer?.decidedAt).toBeGreaterThan(base + 3_600_000 - 60_000);
    });

    it('filters by action, checkpoint, subject and [from, to), each alone and together', async () => {
      const ofAction = (action: string) => newestFirst(made.filter((decision) => decision.action === action));

      expect(scoreIds(await list(account.keys.secretTest, 'action=REVIEW'))).toEqual(ofAction('REVIEW'));
      expect(ofAction('REVIEW')).toHaveLength(4);
      expect(scoreIds(await list(account.keys.secretTest, `action=${made[1].action}`))).toEqual(ofAction(made[1].action));
      expect(scoreIds(await list(account.keys.secretTest, 'checkpoint=payout'))).toEqual([made[2].scoreId]);
      expect(scoreIds(await list(account.keys.secretTest, 'checkpoint=refund'))).toEqual([]);
      expect(scoreIds(await list(account.keys.secretTest, `subjectType=customer&subjectId=${reviewed}`))).toEqual([made[4].scoreId, made[0].scoreId]);
      expect(scoreIds(await list(account.keys.secretTest, `subjectType=supplier&subjectId=${reviewed}`))).toEqual([]);
      expect(scoreIds(await list(account.keys.secretTest, 'subjectType=supplier'))).toEqual([made[2].scoreId]);
      expect(scoreIds(await list(account.keys.secretTest, `from=${base + 2_000}&to=${base + 4_000}`))).toEqual([made[0].scoreId, made[3].scoreId]);
      expect(scoreIds(await list(account.keys.secretTest, `from=${base + 3_000}&action=REVIEW&checkpoint=customer&subjectType=customer&subjectId=${reviewed}`))).toEqual([made[4].scoreId, made[0].scoreId]);
    });

    it('pages through every decision with nextCursor, with no duplicate and no gap', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor === null ? 'limit=2' : `limit=2&cursor=${encodeURIComponent(cursor)}`;
        const page = await list(account.keys.secretTest, query);
        expect(page.status).toBe(200);
        expect(page.body.data.decisions.length).toBeLessThanOrEqual(2);
        seen.push(...scoreIds(page));
        cursor = page.body.data.nextCursor;
        pages += 1;
      } while (cursor !== null && pages < 10);

      expect(seen).toEqual(newestFirst(made));
      expect(pages).toBe(3);
    });

    it('pages a filtered list with the same filters', async () => {
      const first = await list(account.keys.secretTest, 'action=REVIEW&limit=3');
      const second = await list(account.keys.secretTest, `action=REVIEW&limit=3&cursor=${first.body.data.nextCursor ?? ''}`);

      expect([...scoreIds(first), ...scoreIds(second)]).toEqual(newestFirst(made.filter((decision) => decision.action === 'REVIEW')));
      expect(second.body.data.nextCursor).toBeNull();
    });

    it('still reads one decision by its scoreId beside the list', async () => {
      const one = await send<{ data: { scoreId: string } }>('GET', `/v2/decisions/${made[0].scoreId}`, account.keys.secretTest);

      expect(one.status).toBe(200);
      expect(one.body.data.scoreId).toBe(made[0].scoreId);
    });
  });

  describe('the review queue (open=true)', () => {
    it('holds REVIEW decisions until their subject is labelled, from the very next request', async () => {
      const account = await accountWithReviewRules();
      const key = account.keys.secretTest;
      const labelled = newId('rev-l');
      const waiting = newId('rev-w');
      const base = Date.now() - 60_000;
      const first = await customerDecision(key, labelled, base);
      const other = await customerDecision(key, waiting, base + 1_000);
      const again = await customerDecision(key, labelled, base + 2_000);
      const allowed = await customerDecision(key, newId('ok'), base + 3_000);
      expect([first, other, again].map((decision) => decision.action)).toEqual(['REVIEW', 'REVIEW', 'REVIEW']);

      expect(scoreIds(await list(key, 'open=true'))).toEqual([again.scoreId, other.scoreId, first.scoreId]);
      expect(scoreIds(await list(key, 'open=true&action=REVIEW'))).toEqual([again.scoreId, other.scoreId, first.scoreId]);
      expect(scoreIds(await list(key, 'open=false'))).toEqual([allowed.scoreId, again.scoreId, other.scoreId, first.scoreId]);

      // A label of any category closes the subject's decisions; this one does not decide customer checkpoints, so the next is REVIEW again.
      const label = await send('POST', `/v2/customer/${labelled}/labels`, key, { category: 'REFUND_ABUSE', review: 'NOT_REFUND_ABUSE' });
      expect(label.status).toBe(200);

      expect(scoreIds(await list(key, 'open=true'))).toEqual([other.scoreId]);
      // Still listed without open: labelling takes a decision out of the queue, not out of the list.
      expect(scoreIds(await list(key, 'action=REVIEW'))).toEqual([again.scoreId, other.scoreId, first.scoreId]);

      // A decision made after the label is open again (labels have millisecond times: let one pass).
      await delay(2);
      const later = await customerDecision(key, labelled, base - 5_000);
      expect(later.action).toBe('REVIEW');
      expect(scoreIds(await list(key, 'open=true'))).toEqual([other.scoreId, later.scoreId]);
    });

    it('pages the queue past labelled decisions, never listing one twice', async () => {
      const account = await accountWithReviewRules();
      const key = account.keys.secretTest;
      const base = Date.now() - 60_000;
      const open: Made[] = [];
      for (let index = 0; index < 4; index += 1) open.push(await customerDecision(key, newId('rev-open'), base + index * 10));
      const closedCustomer = newId('rev-closed');
      for (let index = 0; index < 6; index += 1) await customerDecision(key, closedCustomer, base + 100 + index);
      expect((await send('POST', `/v2/customer/${closedCustomer}/labels`, key, { review: 'FRAUDSTER' })).status).toBe(200);

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { body: DecisionList } = await list(key, `open=true&limit=1${cursor === null ? '' : `&cursor=${cursor}`}`);
        seen.push(...scoreIds(page));
        cursor = page.body.data.nextCursor;
        pages += 1;
      } while (cursor !== null && pages < 20);

      expect(seen).toEqual(newestFirst(open));
    });
  });

  describe('tenant isolation', () => {
    it('lists only the key\'s account and data set', async () => {
      const account = await accountWithReviewRules();
      const stranger = await newAccount();
      const test = await customerDecision(account.keys.secretTest, newId('rev-t'), Date.now() - 1_000);

      expect(scoreIds(await list(account.keys.secretTest))).toEqual([test.scoreId]);
      expect(scoreIds(await list(account.keys.secretLive))).toEqual([]);
      expect(scoreIds(await list(stranger.keys.secretTest))).toEqual([]);

      const live = await customerDecision(account.keys.secretLive, newId('cus'), Date.now());
      expect(scoreIds(await list(account.keys.secretLive))).toEqual([live.scoreId]);
      expect(scoreIds(await list(account.keys.secretTest))).toEqual([test.scoreId]);
      // Another data set's cursor is only a position: it reveals nothing of the other's decisions.
      const cursor = (await list(account.keys.secretLive, 'limit=1')).body.data.nextCursor;
      expect(cursor).toBeNull();
    });
  });

  describe('refusals', () => {
    let account: Account;

    beforeAll(async () => {
      account = await newAccount();
    });

    it.each([
      ['limit=0', 'limit=0', /^limit: /],
      ['limit=101', 'limit=101', /^limit: /],
      ['limit=ten', 'limit=ten', /^limit: /],
      ['limit=2.5', 'limit=2.5', /^limit: /],
      ['action=BLOCK', 'action=BLOCK', /^action: must be one of ALLOW, REVIEW, PREVENT/],
      ['action=REVIEW&action=ALLOW', 'action=REVIEW&action=ALLOW', /^action: /],
      ['checkpoint=login', 'checkpoint=login', /^checkpoint: must be one of /],
      ['subjectType=merchant', 'subjectType=merchant', /^subjectType: /],
      ['subjectId=cus-1', 'subjectId=cus-1', /^subjectType: is required with subjectId/],
      ['from=1.5', 'from=1.5', /^from: /],
      ['to=-1', 'to=-1', /^to: /],
      ['from=2000&to=2000', 'from=2000&to=2000', /^to: must be greater than from/],
      ['open=yes', 'open=yes', /^open: must be true or false/],
      ['open=true&action=ALLOW', 'open=true&action=ALLOW', /^action: must be REVIEW or absent with open=true/],
      ['cursor=not-a-cursor', 'cursor=not-a-cursor', /^cursor: must be a nextCursor/],
      ['a cursor of 513 characters', `cursor=${'A'.repeat(513)}`, /^cursor: /],
      ['a cursor this route did not make', `cursor=${Buffer.from('["x","scr_1"]').toString('base64url')}`, /^cursor: /],
    ])('answers 400 naming the parameter for %s', async (_name, query, message) => {
      expect(expectEnvelope(await list(account.keys.secretTest, query), 400).message).toMatch(message);
    });

    it('lists every failing parameter, not only the first', async () => {
      const message = expectEnvelope(await list(account.keys.secretTest, 'limit=0&action=BLOCK'), 400).message;

      expect(message).toMatch(/limit: /);
      expect(message).toMatch(/action: /);
    });

    it('refuses a publishable key (403) and a missing key (401)', async () => {
      expectEnvelope(await list(account.keys.publishableTest), 403);
      expectEnvelope(await service.client.send({ method: 'GET', path: '/v2/decisions' }), 401);
    });
  });
});
