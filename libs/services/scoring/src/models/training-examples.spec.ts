import type { MessageEnvelope } from '@ringfence/contracts';
import type { DecisionRecord } from '@ringfence/scoring-engine';
import type { DecisionRecords } from '../decisions/decision-records';
import type { SubjectVerdicts } from '../decisions/subject-verdicts';
import { TrainingExampleReader, TrainingTooLarge } from './training-examples';

const T0 = 1_766_000_000_000;
const MESSAGE = { accountId: 'acc_examples', environment: 'test', traceId: 'trace-examples' } as MessageEnvelope<unknown>;

/** `count` decisions of customers, a second apart, each with its features (an example each). */
function decisions(count: number): DecisionRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    scoreId: `scr_${String(index).padStart(6, '0')}`,
    checkpoint: 'customer',
    timestamp: T0 + index * 1_000,
    event: { checkpoint: 'customer', subject: { kind: 'customer', id: `cus-${index}` }, features: { emailDisposable: index % 2 === 0 } },
  }));
}

/** The stored decisions, read in keyset pages as `DecisionRecords.page` reads them; counts the pages asked for. */
function storedDecisions(records: DecisionRecord[]) {
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

const noVerdicts = { learn: async () => undefined } as unknown as SubjectVerdicts;
const noProgress = async () => undefined;

describe(TrainingExampleReader.name, () => {
  it('reads every decision of a period within TRAINING_MAX_EXAMPLES', async () => {
    const { store } = storedDecisions(decisions(2_500));
    const reader = new TrainingExampleReader(store, noVerdicts);

    const read = await reader.read(MESSAGE, 'customer', 0, Number.MAX_SAFE_INTEGER, noProgress, { maxExamples: 2_500, signal: new AbortController().signal });

    expect(read.labels).toHaveLength(2_500);
  });

  it('stops at the page that would pass TRAINING_MAX_EXAMPLES, before labelling it, with the reason the model shows', async () => {
    const { store, reads } = storedDecisions(decisions(5_000));
    let labelled = 0;
    const verdicts = { learn: async (_message: unknown, subjects: unknown[]) => void (labelled += subjects.length) } as unknown as SubjectVerdicts;
    const reader = new TrainingExampleReader(store, verdicts);

    const read = reader.read(MESSAGE, 'customer', 0, Number.MAX_SAFE_INTEGER, noProgress, { maxExamples: 2_500, signal: new AbortController().signal });

    await expect(read).rejects.toThrow(new TrainingTooLarge(2_500));
    await expect(read).rejects.toThrow('stopped: the period holds more than TRAINING_MAX_EXAMPLES (2500) decisions; train on a shorter period (from, to)');
    expect(reads.pages).toBe(3);
    expect(labelled).toBe(2_000);
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
});
