import { type FixedNodeKind, type GraphChange, type GraphNodeRef, type GraphScope, type GraphStore, type NodeKind } from '@ringfence/graph-engine';
import { DataSource, type QueryRunner } from 'typeorm';
import { background, queryJsonPage, queryRows } from '@ringfence/persistence';
import { assignCustomNodeTypes, customNodeTypesIn, customSlotOf, type GraphWriteRows, needsNewCustomSlots, toWriteRows } from '../graph-write-rows';
import { chunks } from '@ringfence/platform';
import { DEFAULT_LOAD_BATCH_SIZE, requireBatchSize } from '../load-batch-size';
import {
  CUSTOM_SLOTS_LOCK_NAMESPACE,
  INSERT_CUSTOM_NODE_TYPES,
  LOCK_CUSTOM_SLOTS,
  PAGE_CHARGEBACKS,
  PAGE_DISPUTES,
  PAGE_EDGES,
  PAGE_LABELS,
  PAGE_MERCHANT_CUSTOMERS,
  PAGE_NODES,
  PAGE_REDEMPTIONS,
  PAGE_TAGS,
  PAGE_TRANSACTION_OWNERS,
  type PagedSelect,
  SELECT_CUSTOM_NODE_TYPES,
  SELECT_SCOPES,
  UPSERT_CHARGEBACKS,
  UPSERT_DISPUTES,
  UPSERT_EDGES,
  UPSERT_LABELS,
  UPSERT_MERCHANT_CUSTOMERS,
  UPSERT_NODES,
  UPSERT_REDEMPTIONS,
  UPSERT_TAGS,
  UPSERT_TRANSACTION_OWNERS,
} from './graph-sql';

/**
 * Rows per write statement. The arrays are single parameters, so this bounds the size of one
 * statement (and what PGlite's worker holds at once), not a parameter count.
 */
export const WRITE_CHUNK_ROWS = 10_000;

type Source = DataSource | QueryRunner;

// One row of a page, the columns of its PAGE_* statement in order (bigint as JSON numbers).
type NodeTuple = [kind: NodeKind, identity: string];
type EdgeTuple = [firstSeenMs: number, kindA: NodeKind, identityA: string, kindB: NodeKind, identityB: string];
type LabelTuple = [customerId: string, label: string | null, atMs: number];
type ChargebackTuple = [chargebackId: string, forgiven: boolean, atMs: number];
type TagTuple = [customerId: string, name: string, value: boolean, atMs: number];
type RedemptionTuple = [customerId: string, voucherCode: string, redemptionTimeMs: number, success: boolean, atMs: number];
type TransactionOwnerTuple = [transactionId: string, customerId: string, firstSeenMs: number];
type DisputeTuple = [transactionId: string, chargebackId: string, firstSeenMs: number];
type MerchantCustomerTuple = [merchantId: string, customerId: string, firstSeenMs: number];

/**
 * The graph's store of record in tables (embedded mode: PGlite; or PostgreSQL), with the
 * merge rules of `TenantGraph.apply` (see `GraphStore`). Tables: migrations
 * `GraphStore1764300000000` and `GraphTransactionDisputes1764400000000` of `@ringfence/persistence`.
 */
export class TypeOrmGraphStore implements GraphStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * One transaction: the tenant's slots first (only when the batch brings a custom type not yet
   * known), then one `unnest` statement per table and chunk, nodes before edges.
   */
  async write(scope: GraphScope, changes: readonly GraphChange[]): Promise<void> {
    if (changes.length === 0) return;
    const appearing = customNodeTypesIn(changes);
    // Without custom types the rows need no slots; build them (and fail on bad input) before
    // the transaction starts.
    const plainStatements = appearing.length === 0 ? writeStatements(scope, toWriteRows(changes, [])) : undefined;
    // One statement is atomic by itself, so a write that fits in one needs no transaction: the
    // tables' upserts become one statement of data-modifying CTEs. A transaction would hold the
    // embedded database's one session across a round trip per statement, and every other
    // statement (event-log appends, document reads) would queue behind it.
    if (plainStatements !== undefined && oneChunkPerTable(plainStatements)) {
      const combined = combineStatements(plainStatements);
      // Written behind the graph's consumer: requests' statements go first (BACKGROUND_STATEMENT).
      await queryRows(this.dataSource, background(combined.sql), combined.parameters);
      return;
    }
    await this.dataSource.transaction(async (manager) => {
      const runner = manager.queryRunner as QueryRunner;
      const statements = plainStatements ?? writeStatements(scope, toWriteRows(changes, await this.slotsFor(runner, scope, appearing)));
      await this.writeRows(runner, statements);
    });
  }

  async scopes(): Promise<GraphScope[]> {
    const rows = await queryRows<{ account_id: string; environment: string }>(this.dataSource, SELECT_SCOPES, []);
    return rows.map((row) => ({ accountId: row.account_id, environment: row.environment }));
  }

  async customNodeTypes(scope: GraphScope): Promise<string[]> {
    return this.selectCustomNodeTypes(this.dataSource, scope);
  }

  /**
   * Keyset pages of each table, one statement per page and no transaction held between them
   * (on PGlite the one session would be blocked while the caller works on a batch). A write
   * that lands during a load may or may not be in it; the caller applies live changes on top,
   * and the merge rules make the overlap harmless.
   */
  async *load(scope: GraphScope, batchSize = DEFAULT_LOAD_BATCH_SIZE): AsyncIterable<GraphChange[]> {
    requireBatchSize(batchSize);
    const slots = new CustomSlotNames(() => this.customNodeTypes(scope));
    yield* this.pages<NodeTuple>(
      scope,
      PAGE_NODES,
      batchSize,
      ([kind, identity]) => [kind, identity],
      ([kind, identity]) => ({ type: 'node', node: slots.ref(kind, identity) }),
      (rows) => slots.cover(rows.map(([kind]) => kind)),
    );
    yield* this.pages<EdgeTuple>(
      scope,
      PAGE_EDGES,
      batchSize,
      (row) => row,
      ([firstSeenMs, kindA, identityA, kindB, identityB]) => ({ type: 'link', a: slots.ref(kindA, identityA), b: slots.ref(kindB, identityB), firstSeenMs }),
      (rows) => slots.cover(rows.flatMap(([, kindA, , kindB]) => [kindA, kindB])),
    );
    yield* this.statePages(scope, batchSize);
    yield* this.relationPages(scope, batchSize);
  }

  /** The customers' labels and tags, the chargebacks' states and the redemptions, as `load` pages them. */
  private async *statePages(scope: GraphScope, batchSize: number): AsyncIterable<GraphChange[]> {
    yield* this.pages<LabelTuple>(
      scope,
      PAGE_LABELS,
      batchSize,
      ([customerId]) => [customerId],
      ([customerId, label, atMs]) => ({ type: 'label', customerId, label, atMs }),
    );
    yield* this.pages<ChargebackTuple>(
      scope,
      PAGE_CHARGEBACKS,
      batchSize,
      ([chargebackId]) => [chargebackId],
      ([chargebackId, forgiven, atMs]) => ({ type: 'chargeback', chargebackId, forgiven, atMs }),
    );
    yield* this.pages<TagTuple>(
      scope,
      PAGE_TAGS,
      batchSize,
      ([customerId, name]) => [customerId, name],
      ([customerId, name, value, atMs]) => ({ type: 'tags', customerId, tags: { [name]: value }, atMs }),
    );
    yield* this.pages<RedemptionTuple>(
      scope,
      PAGE_REDEMPTIONS,
      batchSize,
      ([customerId, voucherCode, redemptionTimeMs]) => [customerId, voucherCode, redemptionTimeMs],
      ([customerId, voucherCode, redemptionTimeMs, success, atMs]) => ({ type: 'redemption', customerId, voucherCode, redemptionTimeMs, success, atMs }),
    );
  }

  /** Transaction owners, disputes and merchants' customers, as `load` pages them. */
  private async *relationPages(scope: GraphScope, batchSize: number): AsyncIterable<GraphChange[]> {
    yield* this.pages<TransactionOwnerTuple>(
      scope,
      PAGE_TRANSACTION_OWNERS,
      batchSize,
      ([transactionId, customerId]) => [transactionId, customerId],
      ([transactionId, customerId, firstSeenMs]) => ({ type: 'transaction-owner', transactionId, customerId, firstSeenMs }),
    );
    yield* this.pages<DisputeTuple>(
      scope,
      PAGE_DISPUTES,
      batchSize,
      ([transactionId, chargebackId]) => [transactionId, chargebackId],
      ([transactionId, chargebackId, firstSeenMs]) => ({ type: 'dispute', chargebackId, transactionId, firstSeenMs }),
    );
    yield* this.pages<MerchantCustomerTuple>(
      scope,
      PAGE_MERCHANT_CUSTOMERS,
      batchSize,
      ([merchantId, customerId]) => [merchantId, customerId],
      ([merchantId, customerId, firstSeenMs]) => ({ type: 'merchant-customer', merchantId, customerId, firstSeenMs }),
    );
  }

  /**
   * The tenant's slots once the batch's types have theirs. Reads without a lock first: a batch
   * whose types all hold slots (or that arrives when all five are taken) needs none.
   */
  private async slotsFor(runner: QueryRunner, scope: GraphScope, appearing: readonly string[]): Promise<string[]> {
    const known = await this.selectCustomNodeTypes(runner, scope);
    if (!needsNewCustomSlots(known, appearing)) return known;
    await queryRows(runner, LOCK_CUSTOM_SLOTS, [CUSTOM_SLOTS_LOCK_NAMESPACE, JSON.stringify([scope.accountId, scope.environment])]);
    const current = await this.selectCustomNodeTypes(runner, scope);
    const assigned = assignCustomNodeTypes(current, appearing);
    const added = assigned.slice(current.length);
    if (added.length > 0) {
      const slots = added.map((_, index) => current.length + index + 1);
      await queryRows(runner, INSERT_CUSTOM_NODE_TYPES, [scope.accountId, scope.environment, slots, added]);
    }
    return assigned;
  }

  private async selectCustomNodeTypes(source: Source, scope: GraphScope): Promise<string[]> {
    const rows = await queryRows<{ node_type: string }>(source, SELECT_CUSTOM_NODE_TYPES, [scope.accountId, scope.environment]);
    return rows.map((row) => row.node_type);
  }

  private async writeRows(runner: Source, statements: readonly Statement[]): Promise<void> {
    for (const { sql, parameters } of statements) await queryRows(runner, sql, parameters);
  }

  /** Pages of `query` after the last row's key, until a page comes back short. */
  private async *pages<Row extends unknown[]>(
    scope: GraphScope,
    query: PagedSelect,
    batchSize: number,
    keyOf: (row: Row) => unknown[],
    toChange: (row: Row) => GraphChange,
    prepare?: (rows: Row[]) => Promise<void>,
  ): AsyncIterable<GraphChange[]> {
    const tenant = [scope.accountId, scope.environment, batchSize];
    let rows = await queryJsonPage<Row>(this.dataSource, query.first, tenant);
    while (rows.length > 0) {
      await prepare?.(rows);
      yield rows.map(toChange);
      if (rows.length < batchSize) return;
      rows = await queryJsonPage<Row>(this.dataSource, query.after, [...tenant, ...keyOf(rows[rows.length - 1])]);
    }
  }
}

/**
 * Stored nodes back as payloads name them: a slot kind becomes its custom type. The slots are
 * read when a page first holds a custom node, and again when one holds a slot taken since (a
 * write during the load); slots never change once taken.
 */
class CustomSlotNames {
  private types: string[] = [];

  constructor(private readonly read: () => Promise<string[]>) {}

  async cover(kinds: readonly NodeKind[]): Promise<void> {
    const needed = kinds.reduce((highest, kind) => Math.max(highest, customSlotOf(kind)), 0);
    if (needed > this.types.length) this.types = await this.read();
  }

  ref(kind: NodeKind, identity: string): GraphNodeRef {
    const slot = customSlotOf(kind);
    if (slot === 0) return { kind: kind as FixedNodeKind, identity };
    const nodeType = this.types[slot - 1];
    if (nodeType === undefined) throw new Error(`graph node of ${kind} without a custom node type in slot ${slot}`);
    return { kind: 'custom', nodeType, identity };
  }
}

/** How many upsert statements `writeRows` runs for these rows. */
/** One SQL statement and its parameters. */
interface Statement {
  sql: string;
  parameters: unknown[];
}

/**
 * The upserts of a write, table by table (nodes before edges) and chunk by chunk. Every
 * statement takes the tenant as $1 and $2 and its columns as arrays after them.
 */
function writeStatements(scope: GraphScope, rows: GraphWriteRows): Statement[] {
  const tenant = [scope.accountId, scope.environment];
  const statements: Statement[] = [];
  const add = <Row>(sql: string, table: readonly Row[], columns: (chunk: readonly Row[]) => unknown[][]) => {
    for (const chunk of chunks(table, WRITE_CHUNK_ROWS)) statements.push({ sql, parameters: [...tenant, ...columns(chunk)] });
  };
  add(UPSERT_NODES, rows.nodes, (chunk) => [chunk.map((row) => row.kind), chunk.map((row) => row.identity)]);
  add(UPSERT_EDGES, rows.links, (chunk) => [
    chunk.map((row) => row.kindA),
    chunk.map((row) => row.identityA),
    chunk.map((row) => row.kindB),
    chunk.map((row) => row.identityB),
    chunk.map((row) => row.firstSeenMs),
  ]);
  add(UPSERT_LABELS, rows.labels, (chunk) => [chunk.map((row) => row.customerId), chunk.map((row) => row.label), chunk.map((row) => row.atMs)]);
  add(UPSERT_CHARGEBACKS, rows.chargebacks, (chunk) => [chunk.map((row) => row.chargebackId), chunk.map((row) => row.forgiven), chunk.map((row) => row.atMs)]);
  add(UPSERT_TAGS, rows.tags, (chunk) => [chunk.map((row) => row.customerId), chunk.map((row) => row.name), chunk.map((row) => row.value), chunk.map((row) => row.atMs)]);
  add(UPSERT_REDEMPTIONS, rows.redemptions, (chunk) => [
    chunk.map((row) => row.customerId),
    chunk.map((row) => row.voucherCode),
    chunk.map((row) => row.redemptionTimeMs),
    chunk.map((row) => row.success),
    chunk.map((row) => row.atMs),
  ]);
  add(UPSERT_TRANSACTION_OWNERS, rows.transactionOwners, (chunk) => [chunk.map((row) => row.transactionId), chunk.map((row) => row.customerId), chunk.map((row) => row.firstSeenMs)]);
  add(UPSERT_DISPUTES, rows.disputes, (chunk) => [chunk.map((row) => row.transactionId), chunk.map((row) => row.chargebackId), chunk.map((row) => row.firstSeenMs)]);
  add(UPSERT_MERCHANT_CUSTOMERS, rows.merchantCustomers, (chunk) => [chunk.map((row) => row.merchantId), chunk.map((row) => row.customerId), chunk.map((row) => row.firstSeenMs)]);
  return statements;
}

/** Whether no table needs two chunks: only then are the upserts combined into one statement. */
function oneChunkPerTable(statements: readonly Statement[]): boolean {
  return new Set(statements.map((statement) => statement.sql)).size === statements.length;
}

/**
 * Upserts of different tables as one statement: each but the last in a data-modifying CTE
 * (PostgreSQL runs every one of them, referenced or not, atomically with the statement). The
 * tenant stays $1 and $2; each statement's own parameters are renumbered after the previous
 * ones'. No table appears twice, so no row is touched twice, and the tables have no foreign
 * keys to one another, so the order of the parts does not matter.
 */
function combineStatements(statements: readonly Statement[]): Statement {
  if (statements.length === 1) return statements[0];
  const parameters: unknown[] = statements[0].parameters.slice(0, 2);
  const parts = statements.map(({ sql, parameters: own }) => {
    const shift = parameters.length - 2;
    parameters.push(...own.slice(2));
    return sql.replace(/\$(\d+)/g, (placeholder, index: string) => (Number(index) <= 2 ? placeholder : `$${Number(index) + shift}`));
  });
  const last = parts.pop() as string;
  return { sql: `WITH ${parts.map((part, index) => `write_${index} AS (${part})`).join(',\n')}\n${last}`, parameters };
}
