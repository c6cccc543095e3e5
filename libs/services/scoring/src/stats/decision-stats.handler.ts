import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController } from '@ringfence/bus';
import { DecisionStatsRequest, type DecisionStatsReply, type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { validatedRequestHandler } from '@ringfence/service-runtime';
import { DECISION_RECORDS_DEPENDENCY } from '../decisions/decision-records';
import { DecisionStats } from './decision-stats';

/**
 * Answers `ringfence.rpc.scoring.decision-stats.v1` (GET /v2/stats/overview) once the records'
 * group has handled every decision published before the request (read your writes).
 */
@MessageBusController()
export class DecisionStatsHandler {
  private readonly validated = validatedRequestHandler(DecisionStatsRequest, (valid) => this.stats.overview(valid));

  constructor(private readonly stats: DecisionStats) {}

  @MessagePattern(RpcTopics.decisionStats, { group: 'scoring', consistentWith: [DECISION_RECORDS_DEPENDENCY] })
  answer(@Payload() message: MessageEnvelope<unknown>): Promise<DecisionStatsReply> {
    return this.validated(message);
  }
}
