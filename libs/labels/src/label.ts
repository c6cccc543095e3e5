import type { Environment, LabelCategory, LabelReview, LabelSubjectKind } from '@ringfence/contracts';

/** Who applied a review (specification §2.2 Reviewer). */
export interface Reviewer {
  name?: string;
  email?: string;
}

/** A customer or supplier of one tenant's data set. */
export interface LabelSubject {
  accountId: string;
  environment: Environment;
  kind: LabelSubjectKind;
  subjectId: string;
}

/** A category's current label. Never UNREVIEWED: that review clears the category. */
export interface CurrentLabel {
  review: LabelReview;
  /** When it was applied, epoch milliseconds. */
  eventTime: number;
  reviewer: Reviewer | null;
  comment: string | null;
}

/** The current label of each category that has one. */
export type CurrentLabels = Partial<Record<LabelCategory, CurrentLabel>>;

/** One review as the audit log keeps it: who, when, from what to what, why (ADR-0008). */
export interface LabelHistoryEntry {
  category: LabelCategory;
  review: LabelReview;
  /** The category's label before this review; null when it had none. */
  previous: LabelReview | null;
  eventTime: number;
  reviewer: Reviewer | null;
  comment: string | null;
}

export interface SubjectLabels {
  current: CurrentLabels;
  /** Oldest first: the order the reviews were applied in. */
  history: LabelHistoryEntry[];
}

/** A review to apply, already checked and with its category resolved (see `resolveReview`). */
export interface LabelApplication {
  category: LabelCategory;
  review: LabelReview;
  eventTime: number;
  reviewer: Reviewer | null;
  comment: string | null;
}

export interface LabelRepository {
  /**
   * Applies one review atomically: reads the category's current label, stores what
   * `applyReview` makes of it and appends the history entry, all in one transaction, so
   * concurrent reviews of one subject take turns and `previous` is always right. Returns the
   * history entry.
   */
  apply(subject: LabelSubject, application: LabelApplication): Promise<LabelHistoryEntry>;
  /** The current labels and the whole history, oldest first. */
  read(subject: LabelSubject): Promise<SubjectLabels>;
  /** Only the current labels, in one indexed read: what scoring asks at every checkpoint. */
  currentLabels(accountId: string, environment: Environment, subjectKind: LabelSubjectKind, subjectId: string): Promise<CurrentLabels>;
}

export const LABEL_REPOSITORY = Symbol('LabelRepository');
