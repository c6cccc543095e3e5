import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { MessageBus } from '@ringfence/bus';
import {
  type CallbackDeliveriesQueryDto,
  type CallbackDeliveriesResponseDto,
  type CallbackDeliveryDto,
  type CallbackDeliveryMessage,
  DEFAULT_CALLBACK_DELIVERIES_PAGE,
  type LabelChangedCallbackDto,
  RpcTopics,
} from '@ringfence/contracts';
import type { RingfenceConfig } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { principalRequest } from '../principal-request';
import { RateLimits } from '../rate-limit/rate-limits.service';

/** The envelope's subject: the read is about the account's data set, not one customer. */
const DELIVERIES_SUBJECT_ID = 'callback-deliveries';

/** ADR-0008: ISO 8601 UTC with milliseconds and `Z`. */
const isoTime = (epochMillis: number) => new Date(epochMillis).toISOString();

function toDto(delivery: CallbackDeliveryMessage): CallbackDeliveryDto {
  return {
    deliveryId: delivery.deliveryId,
    event: delivery.event as unknown as LabelChangedCallbackDto,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts.map((attempt) => ({ at: isoTime(attempt.at), httpStatus: attempt.httpStatus, error: attempt.error, durationMs: attempt.durationMs })),
    nextAttemptAt: delivery.nextAttemptAt === null ? null : isoTime(delivery.nextAttemptAt),
    createdAt: isoTime(delivery.createdAt),
  };
}

/**
 * `GET /v2/callbacks/deliveries`: one request to the labelling service, which owns the
 * deliveries; its epoch-millisecond times answered as ISO 8601. Counted against the account's
 * rate limit like every read (429 without asking).
 */
@Injectable()
export class CallbacksUseCase {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    private readonly limits: RateLimits,
  ) {}

  async deliveries(principal: Principal, query: CallbackDeliveriesQueryDto, traceId: string): Promise<CallbackDeliveriesResponseDto> {
    await this.limits.refuseWhenAccountLimited(principal);
    const reply = await this.bus.request(
      RpcTopics.readCallbackDeliveries,
      principalRequest(principal, traceId, DELIVERIES_SUBJECT_ID, {
        limit: query.limit ?? DEFAULT_CALLBACK_DELIVERIES_PAGE,
        ...(query.before !== undefined ? { before: query.before } : {}),
      }),
      { timeoutMs: this.config.requestTimeoutMs },
    );
    return { status: 200, timestamp: Date.now(), data: { deliveries: reply.deliveries.map(toDto) } };
  }
}
