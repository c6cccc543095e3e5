/**
 * Each customer's latest decision event, for the scores a network shows (the port;
 * `TypeOrmLatestDecisions` implements it over `decision_records`).
 */
export interface LatestDecisionStore {
  /** Per customer asked, in order, its latest decision's event (by payload time, then scoreId), null when it has none. */
  latestEvents(tenant: { accountId: string; environment: string }, customerIds: readonly string[]): Promise<Array<Record<string, unknown> | null>>;
}

export const LATEST_DECISION_STORE = Symbol('LatestDecisionStore');
