import type { CurrentLabels, LabelApplication, LabelHistoryEntry, LabelRepository, LabelSubject } from '@ringfence/labels';
import { CachingLabelRepository } from './caching-label.repository';

const ada: LabelSubject = { accountId: 'acc_1', environment: 'test', kind: 'customer', subjectId: 'ada' };
const review = { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' } as unknown as LabelApplication;

function setup() {
  let labels: CurrentLabels = {};
  let reads = 0;
  let releaseRead: (() => void) | undefined;
  const inner: LabelRepository = {
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
    cache: new CachingLabelRepository(inner, 100),
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
  it('reads a subject\'s current labels once, and again after a review of it', async () => {
    const { cache, reads } = setup();
    expect(await current(cache)).toEqual({});
    expect(await current(cache)).toEqual({});
    expect(reads()).toBe(1);
    await cache.apply(ada, review);
    expect(await current(cache)).toEqual({ PAYMENT_FRAUD: { review: 'FRAUDSTER' } });
  });

  it('does not keep a read that a review overtook', async () => {
    const { cache, holdReads, release } = setup();
    holdReads();
    const stale = current(cache);
    await new Promise((resolve) => setImmediate(resolve));
    await cache.apply(ada, review);
    release();
    expect(await stale).toEqual({});
    expect(await current(cache)).toEqual({ PAYMENT_FRAUD: { review: 'FRAUDSTER' } });
  });
});
