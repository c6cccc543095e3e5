import fc from 'fast-check';
import {
  LABEL_REVIEWS,
  LABEL_REVIEWS_BY_CATEGORY,
  type LabelCategory,
  type LabelSubjectKind,
  POTENTIAL_LABEL_REVIEWS,
  UNREVIEWED,
} from '@ringfence/contracts';
import type { LabelApplication } from './label';
import { applyReview, categoriesOf, currentLabelsOf, normaliseReviewer, resolveReview, reviewsOf, reviewsOfKind } from './label-rules';

const ENABLED = { potentialLabelsEnabled: true };
const DISABLED = {};

function application(overrides: Partial<LabelApplication> = {}): LabelApplication {
  return { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER', eventTime: 1_764_100_000_000, reviewer: null, comment: null, ...overrides };
}

describe(resolveReview.name, () => {
  it.each<[LabelSubjectKind, string, string]>([
    ['customer', 'FRAUDSTER', 'PAYMENT_FRAUD'],
    ['customer', 'GENUINE', 'PAYMENT_FRAUD'],
    ['customer', 'REFUND_ABUSE', 'REFUND_ABUSE'],
    ['customer', 'NOT_REFUND_ABUSE', 'REFUND_ABUSE'],
    ['customer', 'UNREVIEWED', 'PAYMENT_FRAUD'],
    ['supplier', 'FRAUDULENT', 'SUPPLIER_FRAUD'],
    ['supplier', 'GENUINE', 'SUPPLIER_FRAUD'],
    ['supplier', 'UNREVIEWED', 'SUPPLIER_FRAUD'],
  ])('infers the category of a %s review %s as %s', (kind, review, category) => {
    expect(resolveReview(kind, { review }, DISABLED)).toEqual({ category, review });
  });

  it('keeps a named category that allows the review, UNREVIEWED included', () => {
    expect(resolveReview('customer', { category: 'REFUND_ABUSE', review: 'UNREVIEWED' }, DISABLED)).toEqual({ category: 'REFUND_ABUSE', review: 'UNREVIEWED' });
  });

  it('refuses a request without a review, naming review, whether or not it names a category', () => {
    expect(() => resolveReview('customer', {}, DISABLED)).toThrow(/^review: is required, one of FRAUDSTER, GENUINE, /);
    expect(() => resolveReview('customer', { category: 'PAYMENT_FRAUD' }, DISABLED)).toThrow(/^review: is required/);
  });

  it('refuses a review the named category does not allow, naming review and the allowed values', () => {
    expect(() => resolveReview('customer', { category: 'REFUND_ABUSE', review: 'FRAUDSTER' }, DISABLED)).toThrow(
      'review: must be one of REFUND_ABUSE, NOT_REFUND_ABUSE, UNREVIEWED for category REFUND_ABUSE',
    );
  });

  it('refuses reviews and categories of the other subject kind', () => {
    expect(() => resolveReview('supplier', { review: 'FRAUDSTER' }, ENABLED)).toThrow('review: must be one of FRAUDULENT, GENUINE, UNREVIEWED');
    expect(() => resolveReview('customer', { category: 'SUPPLIER_FRAUD', review: 'GENUINE' }, ENABLED)).toThrow(
      'category: must be one of PAYMENT_FRAUD, REFUND_ABUSE',
    );
  });

  it('lists every failing field at once', () => {
    expect(() => resolveReview('customer', { category: 'payment_fraud', review: 'fraudster' }, ENABLED)).toThrow(
      /^category: must be one of PAYMENT_FRAUD, REFUND_ABUSE; review: must be one of /,
    );
  });

  it('refuses the POTENTIALLY_ reviews unless the account enabled them', () => {
    for (const review of POTENTIAL_LABEL_REVIEWS) {
      expect(() => resolveReview('customer', { review }, DISABLED)).toThrow(new RegExp(`^review: ${review} is not enabled for this account`));
      expect(() => resolveReview('customer', { review }, { potentialLabelsEnabled: false })).toThrow(/not enabled/);
      expect(resolveReview('customer', { review }, ENABLED)).toEqual({ category: 'PAYMENT_FRAUD', review });
    }
  });

  it('answers VALIDATION_FAILED (400)', () => {
    expect(() => resolveReview('customer', { review: 'nope' }, DISABLED)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', status: 400 }));
  });

  it('is case-sensitive: no other spelling of a valid value is accepted', () => {
    const respelled = fc
      .constantFrom(...LABEL_REVIEWS)
      .chain((review) => fc.constantFrom(review.toLowerCase(), `${review[0]}${review.slice(1).toLowerCase()}`, ` ${review}`, `${review} `));
    fc.assert(
      fc.property(respelled, fc.constantFrom<LabelSubjectKind>('customer', 'supplier'), (review, kind) => {
        expect(() => resolveReview(kind, { review }, ENABLED)).toThrow(/^review: must be one of/);
      }),
    );
  });

  it('resolves every valid review of a kind, with or without its category, to a category of that kind that allows it', () => {
    const request = fc.constantFrom<LabelSubjectKind>('customer', 'supplier').chain((kind) =>
      fc.record({
        kind: fc.constant(kind),
        category: fc.option(fc.constantFrom(...categoriesOf(kind)), { nil: undefined }),
        review: fc.constantFrom(...reviewsOfKind(kind)),
      }),
    );
    fc.assert(
      fc.property(request, ({ kind, category, review }) => {
        const allowed = category === undefined || (reviewsOf(category) as readonly string[]).includes(review);
        if (!allowed) {
          expect(() => resolveReview(kind, { category, review }, ENABLED)).toThrow(/^review: must be one of .* for category/);
          return;
        }
        const resolved = resolveReview(kind, { category, review }, ENABLED);
        expect(categoriesOf(kind)).toContain(resolved.category);
        expect(reviewsOf(resolved.category)).toContain(review);
        if (category !== undefined) expect(resolved.category).toBe(category);
      }),
    );
  });
});

describe(applyReview.name, () => {
  it('replaces the current label and records what it replaced', () => {
    const current = applyReview(null, application({ review: 'GENUINE', eventTime: 1 })).next;
    const { next, entry } = applyReview(current, application({ review: 'FRAUDSTER', eventTime: 2, reviewer: { name: 'Grace' }, comment: 'chargeback' }));
    expect(next).toEqual({ review: 'FRAUDSTER', eventTime: 2, reviewer: { name: 'Grace' }, comment: 'chargeback' });
    expect(entry).toEqual({ category: 'PAYMENT_FRAUD', review: 'FRAUDSTER', previous: 'GENUINE', eventTime: 2, reviewer: { name: 'Grace' }, comment: 'chargeback' });
  });

  it('clears the label with UNREVIEWED and records the cleared review', () => {
    const current = applyReview(null, application({ review: 'FRAUDSTER' })).next;
    const { next, entry } = applyReview(current, application({ review: 'UNREVIEWED' }));
    expect(next).toBeNull();
    expect(entry).toMatchObject({ review: 'UNREVIEWED', previous: 'FRAUDSTER' });
  });

  it('records UNREVIEWED on an unlabelled category with no previous label', () => {
    expect(applyReview(null, application({ review: 'UNREVIEWED' }))).toEqual({
      next: null,
      entry: expect.objectContaining({ review: 'UNREVIEWED', previous: null }),
    });
  });
});

describe(currentLabelsOf.name, () => {
  const customerApplication = fc
    .constantFrom<LabelCategory>('PAYMENT_FRAUD', 'REFUND_ABUSE')
    .chain((category) =>
      fc.record({
        category: fc.constant(category),
        review: fc.constantFrom(...LABEL_REVIEWS_BY_CATEGORY[category]),
        eventTime: fc.integer({ min: 0, max: 2 ** 42 }),
        reviewer: fc.option(fc.record({ name: fc.string({ maxLength: 5 }) }), { nil: null }),
        comment: fc.option(fc.string({ maxLength: 5 }), { nil: null }),
      }),
    );

  it("makes each category's label the last review applied to it since its last UNREVIEWED", () => {
    fc.assert(
      fc.property(fc.array(customerApplication, { maxLength: 30 }), (history) => {
        const current = currentLabelsOf(history);
        for (const category of ['PAYMENT_FRAUD', 'REFUND_ABUSE'] as const) {
          const ofCategory = history.filter((entry) => entry.category === category);
          const lastClear = ofCategory.map((entry) => entry.review).lastIndexOf(UNREVIEWED);
          const sinceClear = ofCategory.slice(lastClear + 1);
          const expected = sinceClear.at(-1);
          expect(current[category]).toEqual(
            expected ? { review: expected.review, eventTime: expected.eventTime, reviewer: expected.reviewer, comment: expected.comment } : undefined,
          );
        }
      }),
    );
  });

  it('never holds UNREVIEWED, and never a category that was not reviewed', () => {
    fc.assert(
      fc.property(fc.array(customerApplication, { maxLength: 30 }), (history) => {
        for (const [category, label] of Object.entries(currentLabelsOf(history))) {
          expect(label?.review).not.toBe(UNREVIEWED);
          expect(history.some((entry) => entry.category === category)).toBe(true);
        }
      }),
    );
  });

  it("records in each entry's previous the label its category had just before", () => {
    fc.assert(
      fc.property(fc.array(customerApplication, { maxLength: 30 }), (history) => {
        history.forEach((next, index) => {
          const before = currentLabelsOf(history.slice(0, index))[next.category] ?? null;
          expect(applyReview(before, next).entry.previous).toBe(before?.review ?? null);
        });
      }),
    );
  });
});

describe(normaliseReviewer.name, () => {
  it('treats a missing or empty reviewer as none and keeps only the fields sent', () => {
    expect(normaliseReviewer(undefined)).toBeNull();
    expect(normaliseReviewer({})).toBeNull();
    expect(normaliseReviewer({ email: 'a@b.example' })).toEqual({ email: 'a@b.example' });
    expect(normaliseReviewer({ name: 'Ada', email: 'a@b.example' })).toEqual({ name: 'Ada', email: 'a@b.example' });
  });
});
