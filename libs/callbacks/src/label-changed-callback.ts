import type { Environment, LabelCategory, LabelReview, LabelSubjectKind, LabelUpdatedEvent } from '@ringfence/contracts';

/** The body of a review callback (ADR-0013), in the order it is written. */
export interface LabelChangedCallback {
  event: 'label.changed';
  accountId: string;
  environment: Environment;
  subjectType: LabelSubjectKind;
  subjectId: string;
  category: LabelCategory;
  review: LabelReview;
  previous: LabelReview | null;
  reviewer: { name?: string; email?: string } | null;
  comment: string | null;
  /** When the review was applied: ISO 8601 UTC with milliseconds and `Z`, as the label API answers it. */
  eventTime: string;
}

/** The callback body of one label event (`ringfence.label.*.updated.v1`). */
export function labelChangedCallback(event: LabelUpdatedEvent): LabelChangedCallback {
  const reviewer = event.reviewer ?? null;
  return {
    event: 'label.changed',
    accountId: event.accountId,
    environment: event.environment,
    subjectType: event.subjectKind,
    subjectId: event.subjectId,
    category: event.category,
    review: event.review,
    previous: event.previous ?? null,
    reviewer: reviewer === null ? null : { ...(reviewer.name !== undefined ? { name: reviewer.name } : {}), ...(reviewer.email !== undefined ? { email: reviewer.email } : {}) },
    comment: event.comment ?? null,
    eventTime: new Date(event.eventTime).toISOString(),
  };
}
