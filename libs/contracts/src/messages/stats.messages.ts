import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsIntegerInRange } from '../http/shared/integer-range';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';

/** The time buckets of `GET /v2/stats/overview`, smallest first. */
export const STATS_BUCKETS = ['hour', 'day', 'week'] as const;
export type StatsBucket = (typeof STATS_BUCKETS)[number];

/** The most buckets one overview answers: its cost and size stay bounded whatever the window. */
export const MAX_STATS_BUCKETS = 400;

/**
 * The most fraud subjects (labelling) and disputed transactions (graph) one overview counts
 * decisions of: what a request to scoring carries. Past it the answer says `fraud.truncated`.
 */
export const MAX_FRAUD_FACTS = 5_000;

/** A subject as the fraud facts name it: `customer:<id>` or `supplier:<id>`. */
export const fraudSubjectKey = (kind: string, id: string): string => `${kind}:${id}`;

/** `ringfence.rpc.labelling.fraud-subjects.v1`: the tenant's subjects whose current label in any category is FRAUDSTER. */
export class FraudSubjectsRequest {
  @IsIntegerInRange(1, MAX_FRAUD_FACTS) limit!: number;
}

export interface FraudSubjectsReply {
  /** `customer:<id>` / `supplier:<id>` (fraudSubjectKey), at most `limit`. */
  subjects: string[];
  /** More subjects are labelled FRAUDSTER than were answered. */
  truncated: boolean;
}

/** `ringfence.rpc.graph.disputed-transactions.v1`: the tenant's PSP transactions with a dispute (a chargeback). */
export class DisputedTransactionsRequest {
  @IsIntegerInRange(1, MAX_FRAUD_FACTS) limit!: number;
}

export interface DisputedTransactionsReply {
  transactionIds: string[];
  truncated: boolean;
}

/**
 * `ringfence.rpc.scoring.decision-stats.v1`: the tenant's decisions aggregated over a window
 * (default: its data period, first to last decision), in time buckets (default: the smallest of
 * STATS_BUCKETS that keeps the window within MAX_STATS_BUCKETS), with the decisions on the
 * given fraud subjects and disputed transactions counted as caught or missed.
 */
export class DecisionStatsRequest {
  /** Payload time, epoch ms: `from <= eventTime < to`. */
  @IsOptional() @IsIntegerInRange(0, Number.MAX_SAFE_INTEGER) from?: number;
  @IsOptional() @IsIntegerInRange(1, Number.MAX_SAFE_INTEGER) to?: number;
  @IsOptional() @IsIn(STATS_BUCKETS, { message: `must be one of ${STATS_BUCKETS.join(', ')}` }) bucket?: StatsBucket;
  @IsArray() @ArrayMaxSize(MAX_FRAUD_FACTS) @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(MAX_IDENTIFIER_LENGTH + 9, { each: true })
  fraudSubjects!: string[];
  @IsArray() @ArrayMaxSize(MAX_FRAUD_FACTS) @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(MAX_IDENTIFIER_LENGTH, { each: true })
  fraudTransactions!: string[];
}

/** One time bucket: decisions by action and by deciding source. */
export interface DecisionStatsBucket {
  /** The bucket's start, epoch ms (UTC-aligned hours, days; weeks start on Monday 00:00 UTC). */
  at: number;
  total: number;
  ALLOW: number;
  REVIEW: number;
  PREVENT: number;
  /** Decisions per `source` (RULE, RINGFENCE, MANUAL_REVIEW, …); `NONE` for an answer without one. */
  bySource: Record<string, number>;
}

/** Count and summed amounts (minor units, per currency) of decisions on known fraud. */
export interface FraudOutcome {
  decisions: number;
  amounts: Record<string, number>;
}

export interface DecisionStatsReply {
  from: number;
  to: number;
  bucket: StatsBucket;
  decisions: DecisionStatsBucket[];
  total: number;
  /** REVIEW decisions / all decisions of the window; 0 when there are none. */
  reviewRate: number;
  fraud: {
    /** Decisions on known fraud answered PREVENT or REVIEW. */
    caught: FraudOutcome;
    /** Decisions on known fraud answered ALLOW. */
    missed: FraudOutcome;
  };
  /** Triggered rules, most hits first: `rate` = hits / decisions of the rule's checkpoint in the window. */
  rules: Array<{ ruleId: number; name: string; checkpoint: string; hits: number; rate: number }>;
  /** The model's score (0-100) of each decision that has one, in ten bins; the last holds 100. */
  scores: { bins: Array<{ from: number; to: number; count: number }> };
}
