export { TypeOrmGraphStore } from './typeorm/typeorm-graph.store';
export { Neo4jGraphStore } from './neo4j/neo4j-graph.store';
export {
  type Neo4jConnectionOptions,
  createNeo4jDriver,
  NEO4J_ACQUISITION_TIMEOUT_MS,
  NEO4J_CONNECTION_TIMEOUT_MS,
  NEO4J_MAX_RETRY_TIME_MS,
  NEO4J_POOL_SIZE,
} from './neo4j/neo4j-driver.factory';
export { DEFAULT_LOAD_BATCH_SIZE } from './load-batch-size';
export { isGraphWriteRefusal } from './graph-write-refusal';
export { GraphStoreModule } from './graph-store.module';
export { GRAPH_STORE_SCHEMA } from './graph-store.schema';
