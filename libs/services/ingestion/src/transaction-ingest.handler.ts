import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import { EventTopics, type MessageEnvelope, TransactionUpdatedEvent } from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository, mergeDocument } from '@ringfence/entities';
import type { Logger } from '@ringfence/platform';
import { MESSAGE_BUS, ROOT_LOGGER, validatedEventHandler } from '@ringfence/service-runtime';

/**
 * Stores payment-processor transaction updates: several updates of one transaction merge into
 * one record, each field keeping its newest value.
 */
@Injectable()
export class TransactionIngestHandler implements OnModuleInit {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(ENTITY_DOCUMENT_REPOSITORY) private readonly documents: EntityDocumentRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.bus.subscribe(
      EventTopics.transactionUpdated,
      { group: 'ingestion' },
      validatedEventHandler(EventTopics.transactionUpdated, TransactionUpdatedEvent, this.logger, (message) => this.handle(message)),
    );
  }

  async handle({ accountId, environment, payload }: MessageEnvelope<TransactionUpdatedEvent>): Promise<void> {
    const { transaction, timestamp: _payloadTime, ...context } = payload.request;
    const { transactionId, ...transactionFields } = transaction;
    const fields = { ...transactionFields, ...context };
    await this.documents.update({ accountId, environment, kind: 'transaction', entityId: transactionId }, (current) =>
      mergeDocument(current, fields, payload.timestamp),
    );
  }
}
