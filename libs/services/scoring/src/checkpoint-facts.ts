import { Inject, Injectable } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import { type CurrentPaymentReview, type LabelCategory, type MessageEnvelope, type CurrentLabelMessage, RpcTopics, type RpcTopic, type RpcTopicMap } from '@ringfence/contracts';
import type { EntityDocument } from '@ringfence/entities';
import type { CheckpointIndicatorEvidence, KnownIndicatorQuery } from '@ringfence/lookup';
import { type RingfenceConfig, newEventId } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import type { CheckpointSubject, EntityReference } from './checkpoint-definition';

/**
 * What scoring decides with and does not own, asked of the services that do (docs/architecture.md,
 * "Each service owns its data"): stored entities of ingestion, current labels (and payments'
 * reviews) of labelling, known-fraud evidence of lookup. Each owner answers only once what was answered 2xx before the
 * checkpoint is in its state (ingestion by its consumer's offsets; labelling and lookup store
 * before they answer), so a checkpoint reads its writes without sharing a table. In the embedded
 * mode these are calls within the process.
 *
 * A fact that does not come is not guessed: the checkpoint fails and the gateway answers with the
 * degraded recommendation (ADR-0010), since a missing FRAUDSTER label must not read as none.
 */
@Injectable()
export class CheckpointFacts {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
  ) {}

  /** The subject and each referenced entity as stored (null: never stored), in one request. */
  async entities(
    message: MessageEnvelope<unknown>,
    subject: CheckpointSubject,
    references: readonly EntityReference[],
  ): Promise<{ subject: EntityDocument | null; references: (EntityDocument | null)[] }> {
    const refs = [subject, ...references].map(({ kind, id }) => ({ kind, entityId: id }));
    const { documents } = await this.ask(message, RpcTopics.readEntityDocuments, { refs });
    return { subject: documents[0] ?? null, references: documents.slice(1) };
  }

  /** A transaction as stored (null: never stored): what a dispute, which names only its transaction, is about. */
  async transaction(message: MessageEnvelope<unknown>, transactionId: string): Promise<EntityDocument | null> {
    const { documents } = await this.ask(message, RpcTopics.readEntityDocuments, { refs: [{ kind: 'transaction', entityId: transactionId }] });
    return documents[0] ?? null;
  }

  /** Entities as stored (null: never stored), in the order asked; at most `MAX_ENTITY_DOCUMENTS_PER_READ` a request. */
  async documents(message: MessageEnvelope<unknown>, references: readonly EntityReference[]): Promise<(EntityDocument | null)[]> {
    const { documents } = await this.ask(message, RpcTopics.readEntityDocuments, { refs: references.map(({ kind, id }) => ({ kind, entityId: id })) });
    return documents.map((document) => document ?? null);
  }

  /** The subject's current label per category. */
  async currentLabels(message: MessageEnvelope<unknown>, subject: CheckpointSubject): Promise<Partial<Record<LabelCategory, CurrentLabelMessage>>> {
    const { labels } = await this.ask(message, RpcTopics.readCurrentLabels, { subjectKind: subject.kind, subjectId: subject.id });
    return labels;
  }

  /** Each payment's current analyst's review (null: none), in the order asked; at most `MAX_PAYMENT_REVIEWS_PER_READ` a request. */
  async paymentReviews(message: MessageEnvelope<unknown>, transactionIds: readonly string[]): Promise<(CurrentPaymentReview | null)[]> {
    const { reviews } = await this.ask(message, RpcTopics.readPaymentReviewsOf, { transactionIds: [...transactionIds] });
    return reviews;
  }

  /** Evidence about the checkpoint's indicator values; none asked, none answered (no request). */
  async lookupEvidence(message: MessageEnvelope<unknown>, values: KnownIndicatorQuery, limitIndustry: boolean): Promise<CheckpointIndicatorEvidence[]> {
    const request = {
      emails: [...(values.emails ?? [])],
      phones: [...(values.phones ?? [])],
      ips: [...(values.ips ?? [])],
      instrumentIds: [...(values.instrumentIds ?? [])],
      limitIndustry,
    };
    if (request.emails.length + request.phones.length + request.ips.length + request.instrumentIds.length === 0) return [];
    const { evidence } = await this.ask(message, RpcTopics.checkpointEvidence, request);
    return evidence;
  }

  private ask<R extends RpcTopic>(message: MessageEnvelope<unknown>, topic: R, payload: RpcTopicMap[R]['request']): Promise<RpcTopicMap[R]['reply']> {
    return this.bus.request(topic, { ...message, eventId: newEventId(), payload }, { timeoutMs: this.config.rpcTimeoutMs });
  }
}
