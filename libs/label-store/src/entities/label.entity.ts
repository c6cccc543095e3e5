import type { Environment, LabelCategory, LabelReview, LabelSubjectKind } from '@ringfence/contracts';
import { EntitySchema } from 'typeorm';

export interface LabelRow {
  accountId: string;
  environment: Environment;
  subjectKind: LabelSubjectKind;
  subjectId: string;
  category: LabelCategory;
  review: LabelReview;
  eventTime: Date;
  reviewerName: string | null;
  reviewerEmail: string | null;
  comment: string | null;
}

const SUBJECT_CHECKS = (table: string) => [
  { name: `chk_${table}_environment`, expression: `environment IN ('test', 'live')` },
  { name: `chk_${table}_subject_kind`, expression: `subject_kind IN ('customer', 'supplier')` },
];

/**
 * `labels`: the current label of each category of a customer or supplier, keyed tenant first so
 * a subject's labels are one primary-key range read. A cleared category has no row.
 */
export const LabelEntity = new EntitySchema<LabelRow>({
  name: 'label',
  tableName: 'labels',
  columns: {
    accountId: { name: 'account_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_labels' },
    environment: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_labels' },
    subjectKind: { name: 'subject_kind', type: 'text', primary: true, primaryKeyConstraintName: 'pk_labels' },
    subjectId: { name: 'subject_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_labels' },
    category: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_labels' },
    review: { type: 'text' },
    eventTime: { name: 'event_time', type: 'timestamptz' },
    reviewerName: { name: 'reviewer_name', type: 'text', nullable: true },
    reviewerEmail: { name: 'reviewer_email', type: 'text', nullable: true },
    comment: { type: 'text', nullable: true },
  },
  checks: SUBJECT_CHECKS('labels'),
});

export interface LabelHistoryRow extends LabelRow {
  /** bigint: the driver returns it as a decimal string. */
  sequence: string;
  previousReview: LabelReview | null;
}

/** `label_history`: the append-only audit log of every review applied. */
export const LabelHistoryEntity = new EntitySchema<LabelHistoryRow>({
  name: 'label_history_entry',
  tableName: 'label_history',
  columns: {
    sequence: { type: 'bigint', primary: true, generated: 'increment', primaryKeyConstraintName: 'pk_label_history' },
    accountId: { name: 'account_id', type: 'text' },
    environment: { type: 'text' },
    subjectKind: { name: 'subject_kind', type: 'text' },
    subjectId: { name: 'subject_id', type: 'text' },
    category: { type: 'text' },
    review: { type: 'text' },
    previousReview: { name: 'previous_review', type: 'text', nullable: true },
    eventTime: { name: 'event_time', type: 'timestamptz' },
    reviewerName: { name: 'reviewer_name', type: 'text', nullable: true },
    reviewerEmail: { name: 'reviewer_email', type: 'text', nullable: true },
    comment: { type: 'text', nullable: true },
  },
  indices: [{ name: 'idx_label_history_subject', columns: ['accountId', 'environment', 'subjectKind', 'subjectId', 'sequence'] }],
  checks: SUBJECT_CHECKS('label_history'),
});
