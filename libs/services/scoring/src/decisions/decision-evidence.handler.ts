import { Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController } from '@ringfence/bus';
import {
  type EvidenceDecisionMessage,
  type MessageEnvelope,
  NetworkFactsRequest,
  type NetworkFactsReply,
  RpcTopics,
  SubjectDecisionsRequest,
  type SubjectDecisionsReply,
} from '@ringfence/contracts';
import type { StoredDecisionRecord } from '@ringfence/scoring-engine';
import { LATEST_DECISION_STORE, type LatestDecisionStore } from '@ringfence/scoring-store';
import { validatedRequestHandler } from '@ringfence/service-runtime';
import { DECISION_RECORDS_DEPENDENCY, DecisionRecords } from './decision-records';
import { DECISION_SEARCH_KEYS_DEPENDENCY, DecisionSearchKeys } from './decision-search-keys';

/** The answer's part of a recorded event that evidence shows. */
interface RecordedEvidence {
  recommendation?: { action?: unknown; score?: unknown };
  context?: { payload?: unknown };
  features?: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A decision record as evidence: its answer, its payload, the countries its features read. */
export function evidenceOf(record: StoredDecisionRecord): EvidenceDecisionMessage {
  const event = record.event as RecordedEvidence;
  const answer = event.recommendation ?? {};
  const { ipCountry, cardCountry } = event.features ?? {};
  return {
    scoreId: record.scoreId,
    checkpoint: record.checkpoint,
    timestamp: record.timestamp,
    action: typeof answer.action === 'string' ? answer.action : record.action,
    score: scoreOf(record.event),
    payload: isObject(event.context?.payload) ? event.context.payload : null,
    ...(typeof ipCountry === 'string' && ipCountry !== '' ? { ipCountry } : {}),
    ...(typeof cardCountry === 'string' && cardCountry !== '' ? { cardCountry } : {}),
  };
}

/** The score a decision answered; null for an answer without one. */
export function scoreOf(event: Record<string, unknown> | null): number | null {
  const score = (event as RecordedEvidence | null)?.recommendation?.score;
  return typeof score === 'number' ? score : null;
}

/**
 * Answers what a customer's evidence and network read of the decision records (ADR-0014), once
 * every decision published before the request is recorded (read your writes):
 * `…subject-decisions.v1`, a subject's newest decisions with their payloads; `…network-facts.v1`,
 * each customer's latest score (one statement) and each card instrument's BIN…last4 (another).
 */
@MessageBusController()
export class DecisionEvidenceHandler {
  private readonly validatedDecisions = validatedRequestHandler(SubjectDecisionsRequest, (valid) => this.subjectDecisions(valid));
  private readonly validatedFacts = validatedRequestHandler(NetworkFactsRequest, (valid) => this.networkFacts(valid));

  constructor(
    private readonly decisions: DecisionRecords,
    private readonly searchKeys: DecisionSearchKeys,
    @Inject(LATEST_DECISION_STORE) private readonly latest: LatestDecisionStore,
  ) {}

  @MessagePattern(RpcTopics.readSubjectDecisions, { group: 'scoring', consistentWith: [DECISION_RECORDS_DEPENDENCY] })
  answerSubjectDecisions(@Payload() message: MessageEnvelope<unknown>): Promise<SubjectDecisionsReply> {
    return this.validatedDecisions(message);
  }

  @MessagePattern(RpcTopics.readNetworkFacts, { group: 'scoring', consistentWith: [DECISION_RECORDS_DEPENDENCY, DECISION_SEARCH_KEYS_DEPENDENCY] })
  answerNetworkFacts(@Payload() message: MessageEnvelope<unknown>): Promise<NetworkFactsReply> {
    return this.validatedFacts(message);
  }

  async subjectDecisions({ accountId, environment, payload }: MessageEnvelope<SubjectDecisionsRequest>): Promise<SubjectDecisionsReply> {
    const records = await this.decisions.list({ accountId, environment }, { subjectKind: payload.subjectKind, subjectId: payload.subjectId }, null, payload.limit);
    return { decisions: records.map(evidenceOf) };
  }

  async networkFacts({ accountId, environment, payload }: MessageEnvelope<NetworkFactsRequest>): Promise<NetworkFactsReply> {
    const tenant = { accountId, environment };
    // The records the barrier waited for may still be pending: written first, as the list does.
    await this.decisions.flush();
    const [events, cards] = await Promise.all([this.latest.latestEvents(tenant, payload.customerIds), this.searchKeys.cardsOfInstruments(tenant, payload.instrumentIds)]);
    return { scores: events.map(scoreOf), cards };
  }
}
