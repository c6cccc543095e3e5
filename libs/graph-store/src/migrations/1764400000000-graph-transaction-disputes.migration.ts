import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PSP transactions' customers and the disputes of those transactions, for the graph's store of
 * record (`TypeOrmGraphStore` of `@ringfence/graph-store`). A dispute names only its
 * transaction, and the transaction's customer arrives on another topic, in either order: the
 * graph keeps both facts and links customer and chargeback once it knows both, so a rebuild
 * needs both tables (the derived edge is not stored). Keyed by tenant first, like every
 * `graph_*` table; key columns `COLLATE "C"` for the same page order on every locale; times are
 * epoch milliseconds, the earliest first-seen time of the pair.
 *
 * The tables' keys to the gateway's `accounts`, which this first declared, are left out: a
 * service's own database has no `accounts`, and `ServiceTablesWithoutAccountKeys1765700000000`
 * (and its split parts) dropped them from every database that had them.
 */
export class GraphTransactionDisputes1764400000000 implements MigrationInterface {
  readonly name = 'GraphTransactionDisputes1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE graph_transaction_owners (
        account_id text NOT NULL,
        environment text NOT NULL,
        transaction_id text COLLATE "C" NOT NULL,
        customer_id text COLLATE "C" NOT NULL,
        first_seen_ms bigint NOT NULL,
        CONSTRAINT pk_graph_transaction_owners PRIMARY KEY (account_id, environment, transaction_id, customer_id),
        CONSTRAINT chk_graph_transaction_owners_environment CHECK (environment IN ('test', 'live'))
      )`);
    await queryRunner.query(`
      CREATE TABLE graph_disputes (
        account_id text NOT NULL,
        environment text NOT NULL,
        transaction_id text COLLATE "C" NOT NULL,
        chargeback_id text COLLATE "C" NOT NULL,
        first_seen_ms bigint NOT NULL,
        CONSTRAINT pk_graph_disputes PRIMARY KEY (account_id, environment, transaction_id, chargeback_id),
        CONSTRAINT chk_graph_disputes_environment CHECK (environment IN ('test', 'live'))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE graph_disputes`);
    await queryRunner.query(`DROP TABLE graph_transaction_owners`);
  }
}
