/**
 * The label vocabulary of specification §3 and §4.13/§4.14: which categories a customer or a
 * supplier can be reviewed in, and the reviews each category allows. Values are case-sensitive.
 * The semantics (inference, replacement, clearing) live in `@ringfence/labels`; this file is
 * only the interface's word list, shared by the request DTOs, the messages and the domain.
 */
export const LABEL_SUBJECT_KINDS = ['customer', 'supplier'] as const;
export type LabelSubjectKind = (typeof LABEL_SUBJECT_KINDS)[number];

/** The review that clears a category's current label; every category allows it. */
export const UNREVIEWED = 'UNREVIEWED';

export const LABEL_REVIEWS_BY_CATEGORY = {
  PAYMENT_FRAUD: ['FRAUDSTER', 'GENUINE', 'POTENTIALLY_FRAUDSTER', 'POTENTIALLY_GENUINE', UNREVIEWED],
  REFUND_ABUSE: ['REFUND_ABUSE', 'NOT_REFUND_ABUSE', UNREVIEWED],
  SUPPLIER_FRAUD: ['FRAUDULENT', 'GENUINE', UNREVIEWED],
} as const;

export type LabelCategory = keyof typeof LABEL_REVIEWS_BY_CATEGORY;
export type LabelReview = (typeof LABEL_REVIEWS_BY_CATEGORY)[LabelCategory][number];

/** Categories per subject kind; the first one is where reviews both categories share go. */
export const LABEL_CATEGORIES_BY_SUBJECT_KIND = {
  customer: ['PAYMENT_FRAUD', 'REFUND_ABUSE'],
  supplier: ['SUPPLIER_FRAUD'],
} as const satisfies Record<LabelSubjectKind, readonly LabelCategory[]>;

export const CUSTOMER_LABEL_CATEGORIES = LABEL_CATEGORIES_BY_SUBJECT_KIND.customer;
export const SUPPLIER_LABEL_CATEGORIES = LABEL_CATEGORIES_BY_SUBJECT_KIND.supplier;
export const LABEL_CATEGORIES = [...CUSTOMER_LABEL_CATEGORIES, ...SUPPLIER_LABEL_CATEGORIES] as const;

const distinct = <T>(values: readonly T[]): T[] => [...new Set(values)];

/** Every review a customer request may carry, in the specification's order. */
export const CUSTOMER_LABEL_REVIEWS: readonly LabelReview[] = distinct(
  CUSTOMER_LABEL_CATEGORIES.flatMap((category) => LABEL_REVIEWS_BY_CATEGORY[category]),
);
export const SUPPLIER_LABEL_REVIEWS: readonly LabelReview[] = distinct(
  SUPPLIER_LABEL_CATEGORIES.flatMap((category) => LABEL_REVIEWS_BY_CATEGORY[category]),
);
export const LABEL_REVIEWS: readonly LabelReview[] = distinct([...CUSTOMER_LABEL_REVIEWS, ...SUPPLIER_LABEL_REVIEWS]);

/** The reviews that are refused unless the account enabled them (specification §4.13). */
export const POTENTIAL_LABEL_REVIEWS: readonly LabelReview[] = LABEL_REVIEWS.filter((review) => review.startsWith('POTENTIALLY_'));
