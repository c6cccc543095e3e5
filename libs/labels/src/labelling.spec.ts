import { Labelling } from './labelling';
import type { LabelSubject } from './label';
import { InMemoryLabelRepository } from './test-support/in-memory-label.repository';

const customer: LabelSubject = { accountId: 'acc_1', environment: 'live', kind: 'customer', subjectId: 'cus-1' };

function setup() {
  let clock = 1_764_100_000_000;
  const labels = new InMemoryLabelRepository();
  return { labels, labelling: new Labelling(labels, () => (clock += 1)) };
}

describe(Labelling.name, () => {
  it('applies a review with the time, reviewer and comment, and reads it back with its history', async () => {
    const { labelling } = setup();
    const entry = await labelling.apply(customer, { review: 'FRAUDSTER', reviewer: { name: 'Grace', email: 'grace@merchant.example' }, comment: 'chargeback' }, {});

    expect(entry).toEqual({
      category: 'PAYMENT_FRAUD',
      review: 'FRAUDSTER',
      previous: null,
      eventTime: 1_764_100_000_001,
      reviewer: { name: 'Grace', email: 'grace@merchant.example' },
      comment: 'chargeback',
    });
    await expect(labelling.read(customer)).resolves.toEqual({
      current: { PAYMENT_FRAUD: { review: 'FRAUDSTER', eventTime: 1_764_100_000_001, reviewer: { name: 'Grace', email: 'grace@merchant.example' }, comment: 'chargeback' } },
      history: [entry],
    });
  });

  it('stores nothing for a refused request', async () => {
    const { labelling, labels } = setup();

    await expect(labelling.apply(customer, { review: 'POTENTIALLY_FRAUDSTER' }, { potentialLabelsEnabled: false })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });

    expect(labels.subjects.size).toBe(0);
  });

  it('keeps the categories of a customer apart and the subjects of a tenant apart', async () => {
    const { labelling, labels } = setup();
    await labelling.apply(customer, { review: 'GENUINE' }, {});
    await labelling.apply(customer, { review: 'REFUND_ABUSE' }, {});
    await labelling.apply({ ...customer, accountId: 'acc_2' }, { review: 'FRAUDSTER' }, {});
    await labelling.apply({ ...customer, kind: 'supplier' }, { review: 'FRAUDULENT' }, {});

    await expect(labels.currentLabels('acc_1', 'live', 'customer', 'cus-1')).resolves.toEqual({
      PAYMENT_FRAUD: expect.objectContaining({ review: 'GENUINE' }),
      REFUND_ABUSE: expect.objectContaining({ review: 'REFUND_ABUSE' }),
    });
    await expect(labels.currentLabels('acc_1', 'test', 'customer', 'cus-1')).resolves.toEqual({});
  });
});
