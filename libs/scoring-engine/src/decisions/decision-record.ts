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

/** Where a page of a backtest resumes: after this (timestamp, scoreId). */
export interface DecisionCursor {
  timestamp: number;
  scoreId: string;
}

/** The decision records of every tenant; every read names the tenant. */
export interface DecisionRecordRepository {
  /** Stores records of any tenants; a scoreId already stored is kept as it is (redelivery). */
  addAll(records: ReadonlyArray<DecisionRecord & RuleTenant>): Promise<void>;
  find(tenant: RuleTenant, scoreId: string): Promise<DecisionRecord | null>;
  /** Records of a checkpoint with `from <= timestamp < to`, by (timestamp, scoreId), after `cursor`. */
  page(tenant: RuleTenant, checkpoint: string, from: number, to: number, cursor: DecisionCursor | null, limit: number): Promise<DecisionRecord[]>;
}

export const DECISION_RECORD_REPOSITORY = Symbol('DecisionRecordRepository');
