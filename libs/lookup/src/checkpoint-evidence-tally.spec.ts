import { CheckpointEvidenceTally } from './checkpoint-evidence-tally';
import type { LookupTenant } from './indicator';

const mine: LookupTenant = { accountId: 'acc_mine', environment: 'live', industry: null };
const theirs: LookupTenant = { accountId: 'acc_theirs', environment: 'live', industry: null };
const email = { kind: 'email', value: 'mule@example.com' } as const;
const none = { chargebacks: 0, manualReviews: 0, reports: 0 };

describe(CheckpointEvidenceTally.name, () => {
  it("counts each account's evidence by kind, and the others' latest time", () => {
    const tally = new CheckpointEvidenceTally();
    tally.start(mine.accountId, email);
    tally.record(mine, [{ ...email, evidenceKind: 'report', seenAt: 5 }]);
    tally.record(theirs, [
      { ...email, evidenceKind: 'chargeback', seenAt: 7 },
      { ...email, evidenceKind: 'chargeback', seenAt: 3 },
    ]);

    expect(tally.evidenceFor(mine, [email], () => true)).toEqual([
      { ...email, own: { ...none, reports: 1 }, otherAccounts: 1, otherEvidence: { ...none, chargebacks: 2 }, otherLastSeen: 7 },
    ]);
    expect(tally.evidenceFor(mine, [email], () => false)).toEqual([{ ...email, own: { ...none, reports: 1 }, otherAccounts: 0, otherEvidence: none, otherLastSeen: null }]);
  });

  it('answers nothing about an indicator whose only evidence is of another data set, or not counted', () => {
    const tally = new CheckpointEvidenceTally();
    tally.start(mine.accountId, email);
    tally.record({ ...theirs, environment: 'test' }, [{ ...email, evidenceKind: 'report', seenAt: 1 }]);
    expect(tally.evidenceFor(mine, [email], () => true)).toEqual([]);
    tally.record(theirs, [{ ...email, evidenceKind: 'report', seenAt: 1 }]);
    expect(tally.evidenceFor(mine, [email], () => false)).toEqual([]);
  });

  it("forgets one account's evidence, and holds the indicator with none once none is left", () => {
    const tally = new CheckpointEvidenceTally();
    tally.start(mine.accountId, email);
    tally.record(mine, [{ ...email, evidenceKind: 'report', seenAt: 1 }]);
    tally.record(theirs, [{ ...email, evidenceKind: 'report', seenAt: 1 }]);
    tally.forget(mine, [email]);
    expect(tally.evidenceFor(mine, [email], () => true)).toMatchObject([{ own: none, otherAccounts: 1 }]);
    tally.forget(theirs, [email, { kind: 'telephone', value: '+447700900123' }]);
    expect(tally.has(email)).toBe(false);
    expect(tally.holds(email)).toBe(true);
    expect(tally.evidenceFor(theirs, [email], () => true)).toEqual([]);
  });

  it('counts no evidence of an indicator it does not hold: a count it holds is complete', () => {
    const tally = new CheckpointEvidenceTally();
    tally.record(mine, [{ ...email, evidenceKind: 'report', seenAt: 1 }]);
    expect(tally.holds(email)).toBe(false);
    expect(tally.evidenceFor(mine, [email], () => true)).toEqual([]);

    tally.admit(mine.accountId, email, [{ environment: 'live', accountId: theirs.accountId, chargebacks: 2, manualReviews: 0, reports: 0, lastSeen: 9 }]);
    tally.record(mine, [{ ...email, evidenceKind: 'report', seenAt: 1 }]);
    expect(tally.evidenceFor(mine, [email], () => true)).toEqual([
      { ...email, own: { ...none, reports: 1 }, otherAccounts: 1, otherEvidence: { ...none, chargebacks: 2 }, otherLastSeen: 9 },
    ]);
  });

  it('holds an indicator read without evidence, and says it has none', () => {
    const tally = new CheckpointEvidenceTally();
    tally.admit(mine.accountId, email, []);
    expect(tally.holds(email)).toBe(true);
    expect(tally.has(email)).toBe(false);
    expect(tally.evidenceFor(mine, [email], () => true)).toEqual([]);
  });

  it('holds at most its capacity, letting go of the indicator least recently recorded or asked about', () => {
    const tally = new CheckpointEvidenceTally(2);
    const [first, second, third] = ['a@example.com', 'b@example.com', 'c@example.com'].map((value) => ({ kind: 'email', value }) as const);
    tally.start(mine.accountId, first);
    tally.start(mine.accountId, second);
    tally.record(mine, [{ ...first, evidenceKind: 'report', seenAt: 1 }, { ...second, evidenceKind: 'report', seenAt: 1 }]);
    // Asked about, the first becomes the most recently used: the second goes.
    tally.evidenceFor(mine, [first], () => true);
    tally.start(mine.accountId, third);
    expect([first, second, third].map((indicator) => tally.holds(indicator))).toEqual([true, false, true]);
    expect(tally.size).toBe(2);
  });

  describe("an account's share (ADR-0016)", () => {
    const values = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ kind: 'email', value: `${prefix}-${i}@example.com` }) as const);

    it("lets an account asking about a flood of values go of its own indicators only, never of another account's", () => {
      const tally = new CheckpointEvidenceTally(100, 10);
      const held = values('theirs', 5);
      for (const indicator of held) tally.start(theirs.accountId, indicator);
      tally.record(theirs, held.map((indicator) => ({ ...indicator, evidenceKind: 'chargeback', seenAt: 1 })));
      // An indicator both hold: mine letting go of it leaves it held for theirs.
      tally.evidenceFor(mine, [held[0]], () => true);

      for (const indicator of values('flood', 1_000)) tally.admit(mine.accountId, indicator, []);

      expect(held.map((indicator) => tally.holds(indicator))).toEqual([true, true, true, true, true]);
      expect(tally.evidenceFor(theirs, held, () => true).map((answer) => answer.own.chargebacks)).toEqual([1, 1, 1, 1, 1]);
      expect(tally.size).toBe(15);
    });

    it('has room at start only while the account and the whole tally have some: a load lets go of nothing', () => {
      const tally = new CheckpointEvidenceTally(3, 2);
      const [a, b, c] = values('loaded', 3);
      tally.start(mine.accountId, a);
      tally.start(mine.accountId, b);
      expect(tally.hasRoomFor(mine.accountId)).toBe(false);
      expect(tally.hasRoomFor(theirs.accountId)).toBe(true);
      tally.start(theirs.accountId, c);
      expect(tally.hasRoomFor(theirs.accountId)).toBe(false);

      // Stored evidence of another account is counted into what is held, taking no room.
      tally.countStored(theirs, [{ ...a, evidenceKind: 'report', seenAt: 1 }]);
      expect(tally.evidenceFor(mine, [a], () => true)).toMatchObject([{ otherAccounts: 1 }]);
      expect([a, b, c].map((indicator) => tally.holds(indicator))).toEqual([true, true, true]);
    });
  });
});
