import type { RuleTenant } from '../rules/rule';

/**
 * A decision event as scoring keeps it for `GET /v2/decisions/:scoreId` and backtests: the
 * event whole, with the columns those reads select and order by.
 */
export interface DecisionRecord {
  scoreId: string;
  /** The checkpoint as rules name it (customer … pspBeforeAuth, pspAfterAuth). */
  checkpoint: string;
  /** The payload's time, epoch milliseconds. */
  timestamp: number;
  /** The decision event's payload as published (recommendation, features, context, signals…). */
  event: Record<string, unknown>;
}

/**
 * What the decision list (`GET /v2/decisions`, ADR-0014) filters by besides the checkpoint
 * and the time, kept in columns of their own: the event is stored as text no statement looks into.
 */
export interface DecisionRecordListing {
  /** When the service accepted the request it decided (the service's clock), epoch milliseconds. */
  decidedAt: number;
  /** Whose checkpoint it was; null for a record without a subject. */
  subjectKind: 'customer' | 'supplier' | null;
  subjectId: string | null;
  /** The action answered (ALLOW, REVIEW, PREVENT); null for a record without one. */
  action: string | null;
}

/** A record as stored and read back. */
export type StoredDecisionRecord = DecisionRecord & DecisionRecordListing;

/** Where a page of a backtest resumes: after this (timestamp, scoreId). */
export interface DecisionCursor {
  timestamp: number;
  scoreId: string;
}

/** The list's filters; each one given narrows it (AND). Times are payload times: `from <= timestamp < to`. */
export interface DecisionListFilter {
  checkpoint?: string;
  action?: string;
  subjectKind?: 'customer' | 'supplier';
  subjectId?: string;
  from?: number;
  to?: number;
}

/** The payload times of a tenant's first and last decision of a checkpoint, epoch ms. */
export interface DecisionPeriod {
  first: number;
  last: number;
}

/** A rule's hits: the decisions that recorded it as true, by when the service decided them (its clock). */
export interface RuleHits {
  ruleId: number;
  last24h: number;
  last30d: number;
  total: number;
  /** Epoch ms: the service's time of the latest decision it triggered on. */
  lastHitAt: number;
}

/** The decision records of every tenant; every read names the tenant. */
export interface DecisionRecordRepository {
  /** Stores records of any tenants; a scoreId already stored is kept as it is (redelivery). */
  addAll(records: ReadonlyArray<StoredDecisionRecord & RuleTenant>): Promise<void>;
  find(tenant: RuleTenant, scoreId: string): Promise<StoredDecisionRecord | null>;
  /** Records of a checkpoint with `from <= timestamp < to`, by (timestamp, scoreId), after `cursor`. */
  page(tenant: RuleTenant, checkpoint: string, from: number, to: number, cursor: DecisionCursor | null, limit: number): Promise<StoredDecisionRecord[]>;
  /** The span of the tenant's records of a checkpoint; null when it has none. */
  period(tenant: RuleTenant, checkpoint: string): Promise<DecisionPeriod | null>;
  /** Every rule's hits (rules without any left out), in one read; `now` places the 24 h and 30 d windows. */
  ruleHits(tenant: RuleTenant, now: number): Promise<RuleHits[]>;
  /** Records matching `filter`, newest first: by (timestamp, scoreId) descending, strictly before `before`. */
  list(tenant: RuleTenant, filter: DecisionListFilter, before: DecisionCursor | null, limit: number): Promise<StoredDecisionRecord[]>;
}

export const DECISION_RECORD_REPOSITORY = Symbol('DecisionRecordRepository');
