import {
  type FixedNodeKind,
  type GraphChange,
  type GraphNodeRef,
  type GraphScope,
  type GraphStore,
  type NodeKind,
} from '@ringfence/graph-engine';
import neo4j, { type Driver, type ManagedTransaction, type Session } from 'neo4j-driver';
import { chunks } from '@ringfence/platform';
import { CUSTOM_NODE_SLOTS, type GraphWriteRows, type NodeRow, customNodeTypesIn, customSlotOf, needsNewCustomSlots, toWriteRows } from '../graph-write-rows';
import { DEFAULT_LOAD_BATCH_SIZE, requireBatchSize } from '../load-batch-size';
import {
  ASSIGN_CUSTOM_NODE_TYPES,
  LOAD_CHARGEBACKS,
  LOAD_DISPUTES,
  LOAD_LABELS,
  LOAD_LINKS,
  LOAD_MERCHANT_CUSTOMERS,
  LOAD_NODES,
  LOAD_REDEMPTIONS,
  LOAD_TAGS,
  LOAD_TRANSACTION_OWNERS,
  MERGE_CUSTOM_NODES,
  MERGE_DISPUTES,
  MERGE_LINKS,
  MERGE_MERCHANT_CUSTOMERS,
  MERGE_NODES,
  MERGE_REDEMPTIONS,
  MERGE_SCOPE,
  MERGE_TAGS,
  MERGE_TRANSACTION_OWNERS,
  SCHEMA_STATEMENTS,
  SELECT_CUSTOM_NODE_TYPES,
  SELECT_SCOPES,
  SET_CHARGEBACKS,
  SET_LABELS,
} from './graph-cypher';
import { fromNeo4jInteger, toNeo4jInteger } from './neo4j-values';

/** Rows per `UNWIND` statement: bounds one message and one statement's transaction state. */
export const NEO4J_CHUNK_ROWS = 5_000;

interface LoadRecord {
  get(key: string): unknown;
}

/** Each part of a load: its ordered statement and how one of its records becomes a change. */
const LOAD_PARTS: ReadonlyArray<readonly [string, (record: LoadRecord) => GraphChange]> = [
  [LOAD_NODES, (record) => ({ type: 'node', node: nodeRef(record.get('kind'), record.get('identity'), record.get('nodeType')) })],
  [LOAD_LINKS, (record) => ({
    type: 'link',
    a: nodeRef(record.get('kindA'), record.get('identityA'), record.get('nodeTypeA')),
    b: nodeRef(record.get('kindB'), record.get('identityB'), record.get('nodeTypeB')),
    firstSeenMs: fromNeo4jInteger(record.get('firstSeenMs'), 'firstSeenMs'),
  })],
  [LOAD_LABELS, (record) => ({
    type: 'label',
    customerId: String(record.get('customerId')),
    label: (record.get('label') as string | null) ?? null,
    atMs: fromNeo4jInteger(record.get('atMs'), 'labelAtMs'),
  })],
  [LOAD_CHARGEBACKS, (record) => ({
    type: 'chargeback',
    chargebackId: String(record.get('chargebackId')),
    forgiven: record.get('forgiven') === true,
    atMs: fromNeo4jInteger(record.get('atMs'), 'stateAtMs'),
  })],
  [LOAD_TAGS, (record) => ({
    type: 'tags',
    customerId: String(record.get('customerId')),
    tags: { [String(record.get('name'))]: record.get('value') === true },
    atMs: fromNeo4jInteger(record.get('atMs'), 'atMs'),
  })],
  [LOAD_REDEMPTIONS, (record) => ({
    type: 'redemption',
    customerId: String(record.get('customerId')),
    voucherCode: String(record.get('voucherCode')),
    redemptionTimeMs: fromNeo4jInteger(record.get('redemptionTimeMs'), 'redemptionTimeMs'),
    success: record.get('success') === true,
    atMs: fromNeo4jInteger(record.get('atMs'), 'atMs'),
  })],
  [LOAD_TRANSACTION_OWNERS, (record) => ({
    type: 'transaction-owner',
    transactionId: String(record.get('transactionId')),
    customerId: String(record.get('customerId')),
    firstSeenMs: fromNeo4jInteger(record.get('firstSeenMs'), 'firstSeenMs'),
  })],
  [LOAD_DISPUTES, (record) => ({
    type: 'dispute',
    chargebackId: String(record.get('chargebackId')),
    transactionId: String(record.get('transactionId')),
    firstSeenMs: fromNeo4jInteger(record.get('firstSeenMs'), 'firstSeenMs'),
  })],
  [LOAD_MERCHANT_CUSTOMERS, (record) => ({
    type: 'merchant-customer',
    merchantId: String(record.get('merchantId')),
    customerId: String(record.get('customerId')),
    firstSeenMs: fromNeo4jInteger(record.get('firstSeenMs'), 'firstSeenMs'),
  })],
];

/**
 * The graph's store of record in Neo4j (distributed mode), with the merge rules of
 * `TenantGraph.apply` (see `GraphStore`); the model is described in `graph-cypher.ts`.
 * Call `ensureSchema()` once before writing: concurrent MERGEs rely on its constraints.
 * The driver stays the caller's to close.
 */
export class Neo4jGraphStore implements GraphStore {
  constructor(
    private readonly driver: Driver,
    private readonly database?: string,
  ) {}

  /** Creates the constraints and indexes; idempotent. */
  async ensureSchema(): Promise<void> {
    await this.withSession(neo4j.session.WRITE, async (session) => {
      for (const statement of SCHEMA_STATEMENTS) await session.run(statement);
    });
  }

  /**
   * One managed write transaction (the driver retries it whole on a transient failure, such
   * as a deadlock between two writers): the tenant's scope node and slots, then the nodes one
   * statement per kind (labels are part of the text), then links, labels, chargeback states,
   * tags, redemptions, transaction owners and disputes.
   */
  async write(scope: GraphScope, changes: readonly GraphChange[]): Promise<void> {
    if (changes.length === 0) return;
    const appearing = customNodeTypesIn(changes);
    // Without custom types the rows need no slots; build them (and fail on bad input) first.
    const plainRows = appearing.length === 0 ? toWriteRows(changes, []) : undefined;
    await this.withSession(neo4j.session.WRITE, (session) =>
      session.executeWrite(async (tx) => {
        const tenant = { accountId: scope.accountId, environment: scope.environment };
        const known = listOfStrings((await single(tx, MERGE_SCOPE, tenant)).get('customNodeTypes'));
        const slots = needsNewCustomSlots(known, appearing)
          ? listOfStrings((await single(tx, ASSIGN_CUSTOM_NODE_TYPES, { ...tenant, nodeTypes: appearing, slots: toNeo4jInteger(CUSTOM_NODE_SLOTS) })).get('customNodeTypes'))
          : known;
        await writeRows(tx, tenant, plainRows ?? toWriteRows(changes, slots), slots);
      }),
    );
  }

  async scopes(): Promise<GraphScope[]> {
    return this.withSession(neo4j.session.READ, async (session) => {
      const { records } = await session.run(SELECT_SCOPES);
      return records.map((record) => ({ accountId: String(record.get('accountId')), environment: String(record.get('environment')) }));
    });
  }

  async customNodeTypes(scope: GraphScope): Promise<string[]> {
    return this.withSession(neo4j.session.READ, async (session) => {
      const { records } = await session.run(SELECT_CUSTOM_NODE_TYPES, { accountId: scope.accountId, environment: scope.environment });
      return records.length === 0 ? [] : listOfStrings(records[0].get('customNodeTypes'));
    });
  }

  /**
   * One ordered statement per part, each streamed: the driver pulls `batchSize` records at a
   * time and pauses while the caller works on a batch, so memory stays bounded by it.
   */
  async *load(scope: GraphScope, batchSize = DEFAULT_LOAD_BATCH_SIZE): AsyncIterable<GraphChange[]> {
    requireBatchSize(batchSize);
    const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.READ, fetchSize: batchSize });
    const stream = (query: string, toChange: (record: LoadRecord) => GraphChange) =>
      batches(session.run(query, { accountId: scope.accountId, environment: scope.environment }), batchSize, toChange);
    try {
      for (const [query, toChange] of LOAD_PARTS) yield* stream(query, toChange);
    } finally {
      await session.close();
    }
  }

  private async withSession<T>(accessMode: 'READ' | 'WRITE', work: (session: Session) => Promise<T>): Promise<T> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: accessMode });
    try {
      return await work(session);
    } finally {
      await session.close();
    }
  }
}

async function writeRows(tx: ManagedTransaction, tenant: { accountId: string; environment: string }, rows: GraphWriteRows, slots: readonly string[]): Promise<void> {
  for (const [kind, nodes] of byKind(rows.nodes)) {
    for (const chunk of chunks(nodes, NEO4J_CHUNK_ROWS)) {
      const identities = chunk.map((node) => node.identity);
      const slot = customSlotOf(kind);
      if (slot === 0) await tx.run(MERGE_NODES[kind as FixedNodeKind], { ...tenant, kind, identities });
      else await tx.run(MERGE_CUSTOM_NODES, { ...tenant, kind, identities, nodeType: slots[slot - 1], slot: toNeo4jInteger(slot) });
    }
  }
  for (const chunk of chunks(rows.links, NEO4J_CHUNK_ROWS)) {
    await tx.run(MERGE_LINKS, { ...tenant, links: chunk.map((link) => ({ ...link, firstSeenMs: toNeo4jInteger(link.firstSeenMs) })) });
  }
  for (const chunk of chunks(rows.labels, NEO4J_CHUNK_ROWS)) {
    await tx.run(SET_LABELS, { ...tenant, labels: chunk.map((label) => ({ ...label, atMs: toNeo4jInteger(label.atMs) })) });
  }
  for (const chunk of chunks(rows.chargebacks, NEO4J_CHUNK_ROWS)) {
    await tx.run(SET_CHARGEBACKS, { ...tenant, chargebacks: chunk.map((chargeback) => ({ ...chargeback, atMs: toNeo4jInteger(chargeback.atMs) })) });
  }
  for (const chunk of chunks(rows.tags, NEO4J_CHUNK_ROWS)) {
    await tx.run(MERGE_TAGS, { ...tenant, tags: chunk.map((tag) => ({ ...tag, atMs: toNeo4jInteger(tag.atMs) })) });
  }
  for (const chunk of chunks(rows.redemptions, NEO4J_CHUNK_ROWS)) {
    await tx.run(MERGE_REDEMPTIONS, {
      ...tenant,
      redemptions: chunk.map((redemption) => ({
        ...redemption,
        redemptionTimeMs: toNeo4jInteger(redemption.redemptionTimeMs),
        atMs: toNeo4jInteger(redemption.atMs),
      })),
    });
  }
  for (const chunk of chunks(rows.transactionOwners, NEO4J_CHUNK_ROWS)) {
    await tx.run(MERGE_TRANSACTION_OWNERS, { ...tenant, owners: chunk.map((owner) => ({ ...owner, firstSeenMs: toNeo4jInteger(owner.firstSeenMs) })) });
  }
  for (const chunk of chunks(rows.disputes, NEO4J_CHUNK_ROWS)) {
    await tx.run(MERGE_DISPUTES, { ...tenant, disputes: chunk.map((dispute) => ({ ...dispute, firstSeenMs: toNeo4jInteger(dispute.firstSeenMs) })) });
  }
  for (const chunk of chunks(rows.merchantCustomers, NEO4J_CHUNK_ROWS)) {
    await tx.run(MERGE_MERCHANT_CUSTOMERS, { ...tenant, merchantCustomers: chunk.map((paid) => ({ ...paid, firstSeenMs: toNeo4jInteger(paid.firstSeenMs) })) });
  }
}

/** The statement's one record (MERGE_SCOPE and ASSIGN_CUSTOM_NODE_TYPES always return one). */
async function single(tx: ManagedTransaction, query: string, parameters: Record<string, unknown>): Promise<LoadRecord> {
  const { records } = await tx.run(query, parameters);
  if (records.length !== 1) throw new Error(`expected one record from the graph store, got ${records.length}`);
  return records[0];
}

/** Nodes grouped by kind, each group still in key order (the rows come sorted). */
function byKind(nodes: readonly NodeRow[]): Map<NodeKind, NodeRow[]> {
  const groups = new Map<NodeKind, NodeRow[]>();
  for (const node of nodes) {
    const group = groups.get(node.kind);
    if (group === undefined) groups.set(node.kind, [node]);
    else group.push(node);
  }
  return groups;
}

/** Records of one result in batches of `batchSize`, pulled as the caller asks for them. */
async function* batches(result: AsyncIterable<LoadRecord>, batchSize: number, toChange: (record: LoadRecord) => GraphChange): AsyncIterable<GraphChange[]> {
  let batch: GraphChange[] = [];
  for await (const record of result) {
    batch.push(toChange(record));
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** A stored node as payloads name it: a slot kind back to its custom type. */
function nodeRef(kind: unknown, identity: unknown, nodeType: unknown): GraphNodeRef {
  if (customSlotOf(kind as NodeKind) === 0) return { kind: kind as FixedNodeKind, identity: String(identity) };
  if (typeof nodeType !== 'string') throw new Error(`custom graph node ${String(identity)} without a nodeType`);
  return { kind: 'custom', nodeType, identity: String(identity) };
}


function listOfStrings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map(String);
}
