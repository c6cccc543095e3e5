import type { MigrationInterface, QueryRunner } from 'typeorm';

const NODE_KINDS =
  "'customer', 'card', 'email', 'phone', 'device', 'vehicle', 'identification', " +
  "'customNode1', 'customNode2', 'customNode3', 'customNode4', 'customNode5', 'supplier', 'chargeback'";

/**
 * The graph's store of record in the embedded mode (ADR-0004; `TypeOrmGraphStore` of
 * `@ringfence/graph-store`). Every table is keyed by tenant (account, environment) first.
 * Custom nodes are stored under their slot kind (`customNode1..5`); `graph_custom_node_types`
 * maps the slots to node types. An undirected edge is one row, its endpoints in canonical
 * order. Key columns are `COLLATE "C"`: byte order, the same on PGlite and on any PostgreSQL
 * locale (so the keyset pages of a rebuild come in the same order everywhere), and cheaper
 * to compare. Times are epoch milliseconds (bigint). No entities: the adapter writes raw SQL.
 *
 * The tables' keys to the gateway's `accounts`, which this first declared, are left out: a
 * service's own database has no `accounts`, and `ServiceTablesWithoutAccountKeys1765700000000`
 * (and its split parts) dropped them from every database that had them.
 */
export class GraphStore1764300000000 implements MigrationInterface {
  readonly name = 'GraphStore1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE graph_custom_node_types (
        account_id text NOT NULL,
        environment text NOT NULL,
        slot smallint NOT NULL,
        node_type text NOT NULL,
        CONSTRAINT pk_graph_custom_node_types PRIMARY KEY (account_id, environment, slot),
        CONSTRAINT uq_graph_custom_node_types_node_type UNIQUE (account_id, environment, node_type),
        CONSTRAINT chk_graph_custom_node_types_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_graph_custom_node_types_slot CHECK (slot BETWEEN 1 AND 5)
      )`);
    await queryRunner.query(`
      CREATE TABLE graph_nodes (
        account_id text NOT NULL,
        environment text NOT NULL,
        kind text COLLATE "C" NOT NULL,
        identity text COLLATE "C" NOT NULL,
        CONSTRAINT pk_graph_nodes PRIMARY KEY (account_id, environment, kind, identity),
        CONSTRAINT chk_graph_nodes_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_graph_nodes_kind CHECK (kind IN (${NODE_KINDS}))
      )`);
    // No foreign keys to graph_nodes: the adapter writes both endpoints in the same
    // transaction, and two more index probes per edge would slow down the bulk writes.
    await queryRunner.query(`
      CREATE TABLE graph_edges (
        account_id text NOT NULL,
        environment text NOT NULL,
        a_kind text COLLATE "C" NOT NULL,
        a_identity text COLLATE "C" NOT NULL,
        b_kind text COLLATE "C" NOT NULL,
        b_identity text COLLATE "C" NOT NULL,
        first_seen_ms bigint NOT NULL,
        CONSTRAINT pk_graph_edges PRIMARY KEY (account_id, environment, a_kind, a_identity, b_kind, b_identity),
        CONSTRAINT chk_graph_edges_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_graph_edges_a_kind CHECK (a_kind IN (${NODE_KINDS})),
        CONSTRAINT chk_graph_edges_b_kind CHECK (b_kind IN (${NODE_KINDS}))
      )`);
    // A rebuild reads the edges earliest first, in keyset pages: this index is that order.
    await queryRunner.query(
      `CREATE INDEX idx_graph_edges_first_seen ON graph_edges (account_id, environment, first_seen_ms, a_kind, a_identity, b_kind, b_identity)`,
    );
    await queryRunner.query(`
      CREATE TABLE graph_labels (
        account_id text NOT NULL,
        environment text NOT NULL,
        customer_id text COLLATE "C" NOT NULL,
        label text NULL,
        at_ms bigint NOT NULL,
        CONSTRAINT pk_graph_labels PRIMARY KEY (account_id, environment, customer_id),
        CONSTRAINT chk_graph_labels_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(`
      CREATE TABLE graph_chargebacks (
        account_id text NOT NULL,
        environment text NOT NULL,
        chargeback_id text COLLATE "C" NOT NULL,
        forgiven boolean NOT NULL,
        at_ms bigint NOT NULL,
        CONSTRAINT pk_graph_chargebacks PRIMARY KEY (account_id, environment, chargeback_id),
        CONSTRAINT chk_graph_chargebacks_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(`
      CREATE TABLE graph_tags (
        account_id text NOT NULL,
        environment text NOT NULL,
        customer_id text COLLATE "C" NOT NULL,
        name text COLLATE "C" NOT NULL,
        value boolean NOT NULL,
        at_ms bigint NOT NULL,
        CONSTRAINT pk_graph_tags PRIMARY KEY (account_id, environment, customer_id, name),
        CONSTRAINT chk_graph_tags_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(`
      CREATE TABLE graph_redemptions (
        account_id text NOT NULL,
        environment text NOT NULL,
        customer_id text COLLATE "C" NOT NULL,
        voucher_code text COLLATE "C" NOT NULL,
        redemption_time_ms bigint NOT NULL,
        success boolean NOT NULL,
        at_ms bigint NOT NULL,
        CONSTRAINT pk_graph_redemptions PRIMARY KEY (account_id, environment, customer_id, voucher_code, redemption_time_ms),
        CONSTRAINT chk_graph_redemptions_environment CHECK (environment IN ('test', 'live'))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE graph_redemptions`);
    await queryRunner.query(`DROP TABLE graph_tags`);
    await queryRunner.query(`DROP TABLE graph_chargebacks`);
    await queryRunner.query(`DROP TABLE graph_labels`);
    await queryRunner.query(`DROP TABLE graph_edges`);
    await queryRunner.query(`DROP TABLE graph_nodes`);
    await queryRunner.query(`DROP TABLE graph_custom_node_types`);
  }
}
