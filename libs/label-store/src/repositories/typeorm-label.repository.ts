import type { Environment, LabelCategory, LabelReview, LabelSubjectKind } from '@ringfence/contracts';
import {
  type CurrentLabel,
  type CurrentLabels,
  type LabelApplication,
  type LabelHistoryEntry,
  type LabelRepository,
  type LabelSubject,
  type Reviewer,
  type SubjectLabels,
  applyReview,
  currentLabelsOf,
} from '@ringfence/labels';
import type { DataSource, QueryRunner } from 'typeorm';
import { queryRows } from '@ringfence/persistence';
import { SerialPerKey } from '@ringfence/persistence';

interface LabelColumns {
  review: LabelReview;
  event_time: Date;
  reviewer_name: string | null;
  reviewer_email: string | null;
  comment: string | null;
}

interface CurrentLabelRow extends LabelColumns {
  category: LabelCategory;
}

interface HistoryRow extends CurrentLabelRow {
  previous_review: LabelReview | null;
}

/** First half of the advisory-lock key of a subject's labels (the migrations use another). */
const LABEL_LOCK_NAMESPACE = 0x52_46_4c_42; // "RFLB"

// Every statement names the tenant (account, environment) first.
const SUBJECT_MATCHES = 'account_id = $1 AND environment = $2 AND subject_kind = $3 AND subject_id = $4';
// A transaction-scoped lock on the subject: it also covers a category that has no row yet
// (where SELECT … FOR UPDATE would lock nothing), and it ends with the transaction.
const LOCK_SUBJECT = 'SELECT pg_advisory_xact_lock($1, hashtext($2))';
const SELECT_CURRENT = `SELECT category, review, event_time, reviewer_name, reviewer_email, comment FROM labels WHERE ${SUBJECT_MATCHES}`;
const SELECT_CATEGORY = `${SELECT_CURRENT} AND category = $5`;
// Every current label of every subject: what a sole writer keeps in memory.
const ALL_CURRENT = `
  SELECT account_id, environment, subject_kind, subject_id, category, review, event_time, reviewer_name, reviewer_email, comment
    FROM labels ORDER BY account_id, environment, subject_kind, subject_id`;
// A review's whole write as one statement, atomic by itself: the category's current row set
// ($6 true: upserted from $7–$11) or cleared ($6 false: deleted), and the history row ($12–$17).
const WRITE_REVIEW = `
  WITH kept AS (
    INSERT INTO labels (account_id, environment, subject_kind, subject_id, category, review, event_time, reviewer_name, reviewer_email, comment)
    SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $7::text, $8::timestamptz, $9::text, $10::text, $11::text
     WHERE $6::boolean
    ON CONFLICT (account_id, environment, subject_kind, subject_id, category) DO UPDATE
       SET review = EXCLUDED.review, event_time = EXCLUDED.event_time, reviewer_name = EXCLUDED.reviewer_name,
           reviewer_email = EXCLUDED.reviewer_email, comment = EXCLUDED.comment
  ), cleared AS (
    DELETE FROM labels WHERE ${SUBJECT_MATCHES} AND category = $5 AND NOT $6::boolean
  )
  INSERT INTO label_history
    (account_id, environment, subject_kind, subject_id, category, review, previous_review, event_time, reviewer_name, reviewer_email, comment)
  VALUES ($1, $2, $3, $4, $5, $12, $13, $14, $15, $16, $17)`;
const SELECT_HISTORY = `
  SELECT category, review, previous_review, event_time, reviewer_name, reviewer_email, comment
    FROM label_history WHERE ${SUBJECT_MATCHES} ORDER BY sequence`;

type SubjectKey = [accountId: string, environment: Environment, kind: LabelSubjectKind, subjectId: string];

/** Labels in `labels` (current) and `label_history` (audit log). */
export class TypeOrmLabelRepository implements LabelRepository {
  /** Every subject with a current label, of every account and data set, with those labels. */
  async allCurrentLabels(): Promise<Array<{ subject: LabelSubject; labels: CurrentLabels }>> {
    const rows = await queryRows<CurrentLabelRow & { account_id: string; environment: Environment; subject_kind: LabelSubjectKind; subject_id: string }>(
      this.dataSource,
      ALL_CURRENT,
      [],
    );
    const subjects: Array<{ subject: LabelSubject; labels: CurrentLabels }> = [];
    let previous: LabelSubject | undefined;
    for (const row of rows) {
      // Rows come grouped by subject: a new subject starts where any part of the key changes.
      const sameSubject =
        previous?.accountId === row.account_id && previous.environment === row.environment && previous.kind === row.subject_kind && previous.subjectId === row.subject_id;
      if (!sameSubject) {
        previous = { accountId: row.account_id, environment: row.environment, kind: row.subject_kind, subjectId: row.subject_id };
        subjects.push({ subject: previous, labels: {} });
      }
      subjects[subjects.length - 1].labels[row.category] = toCurrentLabel(row);
    }
    return subjects;
  }

  /** Set when this process is the labels' only writer: one subject's reviews in order. */
  private readonly soleWriter: SerialPerKey | undefined;

  constructor(
    private readonly dataSource: DataSource,
    options: { soleWriter?: boolean } = {},
  ) {
    this.soleWriter = options.soleWriter ? new SerialPerKey() : undefined;
  }

  /**
   * Several writers (the distributed mode): one transaction holding an advisory lock on the
   * subject, so two reviews of one category never decide from the same current row. A sole
   * writer (the embedded mode) orders one subject's reviews in memory instead, and runs the read
   * and the write without a transaction: on the embedded database a transaction holds the one
   * session for a round trip per statement, and every other statement waits behind it.
   */
  async apply(subject: LabelSubject, application: LabelApplication): Promise<LabelHistoryEntry> {
    const key = keyOf(subject);
    if (this.soleWriter !== undefined) return this.soleWriter.run(JSON.stringify(key), () => reviewSubject(this.dataSource, key, application));
    return this.dataSource.transaction(async (manager) => {
      const runner = manager.queryRunner as QueryRunner;
      await queryRows(runner, LOCK_SUBJECT, [LABEL_LOCK_NAMESPACE, JSON.stringify(key)]);
      return reviewSubject(runner, key, application);
    });
  }

  /**
   * One statement, so the answer is one consistent snapshot: the current labels are the
   * history replayed, which `apply` keeps equal to the `labels` rows.
   */
  async read(subject: LabelSubject): Promise<SubjectLabels> {
    const rows = await queryRows<HistoryRow>(this.dataSource, SELECT_HISTORY, keyOf(subject));
    const history = rows.map(toHistoryEntry);
    return { current: currentLabelsOf(history), history };
  }

  async currentLabels(accountId: string, environment: Environment, subjectKind: LabelSubjectKind, subjectId: string): Promise<CurrentLabels> {
    const rows = await queryRows<CurrentLabelRow>(this.dataSource, SELECT_CURRENT, [accountId, environment, subjectKind, subjectId]);
    return Object.fromEntries(rows.map((row) => [row.category, toCurrentLabel(row)]));
  }
}

/** The category's current row, the review decided from it, and its write: two statements. */
async function reviewSubject(source: DataSource | QueryRunner, key: SubjectKey, application: LabelApplication): Promise<LabelHistoryEntry> {
  const [row] = await queryRows<CurrentLabelRow>(source, SELECT_CATEGORY, [...key, application.category]);
  const { next, entry } = applyReview(row ? toCurrentLabel(row) : null, application);
  await queryRows(source, WRITE_REVIEW, [
    ...key,
    entry.category,
    next !== null,
    ...(next ? labelParameters(next) : [null, null, null, null, null]),
    entry.review,
    entry.previous,
    new Date(entry.eventTime),
    entry.reviewer?.name ?? null,
    entry.reviewer?.email ?? null,
    entry.comment,
  ]);
  return entry;
}

function keyOf({ accountId, environment, kind, subjectId }: LabelSubject): SubjectKey {
  return [accountId, environment, kind, subjectId];
}

/** review, event_time, reviewer_name, reviewer_email, comment, in the statements' order. */
function labelParameters(label: CurrentLabel): unknown[] {
  return [label.review, new Date(label.eventTime), label.reviewer?.name ?? null, label.reviewer?.email ?? null, label.comment];
}

function reviewerOf(row: LabelColumns): Reviewer | null {
  if (row.reviewer_name === null && row.reviewer_email === null) return null;
  return { ...(row.reviewer_name === null ? {} : { name: row.reviewer_name }), ...(row.reviewer_email === null ? {} : { email: row.reviewer_email }) };
}

function toCurrentLabel(row: LabelColumns): CurrentLabel {
  return { review: row.review, eventTime: row.event_time.getTime(), reviewer: reviewerOf(row), comment: row.comment };
}

function toHistoryEntry(row: HistoryRow): LabelHistoryEntry {
  return { category: row.category, previous: row.previous_review, ...toCurrentLabel(row) };
}
