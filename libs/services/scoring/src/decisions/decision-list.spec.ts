import type { CurrentLabelMessage, LabelCategory, MessageEnvelope, ReadDecisionsRequest } from '@ringfence/contracts';
import type { DecisionCursor, DecisionListFilter, RuleTenant, StoredDecisionRecord } from '@ringfence/scoring-engine';
import type { CheckpointSubject } from '../checkpoint-definition';
import type { CheckpointFacts } from '../checkpoint-facts';
import { DecisionList, MAX_LIST_READS } from './decision-list';
import type { DecisionRecords } from './decision-records';

function buildRecord(overrides: Partial<StoredDecisionRecord> = {}): StoredDecisionRecord {
  const scoreId = overrides.scoreId ?? 'scr_1';
  return {
    scoreId,
    checkpoint: 'customer',
    timestamp: 1_000,
    event: { scoreId, recommendation: { action: 'REVIEW', score: 70, source: 'RULE', customerId: 'cus-1', rules: { triggered: [] } }, features: { modelVersion: 'ringfence-additive-1' } },
    decidedAt: 5_000,
    subjectKind: 'customer',
    subjectId: 'cus-1',
    action: 'REVIEW',
    ...overrides,
  };
}

/** The records newest first, as the repository answers them, counting the reads. */
class FakeRecords {
  reads = 0;
  constructor(private readonly records: StoredDecisionRecord[]) {}

  list(_tenant: RuleTenant, filter: DecisionListFilter, before: DecisionCursor | null, limit: number): Promise<StoredDecisionRecord[]> {
    this.reads += 1;
    const sorted = [...this.records].sort((a, b) => b.timestamp - a.timestamp || (a.scoreId < b.scoreId ? 1 : -1));
    const after = before === null ? sorted : sorted.filter((record) => record.timestamp < before.timestamp || (record.timestamp === before.timestamp && record.scoreId < before.scoreId));
    return Promise.resolve(after.filter((record) => filter.action === undefined || record.action === filter.action).slice(0, limit));
  }
}

/** Current labels by subject id: the time each was applied. */
class FakeFacts {
  asked: string[] = [];
  constructor(private readonly labelTimes: Record<string, number>) {}

  currentLabels(_message: MessageEnvelope<unknown>, subject: CheckpointSubject): Promise<Partial<Record<LabelCategory, CurrentLabelMessage>>> {
    this.asked.push(subject.id);
    const eventTime = this.labelTimes[subject.id];
    return Promise.resolve(eventTime === undefined ? {} : { PAYMENT_FRAUD: { review: 'GENUINE', eventTime, reviewer: null, comment: null } as CurrentLabelMessage });
  }
}

function request(payload: Partial<ReadDecisionsRequest>): MessageEnvelope<ReadDecisionsRequest> {
  return { eventId: 'evt_1', accountId: 'acc_1', environment: 'test', subjectId: 'decisions', acceptedAt: 0, traceId: 't', payload: { limit: 10, ...payload } };
}

function decisionList(records: StoredDecisionRecord[], labelTimes: Record<string, number> = {}) {
  const fakeRecords = new FakeRecords(records);
  const facts = new FakeFacts(labelTimes);
  return { list: new DecisionList(fakeRecords as unknown as DecisionRecords, facts as unknown as CheckpointFacts), fakeRecords, facts };
}

describe(DecisionList.name, () => {
  it('summarises each record from the answer it recorded', async () => {
    const { list } = decisionList([buildRecord()]);

    const reply = await list.read(request({}));

    expect(reply).toEqual({
      decisions: [
        {
          scoreId: 'scr_1',
          checkpoint: 'customer',
          action: 'REVIEW',
          score: 70,
          source: 'RULE',
          subjectType: 'customer',
          subjectId: 'cus-1',
          customerId: 'cus-1',
          eventTime: 1_000,
          decidedAt: 5_000,
          rules: { triggered: [] },
          modelVersion: 'ringfence-additive-1',
        },
      ],
      next: null,
    });
  });

  it('answers a full page with the position of its last decision when more exist', async () => {
    const { list, fakeRecords } = decisionList([buildRecord({ scoreId: 'a', timestamp: 3 }), buildRecord({ scoreId: 'b', timestamp: 2 }), buildRecord({ scoreId: 'c', timestamp: 1 })]);

    const reply = await list.read(request({ limit: 2 }));

    expect(reply.decisions.map((decision) => decision.scoreId)).toEqual(['a', 'b']);
    expect(reply.next).toEqual({ eventTime: 2, scoreId: 'b' });
    expect(fakeRecords.reads).toBe(1);
  });

  it('keeps in the queue a decision whose subject was labelled only before it, and drops one labelled at or after it', async () => {
    const { list } = decisionList(
      [
        buildRecord({ scoreId: 'before', subjectId: 'cus-old-label', decidedAt: 5_000 }),
        buildRecord({ scoreId: 'same-ms', subjectId: 'cus-same-ms', decidedAt: 5_000 }),
        buildRecord({ scoreId: 'after', subjectId: 'cus-new-label', decidedAt: 5_000 }),
        buildRecord({ scoreId: 'none', subjectId: 'cus-unlabelled', decidedAt: 5_000 }),
        buildRecord({ scoreId: 'no-subject', subjectKind: null, subjectId: null }),
      ],
      { 'cus-old-label': 4_999, 'cus-same-ms': 5_000, 'cus-new-label': 6_000 },
    );

    const reply = await list.read(request({ open: true }));

    expect(reply.decisions.map((decision) => decision.scoreId).sort()).toEqual(['before', 'none']);
  });

  it('asks each subject\'s labels once per request', async () => {
    const records = [1, 2, 3].map((index) => buildRecord({ scoreId: `s${index}`, timestamp: index }));
    const { list, facts } = decisionList(records);

    await list.read(request({ open: true }));

    expect(facts.asked).toEqual(['cus-1']);
  });

  it(`stops after ${MAX_LIST_READS} reads and answers the position after the last record read, so the client goes on`, async () => {
    const closed = Array.from({ length: 50 }, (_, index) => buildRecord({ scoreId: `closed-${String(index).padStart(2, '0')}`, timestamp: 1_000 - index, subjectId: 'cus-labelled' }));
    const open = buildRecord({ scoreId: 'open', timestamp: 1, subjectId: 'cus-waiting' });
    const { list, fakeRecords } = decisionList([...closed, open], { 'cus-labelled': 9_000 });

    const first = await list.read(request({ open: true, limit: 1 }));

    expect(fakeRecords.reads).toBe(MAX_LIST_READS);
    expect(first.decisions).toEqual([]);
    expect(first.next).toEqual({ eventTime: closed[2 * MAX_LIST_READS - 1].timestamp, scoreId: closed[2 * MAX_LIST_READS - 1].scoreId });

    let next = first.next;
    const found: string[] = [];
    for (let page = 0; page < 10 && next !== null; page += 1) {
      const reply = await list.read(request({ open: true, limit: 1, after: next }));
      found.push(...reply.decisions.map((decision) => decision.scoreId));
      next = reply.next;
    }
    expect(found).toEqual(['open']);
    expect(next).toBeNull();
  });
});
