import type { CurrentLabels, LabelApplication, LabelHistoryEntry, LabelSubject } from '@ringfence/labels';
import { CachingLabelRepository, type LabelTable } from './caching-label.repository';

const ada: LabelSubject = { accountId: 'acc_1', environment: 'test', kind: 'customer', subjectId: 'ada' };
const bob: LabelSubject = { ...ada, subjectId: 'bob' };
const review = { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' } as unknown as LabelApplication;
const trusted = { PAYMENT_FRAUD: { review: 'TRUSTED' } } as unknown as CurrentLabels;
const fraudster = { PAYMENT_FRAUD: { review: 'FRAUDSTER' } } as unknown as CurrentLabels;

/** A table whose subjects reviewed before the start are all trusted, and whose review makes a fraudster. */
async function setup(labelledAtStart: LabelSubject[] = [], maxSubjects = 100, maxSubjectsPerAccount = maxSubjects) {
  let labels: CurrentLabels = labelledAtStart.length > 0 ? trusted : {};
  let reads = 0;
  let failReads = false;
  let holding = false;
  const held: Array<() => void> = [];
  const inner: LabelTable = {
    allCurrentLabels: async () => labelledAtStart.map((subject) => ({ subject, labels })),
    apply: async () => {
      labels = fraudster;
      return {} as LabelHistoryEntry;
    },
    read: async () => ({ current: labels, history: [] }) as never,
    currentLabels: async () => {
      reads += 1;
      if (failReads) throw new Error('the database is gone');
      const seen = labels;
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      return seen;
    },
  };
  return {
    cache: await CachingLabelRepository.load(inner, maxSubjects, maxSubjectsPerAccount),
    reads: () => reads,
    failReads: () => (failReads = true),
    holdReads: () => (holding = true),
    /** Answers the held reads, the latest first: an older read's answer then arrives last. */
    release: () => {
      holding = false;
      for (const resolve of held.splice(0).reverse()) resolve();
    },
  };
}

const current = (cache: CachingLabelRepository, subject = ada) => cache.currentLabels(subject.accountId, subject.environment, subject.kind, subject.subjectId);
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe(CachingLabelRepository.name, () => {
  it('reads nothing for a subject never reviewed, nor after a review of it: the review reads its labels back', async () => {
    const { cache, reads } = await setup();
    expect(await current(cache)).toEqual({});
    expect(reads()).toBe(0);
    await cache.apply(ada, review);
    expect(reads()).toBe(1);
    expect(await current(cache)).toEqual(fraudster);
    expect(await current(cache)).toEqual(fraudster);
    expect(reads()).toBe(1);
  });

  it('holds the labels of subjects reviewed before the start, read with the start', async () => {
    const { cache, reads } = await setup([ada]);
    expect(await current(cache)).toEqual(trusted);
    expect(reads()).toBe(0);
  });

  it('reads, when asked, the labels of a reviewed subject it had no room for, once', async () => {
    const { cache, reads } = await setup([bob, ada], 1);
    expect(await current(cache, bob)).toEqual(trusted);
    expect(reads()).toBe(0);
    expect(await current(cache)).toEqual(trusted);
    expect(reads()).toBe(1);
    expect(await current(cache)).toEqual(trusted);
    expect(reads()).toBe(1);
  });

  it("keeps another account's labels in memory while one account's reviews go past its share, letting go of its own (ADR-0016)", async () => {
    const neighbours = Array.from({ length: 10 }, (_, i): LabelSubject => ({ ...ada, accountId: 'acc_neighbour', subjectId: `neighbour-${i}` }));
    const { cache, reads } = await setup(neighbours, 40, 10);

    for (let i = 0; i < 500; i += 1) await cache.apply({ ...ada, accountId: 'acc_flooder', subjectId: `flood-${i}` }, review);

    // Held since the start: the table (whose reviews now make everyone a fraudster) is not read.
    const readsBefore = reads();
    for (const neighbour of neighbours) expect(await current(cache, neighbour)).toEqual(trusted);
    expect(reads()).toBe(readsBefore);
  });

  it('answers a stored review even when reading its labels back fails; a checkpoint then reads them', async () => {
    const { cache, failReads } = await setup();
    failReads();
    await expect(cache.apply(ada, review)).resolves.toEqual({});
    await expect(current(cache)).rejects.toThrow('the database is gone');
  });

  it('does not keep a read that a review of the subject overtook', async () => {
    const { cache, reads, holdReads, release } = await setup([bob, ada], 1);
    holdReads();
    const stale = current(cache);
    await settle();
    const applied = cache.apply(ada, review);
    await settle();
    release();
    await applied;
    expect(await stale).toEqual(trusted);
    const readsBefore = reads();
    expect(await current(cache)).toEqual(fraudster);
    expect(reads()).toBe(readsBefore);
  });
});
