/**
 * Where the search keys of decisions are kept (the port; `TypeOrmDecisionSearchKeys` implements
 * it, next to it as the velocity store's port is, since it is its only implementation).
 */
export interface DecisionSearchKeyRow {
  accountId: string;
  environment: string;
  /** `ip` or `card` (`BIN…last4`). */
  keyKind: string;
  keyValue: string;
  subjectKind: 'customer' | 'supplier';
  subjectId: string;
}

export interface DecisionSearchKeyStore {
  /** Adds the rows not stored yet (a row stored already is left as it is). */
  addAll(rows: readonly DecisionSearchKeyRow[]): Promise<void>;
  /** The subjects stored under (kind, value) for the tenant, at most `limit`. */
  subjects(tenant: { accountId: string; environment: string }, keyKind: string, keyValue: string, limit: number): Promise<Array<{ subjectKind: 'customer' | 'supplier'; subjectId: string }>>;
}

export const DECISION_SEARCH_KEY_STORE = Symbol('DecisionSearchKeyStore');
