import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which customers paid at each merchant (`transaction.mid`), for the graph's merchant fraud
 * rates (`MerchantCustomers` of `@ringfence/graph-engine`): one row per merchant and customer,
 * with the earliest time the pair was seen. Merchants are no graph nodes (they would join every
 * customer into one network), so this is not an edge table. Keyed by tenant first, like every
 * `graph_*` table, key columns `COLLATE "C"` for the same page order on every locale.
 *
 * The tables' keys to the gateway's `accounts`, which this first declared, are left out: a
 * service's own database has no `accounts`, and `ServiceTablesWithoutAccountKeys1765700000000`
 * (and its split parts) dropped them from every database that had them.
 */
export class GraphMerchantCustomers1764900000000 implements MigrationInterface {
  readonly name = 'GraphMerchantCustomers1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE graph_merchant_customers (
        account_id text NOT NULL,
        environment text NOT NULL,
        merchant_id text COLLATE "C" NOT NULL,
        customer_id text COLLATE "C" NOT NULL,
        first_seen_ms bigint NOT NULL,
        CONSTRAINT pk_graph_merchant_customers PRIMARY KEY (account_id, environment, merchant_id, customer_id),
        CONSTRAINT chk_graph_merchant_customers_environment CHECK (environment IN ('test', 'live'))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE graph_merchant_customers`);
  }
}
