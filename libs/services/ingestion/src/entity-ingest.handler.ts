import { Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { MessageBusContext, MessageBusController } from '@ringfence/bus';
import { type MessageEnvelope, StateGroups, toWireJson } from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository, storeEntityUpdates } from '@ringfence/entities';
import type { Logger } from '@ringfence/platform';
import { ROOT_LOGGER, validatedEventHandler } from '@ringfence/service-runtime';
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
@MessageBusController()
export class EntityIngestHandler {
  /** Each ingest topic's validated handler, made once rather than as closures per event. */
  private readonly handlers: ReadonlyMap<string, (message: MessageEnvelope<unknown>) => Promise<void>>;

  constructor(
    @Inject(ENTITY_DOCUMENT_REPOSITORY) private readonly documents: EntityDocumentRepository,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.handlers = new Map(INGEST_ROUTES.map((route) => [route.topic, validatedEventHandler(route.topic, route.payloadClass, logger, (valid) => this.handle(route, valid))]));
  }

  /**
   * Every ingest topic, validated as `validatedEventHandler` does. A write-behind store (one with
   * `flush`) writes what the handled events changed before their offsets are committed
   * (`beforeCommit`); a store that writes through has no `flush`, and no hook.
   */
  @EventPattern(
    INGEST_ROUTES.map((route) => route.topic),
    { group: StateGroups.ingestion.group, beforeCommit: ENTITY_DOCUMENT_REPOSITORY },
  )
  ingest(@Payload() message: MessageEnvelope<unknown>, @Ctx() context: MessageBusContext): Promise<void> {
    const handler = this.handlers.get(context.getTopic());
    if (handler === undefined) throw new Error(`ingestion stores nothing of ${context.getTopic()}`);
    return handler(message);
  }

  async handle(route: IngestRoute, { accountId, environment, payload }: MessageEnvelope<object>): Promise<void> {
    const json = toWireJson(payload);
    await storeEntityUpdates(this.documents, { accountId, environment }, route.updates(json as never), json.timestamp as number);
  }
}
