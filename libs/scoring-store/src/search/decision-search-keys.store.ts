/**
 * Where the search keys of decisions are kept (the port; `TypeOrmDecisionSearchKeys` implements
 * it, next to it as the velocity store's port is, since it is its only implementation).
 */
export interface DecisionSearchKeyRow {
  accountId: string;
  environment: string;
  /** `ip` or `card` (`BIN…last4`) for a subject; `instrument` for the card (`BIN…last4`) an instrument id is. */
  keyKind: string;
  keyValue: string;
  /** `customer` or `supplier`; `card` on an instrument's row. */
  subjectKind: 'customer' | 'supplier' | 'card';
  subjectId: string;
}

export interface DecisionSearchKeyStore {
  /** Adds the rows not stored yet (a row stored already is left as it is). */
  addAll(rows: readonly DecisionSearchKeyRow[]): Promise<void>;
  /** The subjects stored under (kind, value) for the tenant, at most `limit`. */
  subjects(tenant: { accountId: string; environment: string }, keyKind: string, keyValue: string, limit: number): Promise<Array<{ subjectKind: 'customer' | 'supplier'; subjectId: string }>>;
  /** Per instrument id asked, in order, the card (`BIN…last4`) a decision saw it as; null when none did. */
  cardsOfInstruments(tenant: { accountId: string; environment: string }, instrumentIds: readonly string[]): Promise<Array<string | null>>;
}

export const DECISION_SEARCH_KEY_STORE = Symbol('DecisionSearchKeyStore');
