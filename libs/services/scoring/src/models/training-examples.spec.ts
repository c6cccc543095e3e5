import type { MessageEnvelope } from '@ringfence/contracts';
import type { StoredDecisionRecord } from '@ringfence/scoring-engine';
import type { DecisionRecords } from '../decisions/decision-records';
import type { DecisionVerdict } from '../decisions/labelling-policy';
import type { SubjectVerdicts } from '../decisions/subject-verdicts';
import { TrainingExampleReader, TrainingTooLarge } from './training-examples';

const T0 = 1_766_000_000_000;
const MESSAGE = { accountId: 'acc_examples', environment: 'test', traceId: 'trace-examples' } as MessageEnvelope<unknown>;

/** `count` decisions of customers, a second apart, each with its features (an example each). */
function decisions(count: number): StoredDecisionRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    scoreId: `scr_${String(index).padStart(6, '0')}`,
    checkpoint: 'customer',
    timestamp: T0 + index * 1_000,
    decidedAt: T0 + index * 1_000,
    subjectKind: 'customer',
    subjectId: `cus-${index}`,
    action: 'ALLOW',
    event: { checkpoint: 'customer', subject: { kind: 'customer', id: `cus-${index}` }, features: { emailDisposable: index % 2 === 0 } },
  }));
}

/** The stored decisions, read in keyset pages as `DecisionRecords.page` reads them; counts the pages asked for. */
function storedDecisions(records: StoredDecisionRecord[]) {
  const reads = { pages: 0 };
  const store = {
    page: async (_tenant: unknown, _checkpoint: string, _from: number, _to: number, cursor: { scoreId: string } | null, limit: number) => {
      reads.pages += 1;
      const start = cursor === null ? 0 : records.findIndex((record) => record.scoreId === cursor.scoreId) + 1;
      return records.slice(start, start + limit);
    },
  } as unknown as DecisionRecords;
  return { store, reads };
}

/** Judges every record with `verdictOf(record)` (unknown by default), counting the records it was asked about. */
function verdicts(verdictOf: (record: StoredDecisionRecord) => DecisionVerdict = () => ({ verdict: 'unknown' })) {
  const asked = { records: 0 };
  const judge = async (_message: unknown, _checkpoint: unknown, records: StoredDecisionRecord[]) => {
    asked.records += records.length;
    return records.map(verdictOf);
  };
  return { verdicts: { judge } as unknown as SubjectVerdicts, asked };
}
const noVerdicts = verdicts().verdicts;
const noProgress = async () => undefined;

describe(TrainingExampleReader.name, () => {
  it('reads every decision of a period within TRAINING_MAX_EXAMPLES', async () => {
    const { store } = storedDecisions(decisions(2_500));
    const reader = new TrainingExampleReader(store, noVerdicts);

    const read = await reader.read(MESSAGE, 'customer', 0, Number.MAX_SAFE_INTEGER, noProgress, { maxExamples: 2_500, signal: new AbortController().signal });

    expect(read.labels).toHaveLength(2_500);
  });

  it('labels each example by its verdict and counts the positives by reason; a genuine or unknown verdict is a negative', async () => {
    const { store } = storedDecisions(decisions(6));
    const byIndex: DecisionVerdict[] = [
      { verdict: 'fraud', reason: 'disputedPayment' },
      { verdict: 'genuine' },
      { verdict: 'fraud', reason: 'customerLabelledFraudster' },
      { verdict: 'unknown' },
      { verdict: 'fraud', reason: 'disputedPayment' },
      { verdict: 'fraud', reason: 'refundAbuse' },
    ];
    const reader = new TrainingExampleReader(store, verdicts((record) => byIndex[Number(record.scoreId.slice(4))]).verdicts);

    const read = await reader.read(MESSAGE, 'pspBeforeAuth', 0, Number.MAX_SAFE_INTEGER, noProgress, { maxExamples: 100, signal: new AbortController().signal });

    expect(Array.from(read.labels)).toEqual([1, 0, 1, 0, 1, 1]);
    expect(read.positives).toBe(4);
    expect(read.positivesByReason).toEqual({ disputedPayment: 2, analystMarkedFraud: 0, customerLabelledFraudster: 1, customerFraud: 0, supplierFraudulent: 0, refundAbuse: 1 });
  });

  it("counts a payment an analyst marked fraud as a positive of its own reason, which does not measure how long disputes take", async () => {
    // Every 10th of 1,000 payments marked fraud by an analyst: no dispute time comes with them, so nothing is left out as immature.
    const marked = verdicts(({ timestamp }) => ((timestamp - T0) % 10_000 === 0 ? { verdict: 'fraud', reason: 'analystMarkedFraud' } : { verdict: 'genuine' }));
    const read = await new TrainingExampleReader(storedDecisions(decisions(1_000)).store, marked.verdicts).read(MESSAGE, 'pspAfterAuth', 0, Number.MAX_SAFE_INTEGER, noProgress, {
      maxExamples: 10_000,
      signal: new AbortController().signal,
    });

    expect(read.labels).toHaveLength(1_000);
    expect(read.positives).toBe(100);
    expect(read.positivesByReason).toEqual({ disputedPayment: 0, analystMarkedFraud: 100, customerLabelledFraudster: 0, customerFraud: 0, supplierFraudulent: 0, refundAbuse: 0 });
    expect(read.labelMaturity).toBeNull();
  });

  it('stops at the page that would pass TRAINING_MAX_EXAMPLES, before labelling it, with the reason the model shows', async () => {
    const { store, reads } = storedDecisions(decisions(5_000));
    const judged = verdicts();
    const reader = new TrainingExampleReader(store, judged.verdicts);

    const read = reader.read(MESSAGE, 'customer', 0, Number.MAX_SAFE_INTEGER, noProgress, { maxExamples: 2_500, signal: new AbortController().signal });

    await expect(read).rejects.toThrow(new TrainingTooLarge(2_500));
    await expect(read).rejects.toThrow('stopped: the period holds more than TRAINING_MAX_EXAMPLES (2500) decisions; train on a shorter period (from, to)');
    expect(reads.pages).toBe(3);
    expect(judged.asked.records).toBe(2_000);
  });

  it('stops reading once its training is out of time (the signal aborted)', async () => {
    const { store, reads } = storedDecisions(decisions(5_000));
    const outOfTime = new AbortController();
    const reader = new TrainingExampleReader(store, noVerdicts);

    const read = reader.read(MESSAGE, 'customer', 0, Number.MAX_SAFE_INTEGER, async (done) => {
      if (done >= 1_000) outOfTime.abort(new Error('out of time'));
    }, { maxExamples: 1_000_000, signal: outOfTime.signal });

    await expect(read).rejects.toThrow('out of time');
    expect(reads.pages).toBe(1);
  });

  it('leaves out the latest payments, whose disputes may still come, by how long the account\'s own disputes took', async () => {
    // 3,000 payments a minute apart; every 50th is fraud, disputed 1,000 minutes after it, and the
    // disputes known now are those up to the last payment's time: the last 1,000 minutes' fraud is not disputed yet.
    const minute = 60_000;
    const records = decisions(3_000).map((record, index) => ({ ...record, timestamp: T0 + index * minute }));
    const last = T0 + 2_999 * minute;
    const reader = new TrainingExampleReader(
      storedDecisions(records).store,
      verdicts(({ timestamp }) => {
        const disputedAt = timestamp + 1_000 * minute;
        return (timestamp - T0) % (50 * minute) === 0 && disputedAt <= last ? { verdict: 'fraud', reason: 'disputedPayment', disputedAt } : { verdict: 'unknown' };
      }).verdicts,
    );

    const read = await reader.read(MESSAGE, 'pspBeforeAuth', 0, Number.MAX_SAFE_INTEGER, noProgress, { maxExamples: 10_000, signal: new AbortController().signal });

    // The newest dispute came at minute 2,950 (for the payment of minute 1,950): payments after minute 1,950 are left out.
    expect(read.labels).toHaveLength(1_951);
    expect(read.eventTimes[read.eventTimes.length - 1]).toBe(T0 + 1_950 * minute);
    expect(read.positives).toBe(40);
    expect(read.positivesByReason.disputedPayment).toBe(40);
    expect(read.matrix.rowCount).toBe(1_951);
    expect(read.labelMaturity).toEqual({ horizonDays: 0.69, cutoff: T0 + 1_950 * minute, leftOut: 1_049 });
  });

  it('leaves nothing out when the cut would keep fewer than 20 disputed payments (disputes sent in one batch, stamped when sent)', async () => {
    const records = decisions(1_000);
    const sentAtOnce = T0 + 1_000 * 1_000;
    const everyTenth = verdicts(({ timestamp }) => ((timestamp - T0) % 10_000 === 0 ? { verdict: 'fraud', reason: 'disputedPayment', disputedAt: sentAtOnce } : { verdict: 'unknown' }));
    const read = await new TrainingExampleReader(storedDecisions(records).store, everyTenth.verdicts).read(MESSAGE, 'pspBeforeAuth', 0, Number.MAX_SAFE_INTEGER, noProgress, {
      maxExamples: 10_000,
      signal: new AbortController().signal,
    });
    expect(read.labels).toHaveLength(1_000);
    expect(read.positives).toBe(100);
    expect(read.labelMaturity).toBeNull();
  });

  it('leaves nothing out with fewer than 20 disputed payments, or at checkpoints whose labels are not disputes', async () => {
    const records = decisions(1_000);
    const fraudEvery100 = verdicts(({ timestamp }) => ((timestamp - T0) % 100_000 === 0 ? { verdict: 'fraud', reason: 'disputedPayment', disputedAt: timestamp + 5_000 } : { verdict: 'unknown' }));
    const read = await new TrainingExampleReader(storedDecisions(records).store, fraudEvery100.verdicts).read(MESSAGE, 'pspBeforeAuth', 0, Number.MAX_SAFE_INTEGER, noProgress, {
      maxExamples: 10_000,
      signal: new AbortController().signal,
    });
    expect(read.labels).toHaveLength(1_000);
    expect(read.labelMaturity).toBeNull();
  });
});
