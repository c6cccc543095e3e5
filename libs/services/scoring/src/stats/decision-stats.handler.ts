import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController } from '@ringfence/bus';
import { DECISION_TOPICS, DecisionStatsRequest, type DecisionStatsReply, type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { decisionFactOf } from '@ringfence/scoring-store';
import { validatedRequestHandler } from '@ringfence/service-runtime';
import { DECISION_FACTS_DEPENDENCY, DECISION_FACTS_GROUP, DecisionFacts } from './decision-facts';
import { DecisionStats } from './decision-stats';

/**
 * Keeps the overview's facts of every decision (group `scoring-decision-facts`, its own offsets,
 * written behind) and answers `ringfence.rpc.scoring.decision-stats.v1` (GET /v2/stats/overview)
 * once that group has handled every decision published before the request (read your writes).
 */
@MessageBusController()
export class DecisionStatsHandler {
  private readonly validated = validatedRequestHandler(DecisionStatsRequest, (valid) => this.stats.overview(valid));

  constructor(
    private readonly facts: DecisionFacts,
    private readonly stats: DecisionStats,
  ) {}

  @EventPattern(DECISION_TOPICS, { group: DECISION_FACTS_GROUP, beforeCommit: DecisionFacts })
  record(@Payload() message: MessageEnvelope<unknown>): void {
    // The decision events are this service's own replies, kept as they came (as the records are).
    const event = message.payload;
    if (typeof event !== 'object' || event === null || Array.isArray(event)) return;
    const fact = decisionFactOf({ accountId: message.accountId, environment: message.environment }, event as Record<string, unknown>);
    if (fact !== null) this.facts.add(fact);
  }

  @MessagePattern(RpcTopics.decisionStats, { group: 'scoring', consistentWith: [DECISION_FACTS_DEPENDENCY] })
  answer(@Payload() message: MessageEnvelope<unknown>): Promise<DecisionStatsReply> {
    return this.validated(message);
  }
}
