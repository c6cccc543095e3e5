import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest, pspTransactionRequest } from '../support/payload-factories';

type Account = { accountId: string; keys: { secretTest: string } };
type Answer = { data: { action: string; scoreId: string } };
type Bucket = { at: number; total: number; ALLOW: number; REVIEW: number; PREVENT: number; bySource: Record<string, number> };
type Outcome = { decisions: number; amounts: Record<string, number> };
type Overview = {
  status: number;
  data: {
    from: number;
    to: number;
    bucket: string;
    decisions: Bucket[];
    total: number;
    reviewRate: number;
    fraud: { caught: Outcome; missed: Outcome; fraudSubjects: number; disputedTransactions: number; truncated: boolean };
    rules: Array<{ ruleId: number; name: string; checkpoint: string; hits: number; rate: number }>;
    scores: { bins: Array<{ from: number; to: number; count: number }> };
  };
};
/** A decision made in the test: what its checkpoint answered, and the subject and payment it was about. */
type Made = { scoreId: string; action: string; eventTime: number; customerId: string; amount?: number };

const HOUR = 3_600_000;
let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** GET /v2/stats/overview through the embedded app over HTTPS: every write is counted on the very next request. */
describe('stats overview API (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;
  let other: Account;
  const made: Made[] = [];
  // Three whole hours some hours ago: the buckets' edges are known.
  const base = Math.floor((Date.now() - 6 * HOUR) / HOUR) * HOUR;
  const fraudster = newId('rev-fraud');
  const disputedTransaction = newId('tx-disputed');

  const send = <T>(method: string, path: string, apiKey: string, body?: unknown) => service.client.send<T>({ method, path, body, apiKey });
  const overview = (apiKey: string, query = '') => send<Overview>('GET', `/v2/stats/overview${query === '' ? '' : `?${query}`}`, apiKey);

  async function newAccount(): Promise<Account> {
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('stats') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function customerDecision(customerId: string, eventTime: number): Promise<Made> {
    const answer = await send<Answer>('POST', '/v2/customer', account.keys.secretTest, customerRequest({ timestamp: eventTime, customer: { customerId } }));
    expect(answer.status).toBe(200);
    return { scoreId: answer.body.data.scoreId, action: answer.body.data.action, eventTime, customerId };
  }

  async function paymentDecision(customerId: string, transactionId: string, amount: number, eventTime: number): Promise<Made> {
    const body = pspTransactionRequest({ timestamp: eventTime, transaction: { transactionId, amount, currency: 'GBP' }, customer: { customerId } });
    const answer = await send<Answer>('POST', '/psp/transaction?checkpoint=pspBeforeAuth', account.keys.secretTest, body);
    expect(answer.status).toBe(200);
    return { scoreId: answer.body.data.scoreId, action: answer.body.data.action, eventTime, customerId, amount };
  }

  beforeAll(async () => {
    service = await startEmbeddedService();
    [account, other] = [await newAccount(), await newAccount()];
    for (const rule of [
      { checkpoint: 'customer', expression: 'payload.customer.customerId.startsWith("rev-")', action: 'REVIEW' },
      { checkpoint: 'pspBeforeAuth', expression: 'payload.transaction.amount > 5000', action: 'REVIEW' },
    ]) {
      expect((await send('POST', '/v2/rules', account.keys.secretTest, { name: `review ${rule.checkpoint}`, state: 'active', ...rule })).status).toBe(201);
    }
    made.push(await customerDecision(fraudster, base + 10 * 60_000));
    made.push(await customerDecision(newId('ok'), base + 50 * 60_000));
    made.push(await paymentDecision(fraudster, newId('tx'), 7000, base + HOUR + 5 * 60_000));
    made.push(await paymentDecision(newId('buyer'), disputedTransaction, 1000, base + 2 * HOUR + 30 * 60_000));
    // Known afterwards as fraud: the customer by a label, the last payment by its chargeback.
    expect((await send('POST', `/v2/customer/${fraudster}/labels`, account.keys.secretTest, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' })).status).toBe(200);
    const dispute = { timestamp: base + 3 * HOUR, dispute: { disputeId: newId('dsp'), transactionId: disputedTransaction, amount: 1000, currency: 'GBP', stage: 'CHARGEBACK' } };
    expect((await send('POST', '/psp/dispute', account.keys.secretTest, dispute)).status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await service?.close();
  });

  it('answers the data period by default, in hours, each bucket counted by action and source', async () => {
    expect(made.slice(0, 3).map((decision) => decision.action)).toEqual(['REVIEW', made[1].action, 'REVIEW']);
    const response = await overview(account.keys.secretTest);

    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data.from).toBe(made[0].eventTime);
    expect(data.to).toBe(made[3].eventTime + 1);
    expect(data.bucket).toBe('hour');
    expect(data.decisions.map((bucket) => bucket.at)).toEqual([base, base + HOUR, base + 2 * HOUR]);
    const expected = [0, 1, 2].map((hour) => made.filter((decision) => Math.floor((decision.eventTime - base) / HOUR) === hour));
    data.decisions.forEach((bucket, hour) => {
      const count = (action: string) => expected[hour].filter((decision) => decision.action === action).length;
      expect(bucket).toMatchObject({ total: expected[hour].length, ALLOW: count('ALLOW'), REVIEW: count('REVIEW'), PREVENT: count('PREVENT') });
      expect(Object.values(bucket.bySource).reduce((sum, value) => sum + value, 0)).toBe(expected[hour].length);
    });
    expect(data.decisions[1].bySource).toEqual({ RULE: 1 });
    expect(data.total).toBe(4);
    expect(data.reviewRate).toBeCloseTo(made.filter((decision) => decision.action === 'REVIEW').length / 4);
  });

  it('counts decisions on known fraud (a FRAUDSTER label, a disputed payment) as caught when PREVENT or REVIEW, missed when ALLOW, with amounts', async () => {
    const { fraud } = (await overview(account.keys.secretTest)).body.data;

    const onFraud = [made[0], made[2], made[3]];
    const outcome = (counted: (action: string) => boolean): Outcome => {
      const decisions = onFraud.filter((decision) => counted(decision.action));
      const amount = decisions.reduce((sum, decision) => sum + (decision.amount ?? 0), 0);
      return { decisions: decisions.length, amounts: amount === 0 ? {} : { GBP: amount } };
    };
    expect(fraud.caught).toEqual(outcome((action) => action !== 'ALLOW'));
    expect(fraud.missed).toEqual(outcome((action) => action === 'ALLOW'));
    expect(fraud.caught.decisions).toBeGreaterThanOrEqual(2);
    expect(fraud).toMatchObject({ fraudSubjects: 1, disputedTransactions: 1, truncated: false });
  });

  it('gives each rule its hits and rate over its checkpoint, and the model scores in ten bins', async () => {
    const { data } = (await overview(account.keys.secretTest)).body;

    expect(data.rules).toEqual([
      { ruleId: expect.any(Number), name: 'review customer', checkpoint: 'customer', hits: 1, rate: 0.5 },
      { ruleId: expect.any(Number), name: 'review pspBeforeAuth', checkpoint: 'pspBeforeAuth', hits: 1, rate: 0.5 },
    ].sort((a, b) => a.ruleId - b.ruleId));
    const modelScores = await Promise.all(
      made.map(async (decision) => {
        const read = await send<{ data: { signals?: { model?: { score?: number } } } }>('GET', `/v2/decisions/${decision.scoreId}`, account.keys.secretTest);
        return read.body.data.signals?.model?.score;
      }),
    );
    const expectedBins = Array.from({ length: 10 }, (_, bin) => ({
      from: bin * 10,
      to: bin * 10 + 10,
      count: modelScores.filter((score) => score !== undefined && Math.min(9, Math.floor(score / 10)) === bin).length,
    }));
    expect(data.scores.bins).toEqual(expectedBins);
    // The payments are scored by the model: the bins are not empty by construction.
    expect(expectedBins.reduce((sum, bin) => sum + bin.count, 0)).toBeGreaterThanOrEqual(2);
  });

  it('keeps an asked window and bucket, and refuses one that makes too many buckets', async () => {
    const day = await overview(account.keys.secretTest, `from=${base + HOUR}&to=${base + 3 * HOUR}&bucket=day`);
    expect(day.status).toBe(200);
    expect(day.body.data).toMatchObject({ from: base + HOUR, to: base + 3 * HOUR, bucket: 'day', total: 2 });
    expect(day.body.data.decisions.reduce((sum, bucket) => sum + bucket.total, 0)).toBe(2);

    const tooMany = await overview(account.keys.secretTest, `from=${base - 500 * HOUR}&to=${base}&bucket=hour`);
    expect(tooMany.status).toBe(400);
    expect((tooMany.body as unknown as { message: string }).message).toMatch(/bucket/);
    expect((await overview(account.keys.secretTest, 'to=5&from=10')).status).toBe(400);
  });

  it('shows another account none of it', async () => {
    const response = await overview(other.keys.secretTest);

    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data.total).toBe(0);
    expect(data.decisions.every((bucket) => bucket.total === 0)).toBe(true);
    expect(data.fraud).toEqual({ caught: { decisions: 0, amounts: {} }, missed: { decisions: 0, amounts: {} }, fraudSubjects: 0, disputedTransactions: 0, truncated: false });
    expect(data.rules).toEqual([]);
    expect(data.scores.bins.every((bin) => bin.count === 0)).toBe(true);
  });
});
