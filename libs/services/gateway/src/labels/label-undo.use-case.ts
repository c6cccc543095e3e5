import { Injectable } from '@nestjs/common';
import { type Principal, actorOf } from '@ringfence/accounts';
import { type LabelCategory, type LabelReview, type LabelSubjectKind, RpcTopics, UNREVIEWED } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { OwnerRequests } from '../owner-requests.service';
import { reviewerOf } from './labels.use-case';

/** What an undo applied: the category's label now, the one it replaced, and when (ISO 8601, as the label API writes times). */
export interface LabelUndone {
  category: LabelCategory;
  review: LabelReview;
  undone: LabelReview;
  eventTime: string;
}

/**
 * `POST /v2/{customer|supplier}/:id/labels/undo` (issue 37): the category's label goes back to
 * what it was before its last change, applied as a new review by this actor, so the audit log
 * keeps the change and its undo. Read and apply are two requests to the labelling service: two
 * undos at once may both undo the same change (each is in the log, named).
 */
@Injectable()
export class LabelUndoUseCase {
  constructor(private readonly owner: OwnerRequests) {}

  async undo(principal: Principal, subjectKind: LabelSubjectKind, subjectId: string, category: LabelCategory, traceId: string) {
    const { history } = await this.owner.ask(principal, traceId, subjectId, RpcTopics.readLabels, { subjectKind, subjectId });
    const last = history.filter((entry) => entry.category === category).at(-1);
    if (last === undefined) throw new AppError('CONFLICT', `category: ${subjectKind} ${subjectId} has no ${category} change to undo`);
    const restored = last.previous ?? UNREVIEWED;
    const reviewer = reviewerOf(principal).reviewer ?? { name: actorOf(principal) };
    const { eventTime } = await this.owner.send(principal, traceId, subjectId, RpcTopics.applyLabel, {
      subjectKind,
      subjectId,
      category,
      review: restored,
      reviewer,
      comment: `undo of ${last.review}`,
    });
    const data: LabelUndone = { category, review: restored, undone: last.review, eventTime: new Date(eventTime).toISOString() };
    return { status: 200, timestamp: Date.now(), data };
  }
}
