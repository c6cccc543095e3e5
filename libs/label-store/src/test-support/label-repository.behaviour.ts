import type { LabelApplication, LabelRepository } from '@ringfence/labels';
import { buildLabelApplication, buildLabelSubject } from './label-test-data.factory';

const asCurrent = ({ review, eventTime, reviewer, comment }: LabelApplication) => ({ review, eventTime, reviewer, comment });

/** What any LabelRepository adapter must do; run against each database by its spec files. */
export function itBehavesLikeALabelRepository(repository: () => LabelRepository): void {
  it('stores a review as the current label and as the first history entry, to the millisecond', async () => {
    const subject = buildLabelSubject();
    const review = buildLabelApplication({ eventTime: 1_764_123_456_789 });

    const entry = await repository().apply(subject, review);

    expect(entry).toEqual({ ...review, previous: null });
    await expect(repository().read(subject)).resolves.toEqual({ current: { PAYMENT_FRAUD: asCurrent(review) }, history: [entry] });
  });

  it('replaces the label of the category and records the replaced review', async () => {
    const subject = buildLabelSubject();
    const genuine = buildLabelApplication({ review: 'GENUINE', reviewer: null, comment: null });
    const fraudster = buildLabelApplication({ review: 'FRAUDSTER', reviewer: { email: 'only-email@merchant.example' } });

    await repository().apply(subject, genuine);
    const second = await repository().apply(subject, fraudster);

    expect(second.previous).toBe('GENUINE');
    const { current, history } = await repository().read(subject);
    expect(current).toEqual({ PAYMENT_FRAUD: asCurrent(fraudster) });
    expect(history).toEqual([
      { ...genuine, previous: null },
      { ...fraudster, previous: 'GENUINE' },
    ]);
  });

  it('clears the category with UNREVIEWED and keeps the clearing in the history', async () => {
    const subject = buildLabelSubject();
    await repository().apply(subject, buildLabelApplication({ review: 'FRAUDSTER' }));

    const cleared = await repository().apply(subject, buildLabelApplication({ review: 'UNREVIEWED' }));

    expect(cleared.previous).toBe('FRAUDSTER');
    const { current, history } = await repository().read(subject);
    expect(current).toEqual({});
    expect(history.map((entry) => [entry.review, entry.previous])).toEqual([
      ['FRAUDSTER', null],
      ['UNREVIEWED', 'FRAUDSTER'],
    ]);
    await expect(repository().currentLabels(subject.accountId, subject.environment, subject.kind, subject.subjectId)).resolves.toEqual({});
  });

  it('records UNREVIEWED of a category without a label, with no previous review', async () => {
    const subject = buildLabelSubject();

    const entry = await repository().apply(subject, buildLabelApplication({ review: 'UNREVIEWED' }));

    expect(entry.previous).toBeNull();
    await expect(repository().read(subject)).resolves.toEqual({ current: {}, history: [entry] });
  });

  it("keeps each category's label apart", async () => {
    const subject = buildLabelSubject();
    const refundAbuse = buildLabelApplication({ category: 'REFUND_ABUSE', review: 'REFUND_ABUSE' });
    const genuine = buildLabelApplication({ category: 'PAYMENT_FRAUD', review: 'GENUINE' });
    await repository().apply(subject, refundAbuse);
    await repository().apply(subject, genuine);

    const clearPayment = await repository().apply(subject, buildLabelApplication({ category: 'PAYMENT_FRAUD', review: 'UNREVIEWED' }));

    expect(clearPayment.previous).toBe('GENUINE');
    await expect(repository().currentLabels(subject.accountId, subject.environment, subject.kind, subject.subjectId)).resolves.toEqual({
      REFUND_ABUSE: asCurrent(refundAbuse),
    });
  });

  it('answers the same current labels from currentLabels as from read', async () => {
    const subject = buildLabelSubject();
    await repository().apply(subject, buildLabelApplication({ category: 'REFUND_ABUSE', review: 'NOT_REFUND_ABUSE', reviewer: null }));
    await repository().apply(subject, buildLabelApplication({ review: 'POTENTIALLY_GENUINE', comment: null }));

    const fast = await repository().currentLabels(subject.accountId, subject.environment, subject.kind, subject.subjectId);

    expect(fast).toEqual((await repository().read(subject)).current);
    expect(Object.keys(fast).sort()).toEqual(['PAYMENT_FRAUD', 'REFUND_ABUSE']);
  });

  it('never shows one subject the labels of another account, environment, subject kind or id', async () => {
    const subject = buildLabelSubject({ subjectId: 'shared-id' });
    await repository().apply(subject, buildLabelApplication());
    const others = [
      buildLabelSubject({ subjectId: 'shared-id' }),
      { ...subject, environment: 'test' as const },
      { ...subject, kind: 'supplier' as const },
      { ...subject, subjectId: 'shared-id-2' },
    ];

    for (const other of others) {
      await expect(repository().read(other)).resolves.toEqual({ current: {}, history: [] });
      await expect(repository().currentLabels(other.accountId, other.environment, other.kind, other.subjectId)).resolves.toEqual({});
    }
  });

  it('keeps identifiers as given: slashes, spaces, non-ASCII, 300 characters', async () => {
    for (const subjectId of ['cus/1 2', 'clïent-ü-🙂', 'x'.repeat(300)]) {
      const subject = buildLabelSubject({ kind: 'supplier', subjectId });
      const review = buildLabelApplication({ category: 'SUPPLIER_FRAUD', review: 'FRAUDULENT' });
      await repository().apply(subject, review);

      await expect(repository().currentLabels(subject.accountId, subject.environment, 'supplier', subjectId)).resolves.toEqual({
        SUPPLIER_FRAUD: asCurrent(review),
      });
    }
  });

  it('applies concurrent reviews of one subject one after the other, each recording the one before', async () => {
    const subject = buildLabelSubject();
    const reviews = Array.from({ length: 8 }, (_unused, index) =>
      buildLabelApplication({ review: index % 2 === 0 ? 'FRAUDSTER' : 'GENUINE', comment: `review ${index}` }),
    );

    await Promise.all(reviews.map((review) => repository().apply(subject, review)));

    const { current, history } = await repository().read(subject);
    expect(history).toHaveLength(reviews.length);
    expect(history[0].previous).toBeNull();
    history.slice(1).forEach((entry, index) => expect(entry.previous).toBe(history[index].review));
    expect(current.PAYMENT_FRAUD?.comment).toBe(history.at(-1)?.comment);
  });
}
