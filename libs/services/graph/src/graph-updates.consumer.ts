import { Inject, Injectable } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { MessageBusContext, MessageBusController } from '@ringfence/bus';
import { type MessageEnvelope, StateGroups, toWireJson } from '@ringfence/contracts';
import { GRAPH_STORE, type GraphChange, type GraphScope, type GraphStore } from '@ringfence/graph-engine';
import { isGraphWriteRefusal } from '@ringfence/graph-store';
import { type Logger, type RowWriter, RowsNotWrittenError, SetAsideRows } from '@ringfence/platform';
import { ROOT_LOGGER, validatedEventHandler } from '@ringfence/service-runtime';
import { GRAPH_ROUTES, type GraphRoute } from './graph-routes';
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
 *
 * One change the store refuses holds no other up (ADR-0016): each change is a row of
 * `RowWriter` (writer `graph-changes`), so when a write fails for what it carried
 * (`isGraphWriteRefusal`) the other changes are written, and the refused one is retried with
 * the next flushes and then set aside; the index keeps it. Any other failure is an outage:
 * every change stays pending and nothing is set aside.
 */
@Injectable()
export class GraphUpdatesConsumer {
  private readonly writer: RowWriter<GraphRow>;

  constructor(
    @Inject(GRAPH_STORE) store: GraphStore,
    private readonly graphs: TenantGraphs,
    setAside: SetAsideRows,
  ) {
    this.writer = setAside.writer<GraphRow>(
      {
        name: GRAPH_WRITER,
        writeAll: (rows) => writeByTenant(store, rows),
        identify: (row) => ({ accountId: row.scope.accountId, environment: row.scope.environment, key: rowKey(row) }),
        isUnavailable: (error) => !isGraphWriteRefusal(error),
      },
      (row) => this.replay(row as GraphRow),
    );
  }

  /** Changes applied to the index and not yet in the store, per tenant, in arrival order. */
  private pending = new Map<string, { scope: GraphScope; changes: GraphChange[] }>();
  private flushing: Promise<void> = Promise.resolve();

  async handle(graphRoute: GraphRoute, { accountId, environment, payload, traceId }: MessageEnvelope<object>): Promise<void> {
    const scope = { accountId, environment };
    const changes = graphRoute.changes(toWireJson(payload));
    if (changes.length === 0) return;
    // What is left out past the account's share (ADR-0016) is not stored either: a rebuild gives the same index.
    const { toStore } = await this.graphs.apply(scope, changes, traceId);
    if (toStore.length === 0) return;
    this.keepPending(scope, toStore);
  }

  /**
   * Writes everything handled so far to the store. Flushes run one after another, so a caller
   * returns only once the changes pending at its call are written or set aside; changes not
   * written (an outage, a refused change with attempts left) go back for the next flush.
   */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.writePending());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async writePending(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    const rows = [...batch.values()].flatMap(({ scope, changes }) => changes.map((change) => ({ scope, change })));
    try {
      await this.writer.write(rows);
    } catch (error) {
      const unwritten = error instanceof RowsNotWrittenError ? (error.rows as GraphRow[]) : rows;
      // Ahead of what was handled meanwhile, as they came first.
      const newer = this.pending;
      this.pending = new Map();
      for (const { scope, change } of unwritten) this.keepPending(scope, [change]);
      for (const { scope, changes } of newer.values()) this.keepPending(scope, changes);
      throw error;
    }
  }

  private keepPending(scope: GraphScope, changes: readonly GraphChange[]): void {
    const key = JSON.stringify([scope.accountId, scope.environment]);
    const tenant = this.pending.get(key);
    if (tenant === undefined) this.pending.set(key, { scope, changes: [...changes] });
    else tenant.changes.push(...changes);
  }

  /**
   * An operator's replay of a set-aside change: applied to the index again (a restart since
   * rebuilt the index from the store, which lacks it; applying twice changes nothing), pending
   * again, and written by a flush now. A change the index leaves out (the account holds its
   * share) is not written either, as for any event.
   */
  private async replay(row: GraphRow): Promise<void> {
    const { applied } = await this.graphs.apply(row.scope, [row.change]);
    if (applied.length === 0) throw new Error('the change was left out of the graph: the account holds its share of the graph’s nodes');
    this.keepPending(row.scope, applied);
    const failure: unknown = await this.flush().then(
      () => undefined,
      (error: unknown) => error,
    );
    // Another change still pending fails the flush too; only this one's fate answers the replay.
    const replayed = rowKey(row);
    if (failure instanceof RowsNotWrittenError ? failure.rows.some((unwritten) => rowKey(unwritten as GraphRow) === replayed) : failure !== undefined) throw failure;
  }
}

/** The writer's name in set-aside rows, metrics and logs. */
export const GRAPH_WRITER = 'graph-changes';

/** One change of one tenant: what the store may refuse, and what is set aside. */
interface GraphRow {
  scope: GraphScope;
  change: GraphChange;
}

/** A change's identity: its tenant and the change itself (writing the same change twice stores it once). */
const rowKey = ({ scope, change }: GraphRow): string => JSON.stringify([scope.accountId, scope.environment, change]);

/**
 * One store write per tenant, in the order the tenants come. Not atomic across tenants: when a
 * later tenant's write fails, the earlier ones are written again with the retry, which the
 * store's idempotent merges make harmless.
 */
async function writeByTenant(store: GraphStore, rows: readonly GraphRow[]): Promise<void> {
  const tenants = new Map<string, { scope: GraphScope; changes: GraphChange[] }>();
  for (const { scope, change } of rows) {
    const key = JSON.stringify([scope.accountId, scope.environment]);
    const tenant = tenants.get(key);
    if (tenant === undefined) tenants.set(key, { scope, changes: [change] });
    else tenant.changes.push(change);
  }
  for (const { scope, changes } of tenants.values()) await store.write(scope, changes);
}

/**
 * Subscribes `GraphUpdatesConsumer` to every graph topic (group `graph`), validating each event
 * as `validatedEventHandler` does. The bus awaits the consumer's `flush` before it commits the
 * handled offsets (`beforeCommit`).
 */
@MessageBusController()
export class GraphUpdatesController {
  /** Each graph topic's validated handler, made once rather than as closures per event. */
  private readonly handlers: ReadonlyMap<string, (message: MessageEnvelope<unknown>) => Promise<void>>;

  constructor(consumer: GraphUpdatesConsumer, @Inject(ROOT_LOGGER) logger: Logger) {
    this.handlers = new Map(
      GRAPH_ROUTES.map((graphRoute) => [graphRoute.topic, validatedEventHandler(graphRoute.topic, graphRoute.payloadClass, logger, (valid) => consumer.handle(graphRoute, valid))]),
    );
  }

  @EventPattern(
    GRAPH_ROUTES.map((graphRoute) => graphRoute.topic),
    { group: StateGroups.graph.group, beforeCommit: GraphUpdatesConsumer },
  )
  apply(@Payload() message: MessageEnvelope<unknown>, @Ctx() context: MessageBusContext): Promise<void> {
    const handler = this.handlers.get(context.getTopic());
    if (handler === undefined) throw new Error(`the graph reads no ${context.getTopic()}`);
    return handler(message);
  }
}
