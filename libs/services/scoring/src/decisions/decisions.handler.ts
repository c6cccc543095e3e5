import { Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController } from '@ringfence/bus';
import { type CheckpointScoredEvent, DECISION_TOPICS, type MessageEnvelope, ReadDecisionRequest, type ReadDecisionReply, ReadDecisionsRequest, type ReadDecisionsReply, RpcTopics } from '@ringfence/contracts';
import type { Logger } from '@ringfence/platform';
import { ROOT_LOGGER, validatedRequestHandler } from '@ringfence/service-runtime';
import { DecisionExplainer } from '../models/decision-explainer';
import { DecisionList } from './decision-list';
import { DECISION_RECORDS_DEPENDENCY, DECISION_RECORDS_GROUP, DecisionRecords } from './decision-records';

/**
 * Keeps every decision event with a scoreId (group `scoring-decisions`, written behind; see
 * DecisionRecords) and answers `GET /v2/decisions/:scoreId` and `GET /v2/decisions` (the list,
 * DecisionList), once the group has handled every decision published before the request (read
 * your writes: the gateway publishes a decision before it answers the checkpoint).
 */
@MessageBusController()
export class DecisionsHandler {
  constructor(
    private readonly decisions: DecisionRecords,
    private readonly explainer: DecisionExplainer,
    private readonly list: DecisionList,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(DECISION_TOPICS, { group: DECISION_RECORDS_GROUP, beforeCommit: DecisionRecords })
  async record(@Payload() message: MessageEnvelope<unknown>): Promise<void> {
    // Decision events are this service's own replies, published by the gateway as they came:
    // they are kept whole, so no validation that strips undeclared fields runs here, only the
    // check that the fields the records are keyed by are there.
    const { accountId, environment, payload } = message;
    if (!isScoredDecision(payload)) {
      this.logger.warn({ eventId: message.eventId, traceId: message.traceId }, 'skipped a decision event without scoreId, ruleCheckpoint or timestamp');
      return;
    }
    // When the service accepted the request it decided: what the review queue compares label times with.
    const decidedAt = Number.isSafeInteger(message.acceptedAt) ? message.acceptedAt : Date.now();
    this.decisions.add({ accountId, environment }, payload, decidedAt);
  }

  @MessagePattern(RpcTopics.readDecision, { group: 'scoring', consistentWith: [DECISION_RECORDS_DEPENDENCY] })
  readDecision(@Payload() message: MessageEnvelope<unknown>): Promise<ReadDecisionReply> {
    return validatedRequestHandler(ReadDecisionRequest, async ({ accountId, environment, payload }) => {
      const tenant = { accountId, environment };
      const record = await this.decisions.find(tenant, payload.scoreId);
      return { decision: record === null ? null : await this.explainer.complete(tenant, record.event) };
    })(message);
  }

  @MessagePattern(RpcTopics.readDecisions, { group: 'scoring', consistentWith: [DECISION_RECORDS_DEPENDENCY] })
  readDecisions(@Payload() message: MessageEnvelope<unknown>): Promise<ReadDecisionsReply> {
    return validatedRequestHandler(ReadDecisionsRequest, (valid) => this.list.read(valid))(message);
  }
}

/** Rate-limited and degraded answers carry no scoreId: they are not kept (nothing to read back or replay). */
function isScoredDecision(payload: unknown): payload is CheckpointScoredEvent & { scoreId: string; ruleCheckpoint: string } {
  const event = payload as Partial<CheckpointScoredEvent> | null;
  return typeof event?.scoreId === 'string' && typeof event.ruleCheckpoint === 'string' && typeof event.timestamp === 'number';
}
