import { Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController } from '@ringfence/bus';
import { CurrentLabelsOfRequest, type CurrentLabelsOfReply, type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { LABEL_REPOSITORY, type LabelRepository } from '@ringfence/labels';
import { validatedRequestHandler } from '@ringfence/service-runtime';

/**
 * Answers `ringfence.rpc.labelling.current-labels-of.v1` (the labels of a network's customers,
 * ADR-0014): each customer's current review per category, from the repository's cache of
 * current labels. A review is stored before it is answered, so no barrier is needed.
 */
@MessageBusController()
export class CurrentLabelsOfHandler {
  private readonly validated = validatedRequestHandler(CurrentLabelsOfRequest, (valid) => this.currentLabelsOf(valid));

  constructor(@Inject(LABEL_REPOSITORY) private readonly labels: LabelRepository) {}

  @MessagePattern(RpcTopics.readCurrentLabelsOf, { group: 'labelling' })
  answer(@Payload() message: MessageEnvelope<unknown>): Promise<CurrentLabelsOfReply> {
    return this.validated(message);
  }

  async currentLabelsOf({ accountId, environment, payload }: MessageEnvelope<CurrentLabelsOfRequest>): Promise<CurrentLabelsOfReply> {
    const current = await Promise.all(payload.customerIds.map((customerId) => this.labels.currentLabels(accountId, environment, 'customer', customerId)));
    return { labels: current.map((labels) => Object.fromEntries(Object.entries(labels).flatMap(([category, label]) => (label === undefined ? [] : [[category, label.review]])))) };
  }
}
