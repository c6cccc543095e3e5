import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import {
  CustomerCheckpointRequest,
  type CustomerRecommendationDto,
  EventTopics,
  type MessageEnvelope,
  RpcTopics,
} from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository, mergeDocument } from '@ringfence/entities';
import { newEventId, prefixedId } from '@ringfence/platform';
import { extractCustomerFeatures, scoreCustomer } from '@ringfence/scoring-engine';
import { MESSAGE_BUS, recommendationsGiven, validatedRequestHandler } from '@ringfence/service-runtime';

/**
 * Answers the customer checkpoint. The stored customer is merged in memory with the request's
 * payload (the same merge ingestion applies), so the answer reflects this request even when
 * ingestion has not stored it yet. Every recommendation is published as a decision event.
 */
@Injectable()
export class CustomerCheckpointHandler implements OnModuleInit {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(ENTITY_DOCUMENT_REPOSITORY) private readonly documents: EntityDocumentRepository,
  ) {}

  onModuleInit(): void {
    this.bus.handle(
      RpcTopics.customerCheckpoint,
      { group: 'scoring' },
      validatedRequestHandler(CustomerCheckpointRequest, (message) => this.score(message)),
    );
  }

  async score(message: MessageEnvelope<CustomerCheckpointRequest>): Promise<CustomerRecommendationDto> {
    const { accountId, environment, payload } = message;
    const { customerId, ...incoming } = payload.customer;
    const stored = await this.documents.find({ accountId, environment, kind: 'customer', entityId: customerId });
    const merged = mergeDocument(stored, incoming, payload.timestamp) ?? stored;
    const hasDevice = Boolean(payload.deviceId ?? payload.device?.deviceId ?? merged?.fields.lastDeviceId);
    const features = extractCustomerFeatures(merged?.fields ?? {}, hasDevice, payload.timestamp);
    const { score, action } = scoreCustomer(features);
    const recommendation: CustomerRecommendationDto = {
      action,
      score,
      source: 'RINGFENCE',
      customerId,
      scoreId: prefixedId('scr'),
      warnings: [],
    };
    await this.bus.publish(EventTopics.customerScored, {
      ...message,
      eventId: newEventId(),
      acceptedAt: Date.now(),
      payload: { checkpoint: 'customer', timestamp: payload.timestamp, recommendation, features: { ...features } },
    });
    recommendationsGiven.labels('customer', action, recommendation.source).inc();
    return recommendation;
  }
}
