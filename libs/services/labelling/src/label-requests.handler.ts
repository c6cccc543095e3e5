import { Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type MessageBus, MessageBusController, type MessagePatternExtras } from '@ringfence/bus';
import {
  type ApplyLabelReply,
  ApplyLabelRequest,
  EventTopics,
  type LabelSubjectKind,
  type MessageEnvelope,
  ReadCurrentLabelsRequest,
  type ReadCurrentLabelsReply,
  type ReadLabelsReply,
  ReadLabelsRequest,
  RpcTopics,
} from '@ringfence/contracts';
import { LABEL_REPOSITORY, type LabelRepository, type LabelSubject, Labelling } from '@ringfence/labels';
import { newEventId } from '@ringfence/platform';
import { MESSAGE_BUS, requestAccount, validatedRequestHandler } from '@ringfence/service-runtime';

const LABEL_UPDATED_TOPIC = {
  customer: EventTopics.customerLabelUpdated,
  supplier: EventTopics.supplierLabelUpdated,
} as const satisfies Record<LabelSubjectKind, string>;

const LABELLING: MessagePatternExtras = { group: 'labelling' };

function subjectOf({ accountId, environment, payload }: MessageEnvelope<ReadLabelsRequest>): LabelSubject {
  return { accountId, environment, kind: payload.subjectKind, subjectId: payload.subjectId };
}

/**
 * Answers the labelling requests (group `labelling`): applies a review, then publishes the
 * label event the graph consumes; reads a subject's labels and audit log, or (for scoring, at
 * every checkpoint) only its current labels. A review is stored before it is answered, so a
 * read needs no barrier to see every review answered before it. The account's settings come
 * with each request from the gateway (`AccountFacts`), so an operator's change applies at once.
 */
@MessageBusController()
export class LabelRequestsHandler {
  // Each request's validated handler, made once rather than as closures per message.
  private readonly validatedApply = validatedRequestHandler(ApplyLabelRequest, (valid) => this.apply(valid));
  private readonly validatedRead = validatedRequestHandler(ReadLabelsRequest, (valid) => this.read(valid));
  private readonly validatedReadCurrent = validatedRequestHandler(ReadCurrentLabelsRequest, (valid) => this.readCurrent(valid));

  private readonly labelling: Labelling;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(LABEL_REPOSITORY) private readonly labels: LabelRepository,
  ) {
    this.labelling = new Labelling(labels);
  }

  @MessagePattern(RpcTopics.applyLabel, LABELLING)
  applyLabel(@Payload() message: MessageEnvelope<unknown>): Promise<ApplyLabelReply> {
    return this.validatedApply(message);
  }

  @MessagePattern(RpcTopics.readLabels, LABELLING)
  readLabels(@Payload() message: MessageEnvelope<unknown>): Promise<ReadLabelsReply> {
    return this.validatedRead(message);
  }

  @MessagePattern(RpcTopics.readCurrentLabels, LABELLING)
  readCurrentLabels(@Payload() message: MessageEnvelope<unknown>): Promise<ReadCurrentLabelsReply> {
    return this.validatedReadCurrent(message);
  }

  /**
   * Stored first, published second: a consumer never sees a label that is not stored. If the
   * publish fails the request fails (503), and the client's retry records the review again and
   * publishes it.
   */
  async apply(message: MessageEnvelope<ApplyLabelRequest>): Promise<ApplyLabelReply> {
    const subject = subjectOf(message);
    const entry = await this.labelling.apply(subject, message.payload, requestAccount(message).settings);
    await this.bus.publish(LABEL_UPDATED_TOPIC[subject.kind], {
      ...message,
      eventId: newEventId(),
      acceptedAt: Date.now(),
      payload: { accountId: subject.accountId, environment: subject.environment, subjectKind: subject.kind, subjectId: subject.subjectId, ...entry },
    });
    return { eventTime: entry.eventTime };
  }

  async read(message: MessageEnvelope<ReadLabelsRequest>): Promise<ReadLabelsReply> {
    const { current, history } = await this.labelling.read(subjectOf(message));
    return { labels: current, history };
  }

  async readCurrent({ accountId, environment, payload }: MessageEnvelope<ReadCurrentLabelsRequest>): Promise<ReadCurrentLabelsReply> {
    return { labels: await this.labels.currentLabels(accountId, environment, payload.subjectKind, payload.subjectId) };
  }
}
