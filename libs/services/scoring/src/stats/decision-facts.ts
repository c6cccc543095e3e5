import { Inject, Injectable } from '@nestjs/common';
import type { ReadDependency } from '@ringfence/bus';
import { DECISION_TOPICS } from '@ringfence/contracts';
import { PendingRows } from '@ringfence/platform';
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
  private readonly pending: PendingRows<DecisionFactRow>;

  constructor(@Inject(DECISION_STATS_QUERIES) store: DecisionStatsQueries) {
    this.pending = new PendingRows((fact) => JSON.stringify([fact.accountId, fact.environment, fact.scoreId]), (batch) => store.addAll(batch));
  }

  add(fact: DecisionFactRow): void {
    this.pending.add(fact);
  }

  /** Flushes run one after another. */
  flush(): Promise<void> {
    return this.pending.flush();
  }
}
