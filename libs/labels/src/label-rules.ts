import {
  LABEL_CATEGORIES_BY_SUBJECT_KIND,
  LABEL_REVIEWS_BY_CATEGORY,
  type LabelCategory,
  type LabelReview,
  type LabelSubjectKind,
  POTENTIAL_LABEL_REVIEWS,
  UNREVIEWED,
} from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import type { CurrentLabel, CurrentLabels, LabelApplication, LabelHistoryEntry, Reviewer } from './label';

/** What a label request asks for, before any check: both fields are optional in the interface. */
export interface LabelRequest {
  category?: string;
  review?: string;
}

/** The account switches that change what a label request may ask for. */
export interface LabelPolicy {
  /** The POTENTIALLY_ reviews are refused unless this is true (specification §4.13). */
  potentialLabelsEnabled?: boolean;
}

export function categoriesOf(kind: LabelSubjectKind): readonly LabelCategory[] {
  return LABEL_CATEGORIES_BY_SUBJECT_KIND[kind];
}

export function reviewsOf(category: LabelCategory): readonly LabelReview[] {
  return LABEL_REVIEWS_BY_CATEGORY[category];
}

/** Every review some category of this subject kind allows, in the specification's order. */
export function reviewsOfKind(kind: LabelSubjectKind): LabelReview[] {
  return [...new Set(categoriesOf(kind).flatMap((category) => reviewsOf(category)))];
}

const invalid = (message: string) => new AppError('VALIDATION_FAILED', message);
const includes = <T extends string>(values: readonly T[], value: string): value is T => (values as readonly string[]).includes(value);

/**
 * Checks a label request against the subject kind and the account's policy and resolves its
 * category (ADR-0009):
 * - `review` is needed: a request without one (whether or not it names a category) has nothing
 *   to apply, and is refused naming `review`. UNREVIEWED is how a category is cleared.
 * - values are case-sensitive;
 * - an omitted category is inferred from the review: the subject kind's first category that
 *   allows it, which is PAYMENT_FRAUD for the reviews both customer categories share
 *   (UNREVIEWED), and the only one that allows it otherwise;
 * - a named category must allow the review, else the 400 names `review`;
 * - the POTENTIALLY_ reviews need `policy.potentialLabelsEnabled`.
 * @throws AppError VALIDATION_FAILED whose message starts with the failing field.
 */
export function resolveReview(kind: LabelSubjectKind, request: LabelRequest, policy: LabelPolicy): { category: LabelCategory; review: LabelReview } {
  const kindCategories = categoriesOf(kind);
  const kindReviews = reviewsOfKind(kind);
  if (request.review === undefined) {
    throw invalid(`review: is required, one of ${kindReviews.join(', ')} (UNREVIEWED clears a category's label)`);
  }
  const { review } = request;
  const problems: string[] = [];
  if (request.category !== undefined && !includes(kindCategories, request.category)) {
    problems.push(`category: must be one of ${kindCategories.join(', ')}`);
  }
  if (!includes(kindReviews, review)) {
    problems.push(`review: must be one of ${kindReviews.join(', ')}`);
  }
  if (problems.length > 0) throw invalid(problems.join('; '));
  const category = (request.category as LabelCategory | undefined) ?? kindCategories.find((candidate) => includes(reviewsOf(candidate), review));
  if (category === undefined) {
    // Unreachable while every review of a kind belongs to one of its categories; kept as a guard.
    throw invalid(`review: must be one of ${kindReviews.join(', ')}`);
  }
  if (!includes(reviewsOf(category), review)) {
    throw invalid(`review: must be one of ${reviewsOf(category).join(', ')} for category ${category}`);
  }
  if (includes(POTENTIAL_LABEL_REVIEWS, review) && !policy.potentialLabelsEnabled) {
    throw invalid(`review: ${review} is not enabled for this account (the operator switches the POTENTIALLY_ reviews on with the account setting potentialLabelsEnabled)`);
  }
  return { category, review: review as LabelReview };
}

/** An empty reviewer (`{}`) is no reviewer, so the audit log never shows a blank one. */
export function normaliseReviewer(reviewer: Reviewer | null | undefined): Reviewer | null {
  if (!reviewer) return null;
  const { name, email } = reviewer;
  if (name === undefined && email === undefined) return null;
  return { ...(name === undefined ? {} : { name }), ...(email === undefined ? {} : { email }) };
}

/**
 * One review applied to its category's current label (null when it has none): UNREVIEWED
 * clears it, any other review replaces it. Returns the category's next label and the history
 * entry, whose `previous` is the label it replaced or cleared.
 */
export function applyReview(current: CurrentLabel | null, application: LabelApplication): { next: CurrentLabel | null; entry: LabelHistoryEntry } {
  const { category, review, eventTime, reviewer, comment } = application;
  return {
    next: review === UNREVIEWED ? null : { review, eventTime, reviewer, comment },
    entry: { category, review, previous: current?.review ?? null, eventTime, reviewer, comment },
  };
}

/** The current labels a history leads to, replaying it oldest first. */
export function currentLabelsOf(history: readonly LabelApplication[]): CurrentLabels {
  const current: CurrentLabels = {};
  for (const application of history) {
    const { next } = applyReview(current[application.category] ?? null, application);
    if (next) current[application.category] = next;
    else delete current[application.category];
  }
  return current;
}
