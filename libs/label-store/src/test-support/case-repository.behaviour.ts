import type { CheckpointScoredEvent } from '@ringfence/contracts';
import { type CaseRepository, type CaseTenant, Cases } from '@ringfence/labels';
import type { DataSource } from 'typeorm';
import { CASE_READ_LIMIT, listStatement } from '../repositories/case-statements';

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

const ANA = { email: 'ana@merchant.example', name: 'Ana' };
const BEN = { email: 'ben@merchant.example', name: 'Ben' };

/** A clock a second further at each reading: cases opened one after another never share a time. */
let clock = Date.now();
const tick = () => (clock += 1_000);

/** A decision event as the gateway publishes it: a transaction's payload in its context. */
export function reviewEvent(customerId: string, overrides: { score?: number; amount?: number; currency?: string; action?: string; checkpoint?: string; timestamp?: number } = {}): CheckpointScoredEvent {
  const transactionId = unique('txn');
  return {
    checkpoint: 'transaction',
    ruleCheckpoint: (overrides.checkpoint ?? 'pspBeforeAuth') as CheckpointScoredEvent['ruleCheckpoint'],
    timestamp: overrides.timestamp ?? Date.now(),
    scoreId: unique('scr'),
    subject: { kind: 'customer', id: customerId },
    recommendation: { action: overrides.action ?? 'REVIEW', score: overrides.score ?? 60, scoreId: 'x' },
    features: {},
    context: {
      payload: {
        customer: { customerId },
        transaction: { transactionId, amount: overrides.amount ?? 1_000, currency: overrides.currency ?? 'eur' },
        order: { orderId: `ord-${transactionId}` },
      },
    },
  };
}

/** What every `CaseRepository` does, through the case use cases: on PGlite and on PostgreSQL. */
export function itBehavesLikeACaseRepository(repository: () => CaseRepository): void {
  const tenant = (): CaseTenant => ({ accountId: unique('acc'), environment: 'test' });

  it('opens a case at the first REVIEW and joins later ones, counting each decision once', async () => {
    const cases = new Cases(repository(), tick);
    const owner = tenant();
    const first = reviewEvent('cus-1', { score: 40, amount: 1_000 });
    expect(await cases.addDecision(owner, 'evt-1', first)).toBe('opened');
    expect(await cases.addDecision(owner, 'evt-2', reviewEvent('cus-1', { score: 80, amount: 250, checkpoint: 'customer' }))).toBe('joined');
    expect(await cases.addDecision(owner, 'evt-1', first)).toBe('duplicate');
    expect(await cases.addDecision(owner, 'evt-3', reviewEvent('cus-1', { action: 'ALLOW' }))).toBe('ignored');

    const { cases: listed, total } = await cases.list(owner, { status: 'active', order: 'recent', limit: 10 });
    expect(total).toBe(1);
    expect(listed[0]).toMatchObject({
      subjectType: 'customer',
      subjectId: 'cus-1',
      status: 'open',
      decisionCount: 2,
      maxScore: 80,
      checkpoints: ['pspBeforeAuth', 'customer'],
      totalAmount: { amount: 1_250, currency: 'EUR' },
      assignee: null,
      version: 1,
    });
    const read = await cases.read(owner, listed[0].caseId);
    expect(read.decisions).toHaveLength(2);
    expect(read.decisions[1]).toMatchObject({ scoreId: first.scoreId, checkpoint: 'pspBeforeAuth', action: 'REVIEW', score: 40, amount: 1_000, currency: 'EUR' });
    expect(read.decisions[1].transactionId).toMatch(/^txn-/);
    expect(read.audit.map((entry) => entry.action)).toEqual(['open']);
  });

  it('claims, refuses a second analyst naming the holder, and closes with the audit trail', async () => {
    const cases = new Cases(repository(), tick);
    const owner = tenant();
    await cases.addDecision(owner, 'evt-1', reviewEvent('cus-2'));
    const [opened] = (await cases.list(owner, { status: 'active', order: 'age', limit: 1 })).cases;

    const { case: claimed } = await cases.act(owner, { caseId: opened.caseId, action: 'claim', actor: ANA, version: 1 });
    expect(claimed).toMatchObject({ status: 'in_review', assignee: ANA, version: 2 });
    await expect(cases.act(owner, { caseId: opened.caseId, action: 'claim', actor: BEN, version: 2 })).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining(ANA.email) });
    await expect(cases.act(owner, { caseId: opened.caseId, action: 'claim', actor: BEN, version: 1 })).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining(ANA.email) });
    await cases.act(owner, { caseId: opened.caseId, action: 'note', actor: ANA, text: 'same card as cus-7' });
    const { case: closed } = await cases.act(owner, { caseId: opened.caseId, action: 'close', actor: ANA, version: 2, outcome: 'fraud' });
    expect(closed).toMatchObject({ status: 'closed', outcome: 'fraud', version: 3, closedAt: expect.any(Number) });

    const read = await cases.read(owner, opened.caseId);
    expect(read.audit.map(({ action, actor }) => [action, actor])).toEqual([
      ['open', 'ringfence'],
      ['claim', ANA.email],
      ['note', ANA.email],
      ['close', ANA.email],
    ]);
    expect(read.notes).toEqual([{ noteId: expect.any(String), text: 'same card as cus-7', author: ANA.email, at: expect.any(Number) }]);
    // A REVIEW after the case closed opens a new one; `all` lists both.
    expect(await cases.addDecision(owner, 'evt-9', reviewEvent('cus-2'))).toBe('opened');
    const history = await cases.list(owner, { status: 'all', subjectType: 'customer', subjectId: 'cus-2', order: 'age', limit: 10 });
    expect(history.cases.map((record) => record.status)).toEqual(['closed', 'open']);
    expect((await cases.list(owner, { status: 'active', subjectType: 'customer', subjectId: 'cus-2', order: 'age', limit: 10 })).total).toBe(1);
  });

  it('opens a new case for a decision arriving right after the subject\'s case closed, leaving the closed one as it was', async () => {
    const cases = new Cases(repository(), tick);
    const owner = tenant();
    await cases.addDecision(owner, 'evt-c1', reviewEvent('cus-c', { score: 30, amount: 100 }));
    const [first] = (await cases.list(owner, { status: 'active', order: 'age', limit: 1 })).cases;
    await cases.act(owner, { caseId: first.caseId, action: 'close', actor: ANA, version: first.version, outcome: 'genuine' });

    const late = reviewEvent('cus-c', { score: 90, amount: 700 });
    expect(await cases.addDecision(owner, 'evt-c2', late)).toBe('opened');
    const closed = await cases.read(owner, first.caseId);
    expect(closed.case).toMatchObject({ status: 'closed', decisionCount: 1, maxScore: 30, totalAmount: { amount: 100, currency: 'EUR' } });
    expect(closed.decisions.map((decision) => decision.scoreId)).not.toContain(late.scoreId);
    const [second] = (await cases.list(owner, { status: 'active', subjectType: 'customer', subjectId: 'cus-c', order: 'age', limit: 1 })).cases;
    expect(second.caseId).not.toBe(first.caseId);
    expect(second).toMatchObject({ status: 'open', decisionCount: 1, maxScore: 90 });
    expect((await cases.read(owner, second.caseId)).decisions.map((decision) => decision.scoreId)).toEqual([late.scoreId]);
  });

  it('keeps a case\'s notes when its audit trail outgrows what a read answers', async () => {
    const store = repository();
    const cases = new Cases(store, tick);
    const owner = tenant();
    await cases.addDecision(owner, 'evt-n1', reviewEvent('cus-n'));
    const [opened] = (await cases.list(owner, { status: 'active', order: 'age', limit: 1 })).cases;
    await cases.act(owner, { caseId: opened.caseId, action: 'note', actor: ANA, text: 'first thing noticed' });
    for (let index = 0; index < CASE_READ_LIMIT; index += 1) {
      await store.appendAudit(owner, opened.caseId, { at: tick(), actor: BEN.email, action: 'payment_review', detail: { transactionId: `txn-${index}`, decision: 'approve' } });
    }
    const read = await cases.read(owner, opened.caseId);
    expect(read.audit).toHaveLength(CASE_READ_LIMIT);
    expect(read.audit.map((entry) => entry.action)).not.toContain('note');
    expect(read.notes).toEqual([{ noteId: expect.any(String), text: 'first thing noticed', author: ANA.email, at: expect.any(Number) }]);
  });

  it('pages by keyset in each order without an empty page, and keeps tenants apart', async () => {
    const cases = new Cases(repository(), tick);
    const owner = tenant();
    const other = tenant();
    for (let index = 0; index < 5; index += 1) await cases.addDecision(owner, `evt-${index}`, reviewEvent(`cus-${index}`, { score: 10 * index, amount: 100 * index }));
    await cases.addDecision(other, 'evt-x', reviewEvent('cus-0'));
    for (const order of ['age', 'score', 'amount', 'recent'] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await cases.list(owner, { status: 'active', order, limit: 2, ...(cursor === undefined ? {} : { cursor }) });
        expect(page.cases.length).toBeGreaterThan(0);
        expect(page.total).toBe(5);
        seen.push(...page.cases.map((record) => record.subjectId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      expect(new Set(seen).size).toBe(5);
      if (order === 'score' || order === 'amount') expect(seen).toEqual(['cus-4', 'cus-3', 'cus-2', 'cus-1', 'cus-0']);
      if (order === 'age') expect(seen).toEqual(['cus-0', 'cus-1', 'cus-2', 'cus-3', 'cus-4']);
    }
    const [theirs] = (await cases.list(other, { status: 'active', order: 'age', limit: 1 })).cases;
    await expect(cases.read(owner, theirs.caseId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(cases.act(owner, { caseId: theirs.caseId, action: 'claim', actor: ANA, version: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('claims the oldest open case with next, and bulk-closes each at its version', async () => {
    const cases = new Cases(repository(), tick);
    const owner = tenant();
    await cases.addDecision(owner, 'evt-a', reviewEvent('cus-a'));
    await cases.addDecision(owner, 'evt-b', reviewEvent('cus-b'));
    const next = await cases.next(owner, { actor: BEN });
    expect(next).toMatchObject({ subjectId: 'cus-a', assignee: BEN, status: 'in_review' });
    const all = (await cases.list(owner, { status: 'active', order: 'age', limit: 10 })).cases;
    const { results } = await cases.bulk(owner, { actor: ANA, caseIds: all.map((record) => record.caseId), action: 'close', outcome: 'no_action' });
    expect(results).toEqual([
      { caseId: all[0].caseId, ok: false, error: expect.stringContaining(BEN.email) },
      { caseId: all[1].caseId, ok: true },
    ]);
    expect(await cases.next(owner, { actor: ANA })).toBeNull();
  });

  it('records payment reviews in the customer case audit and withdraws them', async () => {
    const cases = new Cases(repository(), tick);
    const owner = tenant();
    const event = reviewEvent('cus-p');
    await cases.addDecision(owner, 'evt-p', event);
    const transactionId = (event.context!.payload as { transaction: { transactionId: string } }).transaction.transactionId;
    const review = await cases.reviewPayment(owner, { transactionId, customerId: 'cus-p', decision: 'decline', actor: ANA, comment: 'stolen card' });
    expect(review).toEqual({ transactionId, customerId: 'cus-p', decision: 'decline', actor: ANA.email, at: expect.any(Number), comment: 'stolen card' });
    const [opened] = (await cases.list(owner, { status: 'active', order: 'age', limit: 1 })).cases;
    expect((await cases.read(owner, opened.caseId)).decisions[0].review).toEqual(review);

    expect(await cases.withdrawPaymentReview(owner, transactionId, BEN)).toMatchObject({ decision: 'decline', withdrawnBy: BEN.email });
    await expect(cases.withdrawPaymentReview(owner, transactionId, BEN)).rejects.toMatchObject({ code: 'CONFLICT' });
    const read = await cases.read(owner, opened.caseId);
    expect(read.decisions[0].review).toBeUndefined();
    expect(read.audit.map(({ action, actor }) => [action, actor])).toEqual([
      ['open', 'ringfence'],
      ['payment_review', ANA.email],
      ['payment_review_withdrawn', BEN.email],
    ]);
  });
}

/** What `next` asks (the oldest open, unassigned case) is read from its partial index, not by walking every case of the data set. */
export function itFindsTheNextCaseByItsIndex(dataSource: () => DataSource): void {
  it('plans next case on idx_cases_open_unassigned', async () => {
    const runner = dataSource().createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      // A table this small is read whole anyway; without a sequential scan the plan names the index it can use.
      await runner.query('SET LOCAL enable_seqscan = off');
      const { sql, parameters } = listStatement({ accountId: 'acc-plan', environment: 'test' }, { status: 'open', unassigned: true }, 'age', null, 1);
      const plan = ((await runner.query(`EXPLAIN ${sql}`, parameters)) as { 'QUERY PLAN': string }[]).map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toContain('idx_cases_open_unassigned');
      await runner.rollbackTransaction();
    } finally {
      await runner.release();
    }
  });
}
