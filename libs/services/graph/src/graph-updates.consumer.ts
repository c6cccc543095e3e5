import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import { type MessageEnvelope, toWireJson } from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository } from '@ringfence/entities';
import { GRAPH_STORE, type GraphStore } from '@ringfence/graph-engine';
import type { Logger } from '@ringfence/platform';
import { MESSAGE_BUS, ROOT_LOGGER, validatedEventHandler } from '@ringfence/service-runtime';
import { GRAPH_ROUTES, type GraphRoute } from './graph-routes';
import { TenantGraphs } from './tenant-graphs.service';

/**
 * Keeps the graph: every ingest event that names customers, suppliers or their attributes,
 * and every customer label, becomes graph changes that are written to the store of record and
 * then applied to the in-memory index (group `graph`).
 *
 * Store first, index second: after a crash between the two, the event is redelivered (its
 * offset was not committed) and both writes are idempotent; the index never holds what the
 * store lacks, so a rebuild loses nothing.
 */
@Injectable()
export class GraphUpdatesConsumer implements OnModuleInit {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(GRAPH_STORE) private readonly store: GraphStore,
    @Inject(ENTITY_DOCUMENT_REPOSITORY) private readonly documents: EntityDocumentRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly graphs: TenantGraphs,
  ) {}

  onModuleInit(): void {
    for (const graphRoute of GRAPH_ROUTES) {
      this.bus.subscribe(
        graphRoute.topic,
        { group: 'graph' },
        validatedEventHandler(graphRoute.topic, graphRoute.payloadClass, this.logger, (message) => this.handle(graphRoute, message)),
      );
    }
  }

  async handle(graphRoute: GraphRoute, { accountId, environment, payload }: MessageEnvelope<object>): Promise<void> {
    const scope = { accountId, environment };
    const changes = await graphRoute.changes(toWireJson(payload), scope, this.documents);
    if (changes.length === 0) return;
    await this.store.write(scope, changes);
    await this.graphs.apply(scope, changes);
  }
}
