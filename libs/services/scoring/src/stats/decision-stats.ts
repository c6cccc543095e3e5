import { Inject, Injectable } from '@nestjs/common';
import { type DecisionStatsBucket, type DecisionStatsReply, type DecisionStatsRequest, type FraudOutcome, type MessageEnvelope, RULE_ACTIONS } from '@ringfence/contracts';
import { DECISION_STATS_QUERIES, type DecisionStatsQueries, type DecisionStatsWindow, type FraudCount, type RuleTenant } from '@ringfence/scoring-engine';
import { DecisionFacts } from './decision-facts';
import { BUCKET_GRID, type StatsWindow, bucketStarts, statsWindow } from './stats-window';

/** The most rules an overview lists (most hits first). */
export const MAX_OVERVIEW_RULES = 100;

/** What a decision without a deciding source is counted under. */
export const NO_SOURCE = 'NONE';

/**
 * `GET /v2/stats/overview`'s part of scoring, which owns the decisions: aggregates in SQL over
 * their facts in the window (default: the data period), bucket by bucket, shaped into the answer.
 * Pending facts are written first, so a decision answered before the request is counted.
 */
@Injectable()
export class DecisionStats {
  constructor(
    @Inject(DECISION_STATS_QUERIES) private readonly queries: DecisionStatsQueries,
    private readonly facts: DecisionFacts,
  ) {}

  async overview(message: MessageEnvelope<DecisionStatsRequest>): Promise<DecisionStatsReply> {
    const tenant: RuleTenant = { accountId: message.accountId, environment: message.environment };
    const { payload } = message;
    await this.facts.flush();
    const asksPeriod = payload.from === undefined || payload.to === undefined;
    const window = statsWindow(payload, asksPeriod ? await this.queries.period(tenant) : null, Date.now());
    const grid: DecisionStatsWindow = { from: window.from, to: window.to, bucketMs: BUCKET_GRID[window.bucket].sizeMs, offsetMs: BUCKET_GRID[window.bucket].offsetMs };
    const [buckets, checkpoints, fraud, ruleHits, scoreBins] = await Promise.all([
      this.queries.buckets(tenant, grid),
      this.queries.checkpoints(tenant, grid),
      this.queries.fraud(tenant, grid, { subjects: payload.fraudSubjects, transactions: payload.fraudTransactions }),
      this.queries.ruleHits(tenant, grid, MAX_OVERVIEW_RULES),
      this.queries.scoreBins(tenant, grid),
    ]);
    const decisions = timeline(window, buckets);
    const total = decisions.reduce((sum, bucket) => sum + bucket.total, 0);
    const reviews = decisions.reduce((sum, bucket) => sum + bucket.REVIEW, 0);
    const perCheckpoint = new Map(checkpoints.map((row) => [row.checkpoint, row.count]));
    return {
      from: window.from,
      to: window.to,
      bucket: window.bucket,
      decisions,
      total,
      reviewRate: total === 0 ? 0 : reviews / total,
      fraud: { caught: outcome(fraud, (action) => action === 'PREVENT' || action === 'REVIEW'), missed: outcome(fraud, (action) => action === 'ALLOW') },
      rules: ruleHits.map((rule) => ({ ...rule, rate: rule.hits / Math.max(1, perCheckpoint.get(rule.checkpoint) ?? 0) })),
      scores: { bins: Array.from({ length: 10 }, (_, bin) => ({ from: bin * 10, to: bin * 10 + 10, count: scoreBins.find((row) => row.bin === bin)?.count ?? 0 })) },
    };
  }
}

/** Every bucket of the window, oldest first, empty ones included. */
export function timeline(window: StatsWindow, counts: ReadonlyArray<{ at: number; action: string | null; source: string | null; count: number }>): DecisionStatsBucket[] {
  const buckets = new Map<number, DecisionStatsBucket>(bucketStarts(window).map((at) => [at, { at, total: 0, ALLOW: 0, REVIEW: 0, PREVENT: 0, bySource: {} }]));
  for (const row of counts) {
    const bucket = buckets.get(row.at);
    if (bucket === undefined) continue;
    bucket.total += row.count;
    if ((RULE_ACTIONS as readonly (string | null)[]).includes(row.action)) bucket[row.action as (typeof RULE_ACTIONS)[number]] += row.count;
    const source = row.source ?? NO_SOURCE;
    bucket.bySource[source] = (bucket.bySource[source] ?? 0) + row.count;
  }
  return [...buckets.values()];
}

function outcome(counts: readonly FraudCount[], counted: (action: string | null) => boolean): FraudOutcome {
  const result: FraudOutcome = { decisions: 0, amounts: {} };
  for (const row of counts.filter((count) => counted(count.action))) {
    result.decisions += row.decisions;
    if (row.currency !== null) result.amounts[row.currency] = (result.amounts[row.currency] ?? 0) + row.amount;
  }
  return result;
}
