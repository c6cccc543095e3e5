import { Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type MessageBus, MessageBusController, type MessagePatternExtras } from '@ringfence/bus';
import {
  AddLookupIndicatorsRequest,
  type AddLookupIndicatorsReply,
  CheckpointEvidenceRequest,
  type CheckpointEvidenceReply,
  DeleteLookupIndicatorsRequest,
  type DeleteLookupIndicatorsReply,
  EventTopics,
  LOOKUP_SUBJECT_ID,
  type MessageEnvelope,
  ReadLookupIndicatorsRequest,
  type ReadLookupIndicatorsReply,
  RpcTopics,
} from '@ringfence/contracts';
import { LOOKUP_INDICATOR_REPOSITORY, type LookupIndicatorRepository, LookupIndicators, type LookupTenant } from '@ringfence/lookup';
import { newEventId } from '@ringfence/platform';
import { MESSAGE_BUS, requestAccount, validatedRequestHandler } from '@ringfence/service-runtime';

const LOOKUP: MessagePatternExtras = { group: 'lookup' };

/** The asking account's data set, with its industry as the gateway says (`AccountFacts`). */
const tenantOf = (message: MessageEnvelope<unknown>): LookupTenant => ({
  accountId: message.accountId,
  environment: message.environment,
  industry: requestAccount(message).industry,
});

/**
 * Answers the lookup requests (group `lookup`): add, read and delete known-fraud indicators,
 * and scoring's question at every checkpoint (which of its values carry evidence). Additions
 * and deletions are stored before they are answered, so a read needs no barrier.
 * Additions and deletions are stored first and then published on the warehouse feed, so the
 * feed never carries what is not stored; if the publish fails the request fails (503) and the
 * client's retry stores nothing twice (evidence is identified) and publishes again.
 */
@MessageBusController()
export class LookupIndicatorsHandler {
  // Each request's validated handler, made once rather than as closures per message.
  private readonly validatedAdd = validatedRequestHandler(AddLookupIndicatorsRequest, (valid) => this.add(valid));
  private readonly validatedRead = validatedRequestHandler(ReadLookupIndicatorsRequest, (valid) => this.read(valid));
  private readonly validatedDelete = validatedRequestHandler(DeleteLookupIndicatorsRequest, (valid) => this.delete(valid));
  private readonly validatedCheckpointEvidence = validatedRequestHandler(CheckpointEvidenceRequest, (valid) => this.checkpointEvidence(valid));

  private readonly lookup: LookupIndicators;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(LOOKUP_INDICATOR_REPOSITORY) private readonly repository: LookupIndicatorRepository,
  ) {
    this.lookup = new LookupIndicators(repository);
  }

  @MessagePattern(RpcTopics.addLookupIndicators, LOOKUP)
  addIndicators(@Payload() message: MessageEnvelope<unknown>): Promise<AddLookupIndicatorsReply> {
    return this.validatedAdd(message);
  }

  @MessagePattern(RpcTopics.readLookupIndicators, LOOKUP)
  readIndicators(@Payload() message: MessageEnvelope<unknown>): Promise<ReadLookupIndicatorsReply> {
    return this.validatedRead(message);
  }

  @MessagePattern(RpcTopics.deleteLookupIndicators, LOOKUP)
  deleteIndicators(@Payload() message: MessageEnvelope<unknown>): Promise<DeleteLookupIndicatorsReply> {
    return this.validatedDelete(message);
  }

  @MessagePattern(RpcTopics.checkpointEvidence, LOOKUP)
  answerCheckpointEvidence(@Payload() message: MessageEnvelope<unknown>): Promise<CheckpointEvidenceReply> {
    return this.validatedCheckpointEvidence(message);
  }

  async checkpointEvidence(message: MessageEnvelope<CheckpointEvidenceRequest>): Promise<CheckpointEvidenceReply> {
    const { limitIndustry, ...values } = message.payload;
    return { evidence: await this.repository.checkpointEvidence(tenantOf(message), values, { limitIndustry }) };
  }

  async add(message: MessageEnvelope<AddLookupIndicatorsRequest>): Promise<AddLookupIndicatorsReply> {
    const { answer, submission } = await this.lookup.add(tenantOf(message), message.payload);
    await this.bus.publish(EventTopics.lookupIndicatorsAdded, {
      ...message,
      eventId: newEventId(),
      subjectId: LOOKUP_SUBJECT_ID,
      acceptedAt: Date.now(),
      payload: {
        timestamp: message.payload.timestamp,
        indicators: submission.indicators.map(({ kind, value, seenAt }) => ({ kind, value, seenAt })),
        chargebacks: message.payload.chargebacks ?? [],
        manualReviews: message.payload.manualReviews ?? [],
      },
    });
    return answer;
  }

  read(message: MessageEnvelope<ReadLookupIndicatorsRequest>): Promise<ReadLookupIndicatorsReply> {
    return this.lookup.read(tenantOf(message), message.payload);
  }

  async delete(message: MessageEnvelope<DeleteLookupIndicatorsRequest>): Promise<DeleteLookupIndicatorsReply> {
    const { answer, indicators } = await this.lookup.delete(tenantOf(message), message.payload);
    // A deletion that matched nothing changed nothing the warehouse holds.
    if (Object.values(answer.deleted).every((count) => count === 0)) return answer;
    await this.bus.publish(EventTopics.lookupIndicatorsDeleted, {
      ...message,
      eventId: newEventId(),
      subjectId: LOOKUP_SUBJECT_ID,
      acceptedAt: Date.now(),
      payload: { indicators: indicators.map(({ kind, value }) => ({ kind, value })), deleted: { ...answer.deleted } },
    });
    return answer;
  }
}
