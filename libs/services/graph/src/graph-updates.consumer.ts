import { Inject, Injectable } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { MessageBusContext, MessageBusController } from '@ringfence/bus';
import { type MessageEnvelope, StateGroups, toWireJson } from '@ringfence/contracts';
import { GRAPH_STORE, type GraphChange, type GraphScope, type GraphStore } from '@ringfence/graph-engine';
import type { Logger } from '@ringfence/platform';
import { ROOT_LOGGER, validatedEventHandler } from '@ringfence/service-runtime';
import { GRAPH_ROUTES, type GraphRoute, graphRouteOf } from './graph-routes';
import { TenantGraphs } from './tenant-graphs.service';

/**
 * Keeps the graph: every ingest event that names customers, suppliers or their attributes,
 * and every customer label, becomes graph changes that are applied to the in-memory index at
 * once and written to the store of record behind it, in batches (group `graph`, through
 * `GraphUpdatesController` below).
 *
 * Index first, store behind, offsets last: the bus commits a handled event's offset only after
 * `flush` has written its changes (`beforeCommit`). After a crash the store lacks at most what
 * follows the committed offset, and that is delivered again; both writes are idempotent, so a
 * rebuild from the store plus the redelivery gives the same index. Queries read the index, so
 * they see an event as soon as it is handled (the bus's read-your-writes barrier waits for
 * exactly that), and one store write covers every event handled meanwhile.
 */
@Injectable()
export class GraphUpdatesConsumer {
  constructor(
    @Inject(GRAPH_STORE) private readonly store: GraphStore,
    private readonly graphs: TenantGraphs,
  ) {}

  /** Changes applied to the index and not yet in the store, per tenant, in arrival order. */
  private pending = new Map<string, { scope: GraphScope; changes: GraphChange[] }>();
  private flushing: Promise<void> = Promise.resolve();

  async handle(graphRoute: GraphRoute, { accountId, environment, payload, traceId }: MessageEnvelope<object>): Promise<void> {
    const scope = { accountId, environment };
    const changes = graphRoute.changes(toWireJson(payload));
    if (changes.length === 0) return;
    // What is left out past the account's share (decisions §16) is not stored either: a rebuild gives the same index.
    const { applied } = await this.graphs.apply(scope, changes, traceId);
    if (applied.length === 0) return;
    const key = JSON.stringify([accountId, environment]);
    const tenant = this.pending.get(key);
    if (tenant === undefined) this.pending.set(key, { scope, changes: [...applied] });
    else tenant.changes.push(...applied);
  }

  /**
   * Writes everything handled so far to the store. Flushes run one after another, so a caller
   * returns only once the changes pending at its call are written; a failed write puts its
   * changes back for the next flush.
   */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.writePending());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async writePending(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    try {
      for (const [key, { scope, changes }] of batch) {
        await this.store.write(scope, changes);
        batch.delete(key);
      }
    } catch (error) {
      for (const [key, { scope, changes }] of batch) {
        const newer = this.pending.get(key);
        this.pending.set(key, { scope, changes: newer ? [...changes, ...newer.changes] : changes });
      }
      throw error;
    }
  }
}

/**
 * Subscribes `GraphUpdatesConsumer` to every graph topic (group `graph`), validating each event
 * as `validatedEventHandler` does. The bus awaits the consumer's `flush` before it commits the
 * handled offsets (`beforeCommit`).
 */
@MessageBusController()
export class GraphUpdatesController {
  constructor(
    private readonly consumer: GraphUpdatesConsumer,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(
    GRAPH_ROUTES.map((graphRoute) => graphRoute.topic),
    { group: StateGroups.graph.group, beforeCommit: GraphUpdatesConsumer },
  )
  apply(@Payload() message: MessageEnvelope<unknown>, @Ctx() context: MessageBusContext): Promise<void> {
    const graphRoute = graphRouteOf(context.getTopic());
    if (graphRoute === undefined) throw new Error(`the graph reads no ${context.getTopic()}`);
    return validatedEventHandler(graphRoute.topic, graphRoute.payloadClass, this.logger, (valid) => this.consumer.handle(graphRoute, valid))(message);
  }
}
