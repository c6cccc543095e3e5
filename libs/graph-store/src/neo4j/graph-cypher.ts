import { CUSTOM_NODE_KINDS, type FixedNodeKind, NODE_KINDS, type NodeKind } from '@ringfence/graph-engine';

/**
 * Every Cypher statement of `Neo4jGraphStore`, for Neo4j 5 (and Grafeo, the embedded engine of
 * the tests' Bolt server: README "Cypher"). Every statement names the tenant ($accountId,
 * $environment) in the first pattern it matches or merges. Values always travel as parameters;
 * the only text that varies is a node label, taken from `KIND_LABELS` (never from input).
 *
 * The model, for analysts:
 * - `(:GraphNode {accountId, environment, kind, identity})`, plus one label per kind
 *   (`KIND_LABELS`); custom nodes are `:CustomNode` with `kind` = `customNode1..5`, `nodeType`
 *   and `slot`. Customers carry their PAYMENT_FRAUD label as `paymentFraudLabel` (absent: no
 *   label) and `labelAtMs`; chargebacks `forgiven` and `stateAtMs`.
 * - `(a)-[:LINKED {firstSeenMs}]->(b)`: one relationship per undirected pair, directed from the
 *   endpoint that sorts first by (kind, identity); query it without direction.
 * - `(:Customer)-[:HAS_TAG]->(:CustomerTag {accountId, environment, customerId, name, value, atMs})`
 * - `(:Customer)-[:REDEEMED]->(:VoucherRedemption {accountId, environment, customerId,
 *   voucherCode, redemptionTimeMs, success, atMs})`
 * - `(:Customer)-[:OWNS {firstSeenMs}]->(:PspTransaction {accountId, environment, transactionId})`
 *   and `(:Chargeback)-[:DISPUTES {firstSeenMs}]->(:PspTransaction)`: a PSP dispute names only its
 *   transaction, so its chargeback reaches the customer through the transaction (the index links
 *   them directly; that derived edge is not stored as `:LINKED`).
 * - `(:GraphScope {accountId, environment, customNodeTypes})`: one per tenant with graph data;
 *   `customNodeTypes[i]` holds slot i + 1.
 * Times are integers, epoch milliseconds.
 */

/** The label of each node kind, next to `:GraphNode`. */
export const KIND_LABELS: Readonly<Record<NodeKind, string>> = {
  customer: 'Customer',
  card: 'Card',
  email: 'Email',
  phone: 'Phone',
  device: 'Device',
  vehicle: 'Vehicle',
  identification: 'Identification',
  customNode1: 'CustomNode',
  customNode2: 'CustomNode',
  customNode3: 'CustomNode',
  customNode4: 'CustomNode',
  customNode5: 'CustomNode',
  supplier: 'Supplier',
  chargeback: 'Chargeback',
};

/**
 * `ensureSchema`, one statement per transaction (Neo4j refuses schema and data changes in one).
 * `IF NOT EXISTS` makes each a no-op the second time. The uniqueness constraints are what make
 * concurrent MERGEs safe (without one, two transactions can both create the node) and give the
 * index every write looks nodes up by; the scope indexes serve `load`'s per-tenant scans.
 */
export const SCHEMA_STATEMENTS: readonly string[] = [
  'CREATE CONSTRAINT graph_node_key IF NOT EXISTS FOR (n:GraphNode) REQUIRE (n.accountId, n.environment, n.kind, n.identity) IS UNIQUE',
  'CREATE CONSTRAINT graph_scope_key IF NOT EXISTS FOR (s:GraphScope) REQUIRE (s.accountId, s.environment) IS UNIQUE',
  'CREATE CONSTRAINT customer_tag_key IF NOT EXISTS FOR (t:CustomerTag) REQUIRE (t.accountId, t.environment, t.customerId, t.name) IS UNIQUE',
  'CREATE CONSTRAINT voucher_redemption_key IF NOT EXISTS FOR (r:VoucherRedemption) REQUIRE (r.accountId, r.environment, r.customerId, r.voucherCode, r.redemptionTimeMs) IS UNIQUE',
  'CREATE CONSTRAINT psp_transaction_key IF NOT EXISTS FOR (t:PspTransaction) REQUIRE (t.accountId, t.environment, t.transactionId) IS UNIQUE',
  'CREATE CONSTRAINT merchant_key IF NOT EXISTS FOR (m:Merchant) REQUIRE (m.accountId, m.environment, m.merchantId) IS UNIQUE',
  'CREATE INDEX graph_node_scope IF NOT EXISTS FOR (n:GraphNode) ON (n.accountId, n.environment)',
  'CREATE INDEX customer_tag_scope IF NOT EXISTS FOR (t:CustomerTag) ON (t.accountId, t.environment)',
  'CREATE INDEX voucher_redemption_scope IF NOT EXISTS FOR (r:VoucherRedemption) ON (r.accountId, r.environment)',
  'CREATE INDEX psp_transaction_scope IF NOT EXISTS FOR (t:PspTransaction) ON (t.accountId, t.environment)',
  'CREATE INDEX merchant_scope IF NOT EXISTS FOR (m:Merchant) ON (m.accountId, m.environment)',
];

// Every write starts here: the tenant's scope node (what `scopes()` lists) and its slots. On an
// existing node MERGE only reads, so writers of one tenant do not queue behind each other.
export const MERGE_SCOPE = `
  MERGE (s:GraphScope {accountId: $accountId, environment: $environment})
    ON CREATE SET s.customNodeTypes = []
  RETURN s.customNodeTypes AS customNodeTypes`;

// Gives new types ($nodeTypes, in order of first appearance) the free slots, five at most.
// The right-hand side reads s.customNodeTypes, so Neo4j takes the node's write lock *before*
// reading it (a "direct dependency"): two writers take turns and the second sees the first's
// slots, instead of both appending to the same old list.
export const ASSIGN_CUSTOM_NODE_TYPES = `
  MATCH (s:GraphScope {accountId: $accountId, environment: $environment})
  SET s.customNodeTypes = s.customNodeTypes
      + [nodeType IN $nodeTypes WHERE NOT nodeType IN s.customNodeTypes][0..($slots - size(s.customNodeTypes))]
  RETURN s.customNodeTypes AS customNodeTypes`;

// The nodes of one fixed kind ($identities); the kind's label is set on creation only, so a
// replay writes nothing.
const mergeNodes = (label: string) => `
  UNWIND $identities AS identity
  MERGE (n:GraphNode {accountId: $accountId, environment: $environment, kind: $kind, identity: identity})
    ON CREATE SET n:${label}`;

/** Per fixed kind, the statement that merges its nodes (custom kinds: `MERGE_CUSTOM_NODES`). */
export const MERGE_NODES = Object.fromEntries(
  NODE_KINDS.filter((kind) => !(CUSTOM_NODE_KINDS as readonly string[]).includes(kind)).map((kind) => [kind, mergeNodes(KIND_LABELS[kind])]),
) as Readonly<Record<FixedNodeKind, string>>;

// The nodes of one custom slot ($kind = customNode<$slot>, of type $nodeType).
export const MERGE_CUSTOM_NODES = `
  UNWIND $identities AS identity
  MERGE (n:GraphNode {accountId: $accountId, environment: $environment, kind: $kind, identity: identity})
    ON CREATE SET n:CustomNode, n.nodeType = $nodeType, n.slot = $slot`;

// Edges between nodes merged earlier in the same transaction; the kinds are values here, so
// one statement serves every kind pair. The canonical direction makes MERGE find the pair's one
// relationship (Neo4j locks both endpoints before creating it, so concurrent writers cannot
// create two). The earliest first-seen time wins; reading r.firstSeenMs on the right-hand side
// locks the relationship first.
export const MERGE_LINKS = `
  UNWIND $links AS link
  MATCH (a:GraphNode {accountId: $accountId, environment: $environment, kind: link.kindA, identity: link.identityA})
  MATCH (b:GraphNode {accountId: $accountId, environment: $environment, kind: link.kindB, identity: link.identityB})
  MERGE (a)-[r:LINKED]->(b)
    ON CREATE SET r.firstSeenMs = link.firstSeenMs
    ON MATCH SET r.firstSeenMs = CASE WHEN link.firstSeenMs < r.firstSeenMs THEN link.firstSeenMs ELSE r.firstSeenMs END`;

// Newest-or-equal wins. Both items read c.labelAtMs on their right-hand side (so the lock comes
// first) and the first leaves it unchanged, so both compare with the stored time. A null
// label removes the property; labelAtMs stays and records when.
export const SET_LABELS = `
  UNWIND $labels AS label
  MATCH (c:GraphNode {accountId: $accountId, environment: $environment, kind: 'customer', identity: label.customerId})
  SET c.paymentFraudLabel = CASE WHEN c.labelAtMs IS NULL OR c.labelAtMs <= label.atMs THEN label.label ELSE c.paymentFraudLabel END,
      c.labelAtMs = CASE WHEN c.labelAtMs IS NULL OR c.labelAtMs <= label.atMs THEN label.atMs ELSE c.labelAtMs END`;

// Same rule as labels.
export const SET_CHARGEBACKS = `
  UNWIND $chargebacks AS chargeback
  MATCH (c:GraphNode {accountId: $accountId, environment: $environment, kind: 'chargeback', identity: chargeback.chargebackId})
  SET c.forgiven = CASE WHEN c.stateAtMs IS NULL OR c.stateAtMs <= chargeback.atMs THEN chargeback.forgiven ELSE c.forgiven END,
      c.stateAtMs = CASE WHEN c.stateAtMs IS NULL OR c.stateAtMs <= chargeback.atMs THEN chargeback.atMs ELSE c.stateAtMs END`;

// One node per (customer, tag name); same rule as labels.
export const MERGE_TAGS = `
  UNWIND $tags AS tag
  MATCH (c:GraphNode {accountId: $accountId, environment: $environment, kind: 'customer', identity: tag.customerId})
  MERGE (t:CustomerTag {accountId: $accountId, environment: $environment, customerId: tag.customerId, name: tag.name})
  MERGE (c)-[:HAS_TAG]->(t)
  SET t.value = CASE WHEN t.atMs IS NULL OR t.atMs <= tag.atMs THEN tag.value ELSE t.value END,
      t.atMs = CASE WHEN t.atMs IS NULL OR t.atMs <= tag.atMs THEN tag.atMs ELSE t.atMs END`;

// One node per (customer, voucher code, redemption time); same rule as labels.
export const MERGE_REDEMPTIONS = `
  UNWIND $redemptions AS redemption
  MATCH (c:GraphNode {accountId: $accountId, environment: $environment, kind: 'customer', identity: redemption.customerId})
  MERGE (r:VoucherRedemption {accountId: $accountId, environment: $environment, customerId: redemption.customerId,
                              voucherCode: redemption.voucherCode, redemptionTimeMs: redemption.redemptionTimeMs})
  MERGE (c)-[:REDEEMED]->(r)
  SET r.success = CASE WHEN r.atMs IS NULL OR r.atMs <= redemption.atMs THEN redemption.success ELSE r.success END,
      r.atMs = CASE WHEN r.atMs IS NULL OR r.atMs <= redemption.atMs THEN redemption.atMs ELSE r.atMs END`;

// A PSP transaction's customer: one node per transaction, one relationship per customer with
// its earliest first-seen time (reading r.firstSeenMs on the right-hand side locks it first).
export const MERGE_TRANSACTION_OWNERS = `
  UNWIND $owners AS owner
  MATCH (c:GraphNode {accountId: $accountId, environment: $environment, kind: 'customer', identity: owner.customerId})
  MERGE (t:PspTransaction {accountId: $accountId, environment: $environment, transactionId: owner.transactionId})
  MERGE (c)-[r:OWNS]->(t)
    ON CREATE SET r.firstSeenMs = owner.firstSeenMs
    ON MATCH SET r.firstSeenMs = CASE WHEN owner.firstSeenMs < r.firstSeenMs THEN owner.firstSeenMs ELSE r.firstSeenMs END`;

// A dispute of a PSP transaction; same rule.
export const MERGE_DISPUTES = `
  UNWIND $disputes AS dispute
  MATCH (c:GraphNode {accountId: $accountId, environment: $environment, kind: 'chargeback', identity: dispute.chargebackId})
  MERGE (t:PspTransaction {accountId: $accountId, environment: $environment, transactionId: dispute.transactionId})
  MERGE (c)-[r:DISPUTES]->(t)
    ON CREATE SET r.firstSeenMs = dispute.firstSeenMs
    ON MATCH SET r.firstSeenMs = CASE WHEN dispute.firstSeenMs < r.firstSeenMs THEN dispute.firstSeenMs ELSE r.firstSeenMs END`;

// A merchant's customer: one node per merchant, one relationship per customer with its
// earliest first-seen time (as for transaction owners). Merchants are not GraphNodes: they join
// no network.
export const MERGE_MERCHANT_CUSTOMERS = `
  UNWIND $merchantCustomers AS paid
  MATCH (c:GraphNode {accountId: $accountId, environment: $environment, kind: 'customer', identity: paid.customerId})
  MERGE (m:Merchant {accountId: $accountId, environment: $environment, merchantId: paid.merchantId})
  MERGE (c)-[r:PAID_AT]->(m)
    ON CREATE SET r.firstSeenMs = paid.firstSeenMs
    ON MATCH SET r.firstSeenMs = CASE WHEN paid.firstSeenMs < r.firstSeenMs THEN paid.firstSeenMs ELSE r.firstSeenMs END`;

// Every tenant that was written to (each write merges its scope node first).
export const SELECT_SCOPES = `
  MATCH (s:GraphScope)
  RETURN s.accountId AS accountId, s.environment AS environment
  ORDER BY accountId, environment`;

export const SELECT_CUSTOM_NODE_TYPES = `
  MATCH (s:GraphScope {accountId: $accountId, environment: $environment})
  RETURN s.customNodeTypes AS customNodeTypes`;

// `load`, one ordered statement per part, streamed by the driver in pages of the batch size.
export const LOAD_NODES = `
  MATCH (n:GraphNode {accountId: $accountId, environment: $environment})
  RETURN n.kind AS kind, n.identity AS identity, n.nodeType AS nodeType
  ORDER BY kind, identity`;

// Earliest first, ties by the endpoints; the stored direction gives the canonical endpoint order.
export const LOAD_LINKS = `
  MATCH (a:GraphNode {accountId: $accountId, environment: $environment})-[r:LINKED]->(b:GraphNode)
  RETURN a.kind AS kindA, a.identity AS identityA, a.nodeType AS nodeTypeA,
         b.kind AS kindB, b.identity AS identityB, b.nodeType AS nodeTypeB, r.firstSeenMs AS firstSeenMs
  ORDER BY firstSeenMs, kindA, identityA, kindB, identityB`;

export const LOAD_LABELS = `
  MATCH (c:GraphNode {accountId: $accountId, environment: $environment, kind: 'customer'})
  WHERE c.labelAtMs IS NOT NULL
  RETURN c.identity AS customerId, c.paymentFraudLabel AS label, c.labelAtMs AS atMs
  ORDER BY customerId`;

export const LOAD_CHARGEBACKS = `
  MATCH (c:GraphNode {accountId: $accountId, environment: $environment, kind: 'chargeback'})
  WHERE c.stateAtMs IS NOT NULL
  RETURN c.identity AS chargebackId, c.forgiven AS forgiven, c.stateAtMs AS atMs
  ORDER BY chargebackId`;

export const LOAD_TAGS = `
  MATCH (t:CustomerTag {accountId: $accountId, environment: $environment})
  RETURN t.customerId AS customerId, t.name AS name, t.value AS value, t.atMs AS atMs
  ORDER BY customerId, name`;

export const LOAD_REDEMPTIONS = `
  MATCH (r:VoucherRedemption {accountId: $accountId, environment: $environment})
  RETURN r.customerId AS customerId, r.voucherCode AS voucherCode, r.redemptionTimeMs AS redemptionTimeMs,
         r.success AS success, r.atMs AS atMs
  ORDER BY customerId, voucherCode, redemptionTimeMs`;

export const LOAD_TRANSACTION_OWNERS = `
  MATCH (t:PspTransaction {accountId: $accountId, environment: $environment})<-[r:OWNS]-(c:GraphNode)
  RETURN t.transactionId AS transactionId, c.identity AS customerId, r.firstSeenMs AS firstSeenMs
  ORDER BY transactionId, customerId`;

export const LOAD_DISPUTES = `
  MATCH (t:PspTransaction {accountId: $accountId, environment: $environment})<-[r:DISPUTES]-(c:GraphNode)
  RETURN t.transactionId AS transactionId, c.identity AS chargebackId, r.firstSeenMs AS firstSeenMs
  ORDER BY transactionId, chargebackId`;

export const LOAD_MERCHANT_CUSTOMERS = `
  MATCH (m:Merchant {accountId: $accountId, environment: $environment})<-[r:PAID_AT]-(c:GraphNode)
  RETURN m.merchantId AS merchantId, c.identity AS customerId, r.firstSeenMs AS firstSeenMs
  ORDER BY merchantId, customerId`;
