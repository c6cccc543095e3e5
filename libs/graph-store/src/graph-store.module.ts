import { Module } from '@nestjs/common';
import { OwnsTables } from '@ringfence/persistence';
import { GRAPH_STORE_SCHEMA } from './graph-store.schema';

/**
 * The graph's tables. The graph service chooses its store of record (Neo4j when configured, else
 * `TypeOrmGraphStore` over these tables); importing this module puts the tables in its database.
 */
@OwnsTables(GRAPH_STORE_SCHEMA)
@Module({})
export class GraphStoreModule {}
