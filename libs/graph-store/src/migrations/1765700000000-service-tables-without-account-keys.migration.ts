import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account registry (`accounts`) is the gateway's. The tables of the other services (the
 * graph's, the lookup's, the review callbacks') referred to it by foreign key, so they could
 * live only in the gateway's database, and a row of theirs needed the gateway's row first. They
 * take the account id of the request the gateway authenticated instead (docs/architecture.md,
 * "Each service owns its data"), so the keys go. `api_keys` keeps its key: it is the gateway's.
 *
 * The graph's part; the lookup's (`LookupIndicatorsWithoutAccountKey1765700000000`) and the
 * review callbacks' (`CallbackDeliveriesWithoutAccountKey1765700000000`) are split from it under
 * this name (`SplitMigration` of `@ringfence/persistence`). The migrations that create the tables
 * no longer declare the keys (a new service database has no `accounts`), so on a new database
 * there is nothing to drop: `IF EXISTS`.
 */
export const ACCOUNT_KEYS_OF_SERVICE_TABLES: ReadonlyArray<readonly [table: string, constraint: string]> = [
  ['graph_custom_node_types', 'fk_graph_custom_node_types_account'],
  ['graph_nodes', 'fk_graph_nodes_account'],
  ['graph_edges', 'fk_graph_edges_account'],
  ['graph_labels', 'fk_graph_labels_account'],
  ['graph_chargebacks', 'fk_graph_chargebacks_account'],
  ['graph_tags', 'fk_graph_tags_account'],
  ['graph_redemptions', 'fk_graph_redemptions_account'],
  ['graph_transaction_owners', 'fk_graph_transaction_owners_account'],
  ['graph_disputes', 'fk_graph_disputes_account'],
  ['graph_merchant_customers', 'fk_graph_merchant_customers_account'],
];

export class ServiceTablesWithoutAccountKeys1765700000000 implements MigrationInterface {
  readonly name = 'ServiceTablesWithoutAccountKeys1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, constraint] of ACCOUNT_KEYS_OF_SERVICE_TABLES) await queryRunner.query(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${constraint}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, constraint] of ACCOUNT_KEYS_OF_SERVICE_TABLES) {
      await queryRunner.query(`ALTER TABLE ${table} ADD CONSTRAINT ${constraint} FOREIGN KEY (account_id) REFERENCES accounts (id)`);
    }
  }
}
