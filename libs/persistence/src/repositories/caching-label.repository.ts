import type { Environment, LabelSubjectKind } from '@ringfence/contracts';
import type { CurrentLabels, LabelApplication, LabelHistoryEntry, LabelRepository, LabelSubject, SubjectLabels } from '@ringfence/labels';
import { LRUCache } from 'lru-cache';

/** The table under the cache: the repository, and every labelled subject for the start. */
export interface LabelTable extends LabelRepository {
  labelledSubjects(): Promise<LabelSubject[]>;
}

/**
 * Current labels in memory for the checkpoints, which read them every time. Sound only when
 * every label is written through this instance, which holds in the embedded mode (one process).
 *
 * Most subjects were never reviewed: the set of subjects that have a label is loaded at start
 * and grows with every review through this instance, so a checkpoint about anyone else reads
 * nothing. The labels of reviewed subjects are kept in an LRU; `apply` drops the subject's
 * entry once the review is stored, so the next checkpoint reads what the review made.
 */
export class CachingLabelRepository implements LabelRepository {
  private readonly current: LRUCache<string, { labels: CurrentLabels }>;
  /** Reviews stored so far: a read that a review overtook is not cached (it may predate the review). */
  private reviewsStored = 0;

  private constructor(
    private readonly table: LabelTable,
    /** A superset of the subjects with a current label (a cleared label leaves its subject here). */
    private readonly labelled: Set<string>,
    maxSubjects: number,
  ) {
    this.current = new LRUCache({ max: maxSubjects });
  }

  static async load(table: LabelTable, maxSubjects: number): Promise<CachingLabelRepository> {
    const labelled = new Set((await table.labelledSubjects()).map((subject) => keyOf(subject.accountId, subject.environment, subject.kind, subject.subjectId)));
    return new CachingLabelRepository(table, labelled, maxSubjects);
  }

  async apply(subject: LabelSubject, application: LabelApplication): Promise<LabelHistoryEntry> {
    const key = keyOf(subject.accountId, subject.environment, subject.kind, subject.subjectId);
    // Marked before the write: a checkpoint racing the review then reads the table, never misses it.
    this.labelled.add(key);
    try {
      return await this.table.apply(subject, application);
    } finally {
      // Dropped, not patched: the store decides what the review made of the labels.
      this.current.delete(key);
      this.reviewsStored += 1;
    }
  }

  read(subject: LabelSubject): Promise<SubjectLabels> {
    return this.table.read(subject);
  }

  async currentLabels(accountId: string, environment: Environment, subjectKind: LabelSubjectKind, subjectId: string): Promise<CurrentLabels> {
    const key = keyOf(accountId, environment, subjectKind, subjectId);
    if (!this.labelled.has(key)) return {};
    const cached = this.current.get(key);
    if (cached !== undefined) return cached.labels;
    const reviewsBefore = this.reviewsStored;
    const labels = await this.table.currentLabels(accountId, environment, subjectKind, subjectId);
    if (this.reviewsStored === reviewsBefore) this.current.set(key, { labels });
    return labels;
  }
}

const keyOf = (accountId: string, environment: string, kind: string, subjectId: string): string => JSON.stringify([accountId, environment, kind, subjectId]);
