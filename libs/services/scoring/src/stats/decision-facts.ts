import { Inject, Injectable } from '@nestjs/common';
import type { ReadDependency } from '@ringfence/bus';
import { DECISION_TOPICS } from '@ringfence/contracts';
import { DECISION_STATS_QUERIES, type DecisionFactRow, type DecisionStatsQueries } from '@ringfence/scoring-engine';

/** The consumer group that keeps the overview's facts of decisions. */
export const DECISION_FACTS_GROUP = 'scoring-decision-facts';

/** What an overview waits for: every decision published before it has its facts. */
export const DECISION_FACTS_DEPENDENCY: ReadDependency = { group: DECISION_FACTS_GROUP, topics: DECISION_TOPICS };

/**
 * The overview's facts of decisions (`decision_facts`), written behind like the decision records:
 * the consumer of the decision topics adds each decision's facts, `flush` (the bus's
 * beforeCommit) writes them in one statement, and an overview flushes first, so it counts every
 * decision its barrier waited for. A batch that failed goes back for the next flush.
 */
@Injectable()
export class DecisionFacts {
  private pending = new Map<string, DecisionFactRow>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(@Inject(DECISION_STATS_QUERIES) private readonly store: DecisionStatsQueries) {}

  add(fact: DecisionFactRow): void {
    this.pending.set(JSON.stringify([fact.accountId, fact.environment, fact.scoreId]), fact);
  }

  /** Flushes run one after another. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.writePending());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.store.addAll([...batch.values()]);
    } catch (error) {
      for (const [key, fact] of batch) if (!this.pending.has(key)) this.pending.set(key, fact);
      throw error;
    }
  }
}
