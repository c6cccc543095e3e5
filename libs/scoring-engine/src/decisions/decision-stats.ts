import type { RuleTenant } from '../rules';

/** A window of payload time (`from <= eventTime < to`) and its bucket grid (size and offset, ms). */
export interface DecisionStatsWindow {
  from: number;
  to: number;
  bucketMs: number;
  offsetMs: number;
}

/** Decisions of one bucket, action and deciding source (`source` null: the answer had none). */
export interface BucketCount {
  at: number;
  action: string | null;
  source: string | null;
  count: number;
}

/** Decisions on known fraud of one action and currency (`currency` null: no amount on the payload). */
export interface FraudCount {
  action: string | null;
  currency: string | null;
  decisions: number;
  amount: number;
}

export interface RuleHitCount {
  ruleId: number;
  /** The rule's current name (its latest version's). */
  name: string;
  checkpoint: string;
  hits: number;
}

/** Known fraud: `customer:<id>`/`supplier:<id>` subjects, and PSP transaction ids. */
export interface KnownFraud {
  subjects: readonly string[];
  transactions: readonly string[];
}

/**
 * What the overview counts of one decision (a row of `decision_facts`): a few columns taken from
 * the decision event when it is recorded, so that aggregates never read the event's JSON.
 */
export interface DecisionFactRow extends RuleTenant {
  scoreId: string;
  /** The payload's time, epoch ms. */
  eventTime: number;
  checkpoint: string;
  action: string | null;
  source: string | null;
  /** The model's score (0-100), when the decision has one. */
  modelScore: number | null;
  subjectKind: string | null;
  subjectId: string | null;
  /** A PSP transaction's id, when the payload is one. */
  transactionId: string | null;
  /** The payment's amount in minor units and its currency, when the payload has one. */
  amount: number | null;
  currency: string | null;
  /** The rules the decision recorded as true. */
  ruleIds: number[];
}

/**
 * Aggregates over a tenant's decision facts, each one SQL statement grouped in the store: the
 * cost is the window's rows read once (narrow rows, no JSON), and the memory the groups answered.
 */
export interface DecisionStatsQueries {
  /** Keeps the facts of decisions (a decision already kept is left as it is). */
  addAll(rows: readonly DecisionFactRow[]): Promise<void>;
  /** First and last payload time of the tenant's decisions; null when it has none. */
  period(tenant: RuleTenant): Promise<{ first: number; last: number } | null>;
  buckets(tenant: RuleTenant, window: DecisionStatsWindow): Promise<BucketCount[]>;
  /** Decisions per checkpoint in the window (what rule hit rates divide by). */
  checkpoints(tenant: RuleTenant, window: DecisionStatsWindow): Promise<Array<{ checkpoint: string; count: number }>>;
  fraud(tenant: RuleTenant, window: DecisionStatsWindow, known: KnownFraud): Promise<FraudCount[]>;
  ruleHits(tenant: RuleTenant, window: DecisionStatsWindow, limit: number): Promise<RuleHitCount[]>;
  /** Decisions per model-score bin of 10 (0..9; 100 is in 9). */
  scoreBins(tenant: RuleTenant, window: DecisionStatsWindow): Promise<Array<{ bin: number; count: number }>>;
}

/** Nest injection token of the `DecisionStatsQueries`. */
export const DECISION_STATS_QUERIES = Symbol('DECISION_STATS_QUERIES');
