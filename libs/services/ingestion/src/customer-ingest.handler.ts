import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import { CustomerUpdatedEvent, type Environment, EventTopics, type MessageEnvelope } from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository, mergeDocument } from '@ringfence/entities';
import type { Logger } from '@ringfence/platform';
import { MESSAGE_BUS, ROOT_LOGGER, validatedEventHandler } from '@ringfence/service-runtime';

/**
 * Stores what `ringfence.ingest.customer.updated.v1` carries: the customer and, when sent, its
 * device, each merged field by field by timestamp, so late or replayed payloads never undo
 * newer data (decisions §5).
 */
@Injectable()
export class CustomerIngestHandler implements OnModuleInit {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(ENTITY_DOCUMENT_REPOSITORY) private readonly documents: EntityDocumentRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.bus.subscribe(
      EventTopics.customerUpdated,
      { group: 'ingestion' },
      validatedEventHandler(EventTopics.customerUpdated, CustomerUpdatedEvent, this.logger, (message) => this.handle(message)),
    );
  }

  async handle({ accountId, environment, payload }: MessageEnvelope<CustomerUpdatedEvent>): Promise<void> {
    const { customerId, ...customerFields } = payload.customer;
    const deviceId = payload.deviceId ?? payload.device?.deviceId;
    const customer = { ...customerFields, ...(deviceId ? { lastDeviceId: deviceId } : {}) };
    await this.merge(accountId, environment, 'customer', customerId, customer, payload.timestamp);
    if (payload.device?.deviceId) {
      const { deviceId: id, ...deviceFields } = payload.device;
      await this.merge(accountId, environment, 'device', id, deviceFields, payload.timestamp);
    }
  }

  private async merge(
    accountId: string,
    environment: Environment,
    kind: 'customer' | 'device',
    entityId: string,
    fields: Record<string, unknown>,
    timestamp: number,
  ): Promise<void> {
    await this.documents.update({ accountId, environment, kind, entityId }, (current) => mergeDocument(current, fields, timestamp));
  }
}
