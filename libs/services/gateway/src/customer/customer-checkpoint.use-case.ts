import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { MessageBus } from '@ringfence/bus';
import {
  type CustomerRecommendationDto,
  type CustomerRecommendationResponseDto,
  type CustomerRequestDto,
  type CustomerUpdatedEvent,
  EventTopics,
  type MessageEnvelope,
  RpcTopics,
} from '@ringfence/contracts';
import { type RingfenceConfig, RateLimitedError, newEventId, normaliseTimestampToMillis, prefixedId } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { RateLimits } from '../rate-limit/rate-limits.service';

const optionalMillis = (value: number | undefined) => (value === undefined ? undefined : normaliseTimestampToMillis(value));

/** The payload as it travels on the bus: every time in epoch milliseconds. */
export function toCustomerUpdatedEvent(body: CustomerRequestDto): CustomerUpdatedEvent {
  const { customer } = body;
  return {
    ...body,
    timestamp: normaliseTimestampToMillis(body.timestamp),
    customer: {
      ...customer,
      registrationTime: optionalMillis(customer.registrationTime),
      emailVerifiedTime: optionalMillis(customer.emailVerifiedTime),
      telephoneVerifiedTime: optionalMillis(customer.telephoneVerifiedTime),
    },
  };
}

type EnvelopeWithoutId = Omit<MessageEnvelope<CustomerUpdatedEvent>, 'eventId'>;

/**
 * POST /v2/customer: the customer checkpoint. The payload is published for ingestion (durable
 * before we answer) and, at the same time, sent to scoring with the payload itself, so the
 * recommendation reflects this request's data without waiting for ingestion. Rate-limited
 * requests are still ingested (decisions §1).
 */
@Injectable()
export class CustomerCheckpointUseCase {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    private readonly limits: RateLimits,
  ) {}

  async execute(principal: Principal, body: CustomerRequestDto, traceId: string): Promise<CustomerRecommendationResponseDto> {
    const envelope: EnvelopeWithoutId = {
      accountId: principal.account.id,
      environment: principal.environment,
      subjectId: body.customer.customerId,
      acceptedAt: Date.now(),
      traceId,
      payload: toCustomerUpdatedEvent(body),
    };
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(principal);
    if (retryAfterSeconds !== null) {
      await this.ingest(envelope);
      throw new RateLimitedError(
        retryAfterSeconds,
        `the account is over its limit of ${this.config.accountRateLimitPerMinute} requests a minute; the data was accepted, no recommendation was made`,
      );
    }
    if (await this.limits.customerIsLimited(principal, body.customer.customerId)) {
      await this.ingest(envelope);
      return { status: 200, timestamp: Date.now(), data: await this.rateLimitedRecommendation(principal, envelope) };
    }
    const [, recommendation] = await Promise.all([
      this.ingest(envelope),
      this.bus.request(RpcTopics.customerCheckpoint, { ...envelope, eventId: newEventId() }, { timeoutMs: this.config.rpcTimeoutMs }),
    ]);
    return { status: 200, timestamp: Date.now(), data: recommendation };
  }

  private ingest(envelope: EnvelopeWithoutId): Promise<void> {
    return this.bus.publish(EventTopics.customerUpdated, { ...envelope, eventId: newEventId() });
  }

  /** The account's default action, recorded on the decision feed like every recommendation. */
  private async rateLimitedRecommendation(principal: Principal, envelope: EnvelopeWithoutId): Promise<CustomerRecommendationDto> {
    const recommendation: CustomerRecommendationDto = {
      action: principal.account.settings.defaultAction ?? 'ALLOW',
      score: 0,
      source: 'RATE_LIMIT',
      customerId: envelope.subjectId,
      scoreId: prefixedId('scr'),
      warnings: [],
    };
    await this.bus.publish(EventTopics.customerScored, {
      ...envelope,
      eventId: newEventId(),
      payload: { checkpoint: 'customer', timestamp: envelope.payload.timestamp, recommendation, features: {} },
    });
    return recommendation;
  }
}
