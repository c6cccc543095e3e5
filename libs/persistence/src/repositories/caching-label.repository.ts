import type { Environment, LabelSubjectKind } from '@ringfence/contracts';
import type { CurrentLabels, LabelApplication, LabelHistoryEntry, LabelRepository, LabelSubject, SubjectLabels } from '@ringfence/labels';
import { LRUCache } from 'lru-cache';

/**
 * Current labels kept in memory for the checkpoints, which read them every time (most
 * subjects have none, and a miss is cached too). Sound only when every label is written
 * through this instance, which holds in the embedded mode (one process); `apply` replaces the
 * subject's entry once the review is stored, so the next checkpoint sees it.
 */
export class CachingLabelRepository implements LabelRepository {
  private readonly current: LRUCache<string, { labels: CurrentLabels }>;
  /** Reviews stored so far: a read that a review overtook is not cached (it may predate the review). */
  private reviewsStored = 0;

  constructor(
    private readonly inner: LabelRepository,
    maxSubjects: number,
  ) {
    this.current = new LRUCache({ max: maxSubjects });
  }

  async apply(subject: LabelSubject, application: LabelApplication): Promise<LabelHistoryEntry> {
    const key = keyOf(subject.accountId, subject.environment, subject.kind, subject.subjectId);
    try {
      return await this.inner.apply(subject, application);
    } finally {
      // Dropped, not patched: the store decides what the review made of the labels.
      this.current.delete(key);
      this.reviewsStored += 1;
    }
  }

  read(subject: LabelSubject): Promise<SubjectLabels> {
    return this.inner.read(subject);
  }

  async currentLabels(accountId: string, environment: Environment, subjectKind: LabelSubjectKind, subjectId: string): Promise<CurrentLabels> {
    const key = keyOf(accountId, environment, subjectKind, subjectId);
    const cached = this.current.get(key);
    if (cached !== undefined) return cached.labels;
    const reviewsBefore = this.reviewsStored;
    const labels = await this.inner.currentLabels(accountId, environment, subjectKind, subjectId);
    if (this.reviewsStored === reviewsBefore) this.current.set(key, { labels });
    return labels;
  }
}

const keyOf = (accountId: string, environment: string, kind: string, subjectId: string): string => JSON.stringify([accountId, environment, kind, subjectId]);
