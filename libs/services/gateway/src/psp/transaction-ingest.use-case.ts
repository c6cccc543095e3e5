import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { MessageBus } from '@ringfence/bus';
import { type AcknowledgementResponseDto, EventTopics, type PspCheckpoint, type PspTransactionRequestDto } from '@ringfence/contracts';
import { type RingfenceConfig, RateLimitedError, newEventId, normaliseTimestampToMillis } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { RateLimits } from '../rate-limit/rate-limits.service';

/**
 * POST /psp/transaction/async: the update is published and the answer given once the bus holds
 * it durably; ingestion (and, with a checkpoint, scoring for the warehouse) follows. An account
 * over its rate limit gets 429, and the update is still accepted (decisions §1).
 */
@Injectable()
export class TransactionIngestUseCase {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
    private readonly limits: RateLimits,
  ) {}

  async execute(
    principal: Principal,
    body: PspTransactionRequestDto,
    checkpoint: PspCheckpoint | undefined,
    traceId: string,
  ): Promise<AcknowledgementResponseDto> {
    const retryAfterSeconds = await this.limits.accountRetryAfterSeconds(principal);
    await this.bus.publish(EventTopics.transactionUpdated, {
      eventId: newEventId(),
      accountId: principal.account.id,
      environment: principal.environment,
      // One customer's events stay in order; a transaction without a customer keys on itself.
      subjectId: body.customer?.customerId ?? `transaction:${body.transaction.transactionId}`,
      acceptedAt: Date.now(),
      traceId,
      payload: { timestamp: normaliseTimestampToMillis(body.timestamp), checkpoint, request: body },
    });
    if (retryAfterSeconds !== null) {
      throw new RateLimitedError(
        retryAfterSeconds,
        `the account is over its limit of ${this.config.accountRateLimitPerMinute} requests a minute; the update was accepted`,
      );
    }
    return { status: 200, timestamp: Date.now() };
  }
}
