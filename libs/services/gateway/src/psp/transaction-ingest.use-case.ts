import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { MessageBus } from '@ringfence/bus';
import { type AcknowledgementResponseDto, EventTopics, type PspCheckpoint, type PspTransactionRequestDto } from '@ringfence/contracts';
import { newEventId, normaliseTimestampToMillis } from '@ringfence/platform';
import { MESSAGE_BUS } from '@ringfence/service-runtime';

/**
 * POST /psp/transaction/async: the update is published and the answer given once the bus holds
 * it durably; ingestion (and, with a checkpoint, scoring for the warehouse) follows.
 */
@Injectable()
export class TransactionIngestUseCase {
  constructor(@Inject(MESSAGE_BUS) private readonly bus: MessageBus) {}

  async execute(
    principal: Principal,
    body: PspTransactionRequestDto,
    checkpoint: PspCheckpoint | undefined,
    traceId: string,
  ): Promise<AcknowledgementResponseDto> {
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
    return { status: 200, timestamp: Date.now() };
  }
}
