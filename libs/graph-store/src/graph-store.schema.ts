import type { OwnedSchema } from '@ringfence/persistence';
import { GraphStore1764300000000 } from './migrations/1764300000000-graph-store.migration';
import { GraphTransactionDisputes1764400000000 } from './migrations/1764400000000-graph-transaction-disputes.migration';
import { GraphMerchantCustomers1764900000000 } from './migrations/1764900000000-graph-merchant-customers.migration';
import { ServiceTablesWithoutAccountKeys1765700000000 } from './migrations/1765700000000-service-tables-without-account-keys.migration';

/** The graph's store of record in the relational database (`TypeOrmGraphStore`). No entities: the adapter writes raw SQL. */
export const GRAPH_STORE_SCHEMA: OwnedSchema = {
  owner: 'graph',
  entities: [],
  migrations: [GraphStore1764300000000, GraphTransactionDisputes1764400000000, GraphMerchantCustomers1764900000000, ServiceTablesWithoutAccountKeys1765700000000],
};
