import type { LabelHistoryEntry, LabelRepository, LabelSubject, Reviewer, SubjectLabels } from './label';
import { type LabelPolicy, type LabelRequest, normaliseReviewer, resolveReview } from './label-rules';

/** A label request as the interface carries it (specification §4.13/§4.14). */
export interface LabelCommand extends LabelRequest {
  reviewer?: Reviewer | null;
  comment?: string | null;
}

/** The label use cases: apply a review, read a subject's labels and audit log. */
export class Labelling {
  constructor(
    private readonly labels: LabelRepository,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Checks the request (see `resolveReview`), then applies it atomically. Returns the history
   * entry: what the label event carries.
   * @throws AppError VALIDATION_FAILED before anything is stored.
   */
  async apply(subject: LabelSubject, command: LabelCommand, policy: LabelPolicy): Promise<LabelHistoryEntry> {
    const { category, review } = resolveReview(subject.kind, command, policy);
    return this.labels.apply(subject, {
      category,
      review,
      eventTime: this.now(),
      reviewer: normaliseReviewer(command.reviewer),
      comment: command.comment ?? null,
    });
  }

  read(subject: LabelSubject): Promise<SubjectLabels> {
    return this.labels.read(subject);
  }
}
