import type { CurrentLabels, LabelApplication, LabelHistoryEntry, LabelSubject } from '@ringfence/labels';
import { CachingLabelRepository, type LabelTable } from './caching-label.repository';

const ada: LabelSubject = { accountId: 'acc_1', environment: 'test', kind: 'customer', subjectId: 'ada' };
const review = { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' } as unknown as LabelApplication;

async function setup(labelledAtStart: LabelSubject[] = []) {
  let labels: CurrentLabels = {};
  let reads = 0;
  let releaseRead: (() => void) | undefined;
  const inner: LabelTable = {
    labelledSubjects: async () => labelledAtStart,
    apply: async () => {
      labels = { PAYMENT_FRAUD: { review: 'FRAUDSTER' } } as unknown as CurrentLabels;
      return {} as LabelHistoryEntry;
    },
    read: async () => ({ current: labels, history: [] }) as never,
    currentLabels: async () => {
      reads += 1;
      const seen = labels;
      if (releaseRead === undefined) return seen;
      await new Promise<void>((resolve) => (releaseRead = resolve));
      return seen;
    },
  };
  return {
    cache: await CachingLabelRepository.load(inner, 100),
    reads: () => reads,
    holdReads: () => (releaseRead = () => undefined),
    release: () => {
      const resolve = releaseRead;
      releaseRead = undefined;
      resolve?.();
    },
  };
}

const current = (cache: CachingLabelRepository) => cache.currentLabels(ada.accountId, ada.environment, ada.kind, ada.subjectId);

describe(CachingLabelRepository.name, () => {
  it('reads nothing for a subject never reviewed, and the labels once a review of it is stored', async () => {
    const { cache, reads } = await setup();
    expect(await current(cache)).toEqual({});
    expect(reads()).toBe(0);
    await cache.apply(ada, review);
    expect(await current(cache)).toEqual({ PAYMENT_FRAUD: { review: 'FRAUDSTER' } });
    expect(await current(cache)).toEqual({ PAYMENT_FRAUD: { review: 'FRAUDSTER' } });
    expect(reads()).toBe(1);
  });

  it('reads the labels of a subject reviewed before the start', async () => {
    const { cache, reads } = await setup([ada]);
    await current(cache);
    expect(reads()).toBe(1);
  });

  it('does not keep a read that a review overtook', async () => {
    const { cache, holdReads, release } = await setup([ada]);
    holdReads();
    const stale = current(cache);
    await new Promise((resolve) => setImmediate(resolve));
    await cache.apply(ada, review);
    release();
    expect(await stale).toEqual({});
    expect(await current(cache)).toEqual({ PAYMENT_FRAUD: { review: 'FRAUDSTER' } });
  });
});
