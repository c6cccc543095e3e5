import { type Environment, fraudSubjectKey } from '@ringfence/contracts';
import type { FraudSubjectsQuery } from '@ringfence/labels';
import { queryRows } from '@ringfence/persistence';
import type { DataSource } from 'typeorm';

// The tenant's current labels (pk_labels leads with account and environment), one row per subject.
const FRAUD_SUBJECTS = `
  SELECT DISTINCT subject_kind, subject_id FROM labels
   WHERE account_id = $1 AND environment = $2 AND review = 'FRAUDSTER'
   ORDER BY subject_kind, subject_id
   LIMIT $3::integer`;

/** Subjects whose current label in some category is FRAUDSTER, read from `labels` (both modes). */
export class TypeOrmFraudSubjects implements FraudSubjectsQuery {
  constructor(private readonly dataSource: DataSource) {}

  async fraudSubjects(accountId: string, environment: Environment, limit: number): Promise<{ subjects: string[]; truncated: boolean }> {
    // One more than asked: a further row is what says the list was cut.
    const rows = await queryRows<{ subject_kind: string; subject_id: string }>(this.dataSource, FRAUD_SUBJECTS, [accountId, environment, limit + 1]);
    return { subjects: rows.slice(0, limit).map((row) => fraudSubjectKey(row.subject_kind, row.subject_id)), truncated: rows.length > limit };
  }
}
