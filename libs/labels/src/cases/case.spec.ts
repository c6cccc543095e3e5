import { type CaseRecord, transition } from './case';
import { decodeCaseCursor, encodeCaseCursor, positionAfter } from './case-cursor';
import { reviewDecisionOf } from './review-decision';

const ANA = { email: 'ana@shop.example', name: 'Ana' };
const BEN = { email: 'ben@shop.example', name: 'Ben' };

function aCase(overrides: Partial<CaseRecord> = {}): CaseRecord {
  return {
    caseId: 'cas_1',
    subjectType: 'customer',
    subjectId: 'cus-1',
    status: 'open',
    outcome: null,
    assignee: null,
    checkpoints: ['customer'],
    decisionCount: 1,
    maxScore: 70,
    totalAmount: { amount: 1_500, currency: 'EUR' },
    openedAt: 1_000,
    lastDecisionAt: 2_000,
    updatedAt: 2_000,
    closedAt: null,
    version: 3,
    ...overrides,
  };
}

describe('the case state machine', () => {
  it('claims an open case for the actor, in review, with an audit line naming them', () => {
    expect(transition(aCase(), { action: 'claim', version: 3 }, ANA, 5_000)).toEqual({
      changes: { status: 'in_review', outcome: null, assignee: ANA, closedAt: null },
      audit: { at: 5_000, actor: ANA.email, action: 'claim', detail: {} },
    });
  });

  it('refuses a claim of a case another person holds, naming them, and lets the holder claim again', () => {
    const held = aCase({ status: 'in_review', assignee: ANA });
    expect(() => transition(held, { action: 'claim', version: 3 }, BEN, 5_000)).toThrow(expect.objectContaining({ code: 'CONFLICT', message: `case cas_1 is held by ${ANA.email}` }));
    expect(transition(held, { action: 'claim', version: 3 }, ANA, 5_000).changes.assignee).toEqual(ANA);
  });

  it('refuses a stale version, naming who holds the case now', () => {
    const held = aCase({ status: 'in_review', assignee: ANA, version: 4 });
    expect(() => transition(held, { action: 'close', version: 3, outcome: 'fraud' }, ANA, 5_000)).toThrow(
      expect.objectContaining({ code: 'CONFLICT', message: expect.stringMatching(/^version: .*since version 3 \(now 4, in_review\); it is held by ana@shop\.example$/) }),
    );
  });

  it('closes with an outcome and reopens to open, held by nobody', () => {
    const closed = transition(aCase({ assignee: ANA, status: 'in_review' }), { action: 'close', version: 3, outcome: 'genuine', comment: 'known customer' }, ANA, 6_000);
    expect(closed).toEqual({
      changes: { status: 'closed', outcome: 'genuine', assignee: ANA, closedAt: 6_000 },
      audit: { at: 6_000, actor: ANA.email, action: 'close', detail: { outcome: 'genuine', comment: 'known customer' } },
    });
    const record = aCase({ ...closed.changes });
    expect(() => transition(record, { action: 'claim', version: 3 }, ANA, 7_000)).toThrow(expect.objectContaining({ code: 'CONFLICT', message: expect.stringContaining('is closed') }));
    expect(transition(record, { action: 'reopen', version: 3 }, BEN, 7_000).changes).toEqual({ status: 'open', outcome: null, assignee: null, closedAt: null });
    expect(() => transition(aCase(), { action: 'reopen', version: 3 }, BEN, 7_000)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });

  it('refuses to close a case another person holds, and lets assign hand it over (the version shows the holder)', () => {
    const held = aCase({ status: 'in_review', assignee: ANA });
    expect(() => transition(held, { action: 'close', version: 3, outcome: 'fraud' }, BEN, 5_000)).toThrow(expect.objectContaining({ message: `case cas_1 is held by ${ANA.email}` }));
    expect(transition(held, { action: 'assign', version: 3, assignee: BEN }, BEN, 5_000)).toMatchObject({
      changes: { status: 'in_review', assignee: BEN },
      audit: { action: 'assign', detail: { from: ANA.email, to: BEN.email } },
    });
    expect(transition(held, { action: 'assign', version: 3, assignee: null }, BEN, 5_000).changes).toMatchObject({ status: 'open', assignee: null });
  });
});

describe('the case cursor', () => {
  it('round-trips a position of its order and refuses another order or anything made elsewhere', () => {
    const cursor = encodeCaseCursor(positionAfter(aCase(), 'amount'));
    expect(decodeCaseCursor(cursor, 'amount')).toEqual({ order: 'amount', value: 1_500, caseId: 'cas_1' });
    expect(decodeCaseCursor(cursor, 'score')).toBeNull();
    expect(decodeCaseCursor('not a cursor', 'amount')).toBeNull();
    expect(decodeCaseCursor(Buffer.from('["amount","x","cas_1"]').toString('base64url'), 'amount')).toBeNull();
    expect(positionAfter(aCase({ totalAmount: null }), 'amount').value).toBe(-1);
    expect(positionAfter(aCase(), 'age').value).toBe(1_000);
    expect(positionAfter(aCase(), 'recent').value).toBe(2_000);
  });
});

describe(reviewDecisionOf.name, () => {
  const event = (recommendation: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    ({ checkpoint: 'transaction', ruleCheckpoint: 'pspBeforeAuth', timestamp: 9_000, scoreId: 'scr_1', subject: { kind: 'customer', id: 'cus-1' }, recommendation, features: {}, ...extra }) as never;

  it('keeps a REVIEW with its payment, order and amount from the request as sent', () => {
    const payload = { transaction: { transactionId: 'tx-1', amount: 2_500, currency: 'gbp' }, order: { orderId: 'ord-1' } };
    expect(reviewDecisionOf('evt-1', event({ action: 'REVIEW', score: 64 }, { context: { payload } }))).toEqual({
      subject: { kind: 'customer', id: 'cus-1' },
      decision: { decisionKey: 'scr_1', scoreId: 'scr_1', checkpoint: 'pspBeforeAuth', action: 'REVIEW', score: 64, timestamp: 9_000, transactionId: 'tx-1', orderId: 'ord-1', amount: 2_500, currency: 'GBP' },
    });
  });

  it('ignores other actions and decisions without a subject; keys a decision without scoreId by its event', () => {
    expect(reviewDecisionOf('evt-1', event({ action: 'ALLOW', score: 5 }))).toBeNull();
    expect(reviewDecisionOf('evt-1', event({ action: 'REVIEW' }, { subject: undefined }))).toBeNull();
    expect(reviewDecisionOf('evt-2', event({ action: 'REVIEW' }, { scoreId: undefined }))?.decision).toMatchObject({ decisionKey: 'event:evt-2', score: 0 });
  });
});
