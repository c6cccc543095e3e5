import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController } from '@ringfence/bus';
import { type CheckpointScoredEvent, DECISION_TOPICS, DecisionSearchRequest, type MessageEnvelope, RpcTopics, type SubjectMatchMessage, type SubjectSearchReply } from '@ringfence/contracts';
import { validatedRequestHandler } from '@ringfence/service-runtime';
import { DECISION_SEARCH_KEYS_DEPENDENCY, DECISION_SEARCH_KEYS_GROUP, DecisionSearchKeys, decisionSearchKeys } from './decision-search-keys';

/**
 * Keeps the search keys of every decision (group `scoring-search-keys`, its own offsets, written
 * behind) and answers `ringfence.rpc.scoring.search-decisions.v1`: the subjects whose decisions
 * saw an IP address or a card (BIN…last4), once the group has handled every decision published
 * before the request (read your writes, ADR-0010).
 */
@MessageBusController()
export class DecisionSearchHandler {
  private readonly validatedSearch = validatedRequestHandler(DecisionSearchRequest, (valid) => this.search(valid));

  constructor(private readonly keys: DecisionSearchKeys) {}

  @EventPattern(DECISION_TOPICS, { group: DECISION_SEARCH_KEYS_GROUP, beforeCommit: DecisionSearchKeys })
  record(@Payload() message: MessageEnvelope<unknown>): void {
    // The decision events are this service's own replies, kept as they came (as the records are).
    const event = message.payload as CheckpointScoredEvent | null;
    if (typeof event !== 'object' || event === null) return;
    this.keys.add(decisionSearchKeys({ accountId: message.accountId, environment: message.environment }, event));
  }

  @MessagePattern(RpcTopics.searchDecisions, { group: 'scoring', consistentWith: [DECISION_SEARCH_KEYS_DEPENDENCY] })
  answerSearch(@Payload() message: MessageEnvelope<unknown>): Promise<SubjectSearchReply> {
    return this.validatedSearch(message);
  }

  async search({ accountId, environment, payload }: MessageEnvelope<DecisionSearchRequest>): Promise<SubjectSearchReply> {
    const tenant = { accountId, environment };
    const matches: SubjectMatchMessage[] = [];
    const seen = new Set<string>();
    for (const candidate of payload.candidates) {
      if (matches.length >= payload.limit) break;
      for (const subject of await this.keys.subjects(tenant, candidate.kind, candidate.value, payload.limit - matches.length)) {
        const key = `${subject.subjectKind}:${subject.subjectId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        matches.push({ subjectType: subject.subjectKind, subjectId: subject.subjectId, matched: { kind: candidate.kind, value: candidate.value } });
      }
    }
    return { matches };
  }
}
