import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import { type MessageEnvelope, StateGroups, toWireJson } from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository, storeEntityUpdates } from '@ringfence/entities';
import type { Logger } from '@ringfence/platform';
import { MESSAGE_BUS, ROOT_LOGGER, validatedEventHandler } from '@ringfence/service-runtime';
import { INGEST_ROUTES, type IngestRoute } from './ingest-routes';

/**
 * Consumes every ingest topic and keeps the entity store: each entity a payload describes is
 * merged field by field by timestamp, so late or replayed payloads never undo newer data and
 * a replay writes nothing (docs/api.md, "Stored data"). One customer's events arrive in order
 * (the partition key), and each entity update is a compare-and-set (or, in the embedded mode,
 * an in-memory merge written behind), so concurrent consumers stay correct. A
 * PSP dispute and its transaction come on different topics, in either order: both meet on the
 * transaction's document, which carries the dispute's chargeback to the customer
 * (`storeEntityUpdates`).
 */
@Injectable()
export class EntityIngestHandler implements OnModuleInit {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(ENTITY_DOCUMENT_REPOSITORY) private readonly documents: EntityDocumentRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    for (const route of INGEST_ROUTES) {
      this.bus.subscribe(
        route.topic,
        // A write-behind store writes what the handled events changed before their offsets are committed.
        { group: StateGroups.ingestion.group, beforeCommit: this.documents.flush ? () => this.flushDocuments() : undefined },
        validatedEventHandler(route.topic, route.payloadClass, this.logger, (message) => this.handle(route, message)),
      );
    }
  }

  private flushDocuments(): Promise<void> {
    return this.documents.flush?.() ?? Promise.resolve();
  }

  async handle(route: IngestRoute, { accountId, environment, payload }: MessageEnvelope<object>): Promise<void> {
    const json = toWireJson(payload);
    await storeEntityUpdates(this.documents, { accountId, environment }, route.updates(json as never), json.timestamp as number);
  }
}
