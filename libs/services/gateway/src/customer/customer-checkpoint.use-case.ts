import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { MessageBus } from '@ringfence/bus';
import {
  type CustomerRecommendationResponseDto,
  type CustomerRequestDto,
  type CustomerUpdatedEvent,
  EventTopics,
  type MessageEnvelope,
  RpcTopics,
} from '@ringfence/contracts';
import { type RingfenceConfig, newEventId, normaliseTimestampToMillis } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG } from '@ringfence/service-runtime';

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

/**
 * POST /v2/customer: the customer checkpoint. The payload is published for ingestion (durable
 * before we answer) and, at the same time, sent to scoring with the payload itself, so the
 * recommendation reflects this request's data without waiting for ingestion.
 */
@Injectable()
export class CustomerCheckpointUseCase {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
  ) {}

  async execute(principal: Principal, body: CustomerRequestDto, traceId: string): Promise<CustomerRecommendationResponseDto> {
    const envelope: Omit<MessageEnvelope<CustomerUpdatedEvent>, 'eventId'> = {
      accountId: principal.account.id,
      environment: principal.environment,
      subjectId: body.customer.customerId,
      acceptedAt: Date.now(),
      traceId,
      payload: toCustomerUpdatedEvent(body),
    };
    const [, recommendation] = await Promise.all([
      this.bus.publish(EventTopics.customerUpdated, { ...envelope, eventId: newEventId() }),
      this.bus.request(RpcTopics.customerCheckpoint, { ...envelope, eventId: newEventId() }, { timeoutMs: this.config.rpcTimeoutMs }),
    ]);
    return { status: 200, timestamp: Date.now(), data: recommendation };
  }
}
