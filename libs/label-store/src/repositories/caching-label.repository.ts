import type { Environment, LabelSubjectKind } from '@ringfence/contracts';
import type { CurrentLabels, LabelApplication, LabelHistoryEntry, LabelRepository, LabelSubject, SubjectLabels } from '@ringfence/labels';
import { AccountShareLru, firstOfJsonTuple } from '@ringfence/platform';
import { OvertakenReads } from '@ringfence/persistence';
import { StoredKeysFilter } from '@ringfence/persistence';

/** The table under the cache: the repository, and every subject's current labels for the start. */
export interface LabelTable extends LabelRepository {
  allCurrentLabels(): Promise<Array<{ subject: LabelSubject; labels: CurrentLabels }>>;
}

/**
 * Current labels in memory for the checkpoints, which read them every time. Sound only when
 * every label is written through this instance, which holds in the embedded mode (one process).
 *
 * Most subjects were never reviewed: a Bloom filter of the subjects that have a label is loaded
 * at start and grows with every review through this instance, so a checkpoint about anyone else
 * reads nothing (but for the filter's rare false positives, read once and then held). Its
 * 16 MiB are all it takes, however many subjects are labelled. The labels of reviewed subjects
 * are loaded at start too, and kept in an LRU of `maxSubjects`. A review stores its labels, then
 * reads them back into the LRU (the store decides what the review made of them) before it is
 * answered, so a checkpoint reads the table only about a subject the LRU let go of (more
 * reviewed subjects than it holds).
 */
export class CachingLabelRepository implements LabelRepository {
  private readonly current: AccountShareLru<string, { labels: CurrentLabels }>;
  /** A read of a subject that a review of it overtook is not kept: it may predate the review. */
  private readonly overtaken = new OvertakenReads();

  private constructor(
    private readonly table: LabelTable,
    /** A superset of the subjects with a current label (a cleared label leaves its subject here). */
    private readonly labelled: StoredKeysFilter,
    maxSubjects: number,
    maxSubjectsPerAccount: number,
  ) {
    this.current = new AccountShareLru({ max: maxSubjects, maxPerAccount: maxSubjectsPerAccount, accountOf: accountOfKey });
  }

  /**
   * `maxSubjectsPerAccount`: what one account may hold of the `maxSubjects` (ADR-0016);
   * past it the account's own least recently used go first, never another account's.
   */
  static async load(table: LabelTable, maxSubjects: number, maxSubjectsPerAccount = maxSubjects): Promise<CachingLabelRepository> {
    const cache = new CachingLabelRepository(table, new StoredKeysFilter(), maxSubjects, maxSubjectsPerAccount);
    for (const { subject, labels } of await table.allCurrentLabels()) {
      const key = keyOf(subject.accountId, subject.environment, subject.kind, subject.subjectId);
      cache.labelled.add(key);
      // Beyond the LRU's size the rest are read when asked about, as after an eviction.
      if (cache.current.size < maxSubjects) cache.current.set(key, { labels });
    }
    return cache;
  }

  async apply(subject: LabelSubject, application: LabelApplication): Promise<LabelHistoryEntry> {
    const key = keyOf(subject.accountId, subject.environment, subject.kind, subject.subjectId);
    // Marked before the write: a checkpoint racing the review then reads the table, never misses it.
    this.labelled.add(key);
    let entry: LabelHistoryEntry;
    this.overtaken.beginWrite([key]);
    try {
      entry = await this.table.apply(subject, application);
    } finally {
      // Dropped, not patched: the store decides what the review made of the labels.
      this.current.delete(key);
      this.overtaken.endWrite([key]);
    }
    // The review is stored whatever this read does: when it fails, a checkpoint reads the labels instead.
    await this.readAndKeep(key, subject.accountId, subject.environment, subject.kind, subject.subjectId).catch(() => undefined);
    return entry;
  }

  read(subject: LabelSubject): Promise<SubjectLabels> {
    return this.table.read(subject);
  }

  async currentLabels(accountId: string, environment: Environment, subjectKind: LabelSubjectKind, subjectId: string): Promise<CurrentLabels> {
    const key = keyOf(accountId, environment, subjectKind, subjectId);
    if (!this.labelled.mightContain(key)) return {};
    const cached = this.current.get(key);
    if (cached !== undefined) return cached.labels;
    return this.readAndKeep(key, accountId, environment, subjectKind, subjectId);
  }

  /** The subject's labels from the table, kept unless a review of the subject overtook the read (it may predate the review). */
  private async readAndKeep(key: string, accountId: string, environment: Environment, subjectKind: LabelSubjectKind, subjectId: string): Promise<CurrentLabels> {
    const read = this.overtaken.beginRead([key]);
    let labels: CurrentLabels;
    try {
      labels = await this.table.currentLabels(accountId, environment, subjectKind, subjectId);
    } finally {
      this.overtaken.endRead([key], read);
    }
    if (!read.overtaken.has(key)) this.current.set(key, { labels });
    return labels;
  }
}

const keyOf = (accountId: string, environment: string, kind: string, subjectId: string): string => JSON.stringify([accountId, environment, kind, subjectId]);
// The keys above start with the account: the cache's share is per account.
const accountOfKey = firstOfJsonTuple;
