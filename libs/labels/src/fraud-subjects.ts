import type { Environment } from '@ringfence/contracts';

/** A tenant's subjects known as fraud: a current label of FRAUDSTER in any category (the overview's "known fraud"). */
export interface FraudSubjectsQuery {
  /** `customer:<id>`/`supplier:<id>`, at most `limit`, in a stable order; `truncated` when more are labelled. */
  fraudSubjects(accountId: string, environment: Environment, limit: number): Promise<{ subjects: string[]; truncated: boolean }>;
}

/** Nest injection token of the `FraudSubjectsQuery`. */
export const FRAUD_SUBJECTS_QUERY = Symbol('FRAUD_SUBJECTS_QUERY');
