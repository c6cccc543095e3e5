import neo4j, { type Driver } from 'neo4j-driver';

export interface Neo4jConnectionOptions {
  /** bolt:// or neo4j:// (with +s / +ssc for TLS). */
  url: string;
  username: string;
  password: string;
}

/** A server that does not answer fails a connection attempt within this. */
export const NEO4J_CONNECTION_TIMEOUT_MS = 5_000;
/** Connections per process: the graph service writes one tenant batch at a time, plus reads. */
export const NEO4J_POOL_SIZE = 10;
/** A caller waiting for a free pooled connection fails after this. */
export const NEO4J_ACQUISITION_TIMEOUT_MS = 10_000;
/** How long `executeWrite` keeps retrying transient failures (deadlocks, leader switches). */
export const NEO4J_MAX_RETRY_TIME_MS = 15_000;

/**
 * The driver of the distributed mode's graph store. Connections open lazily (the first query,
 * or `Neo4jGraphStore.ensureSchema` at start). Integers arrive as numbers
 * (`disableLosslessIntegers`): every integer this store keeps is epoch milliseconds or a slot,
 * far below 2^53.
 */
export function createNeo4jDriver(options: Neo4jConnectionOptions): Driver {
  return neo4j.driver(options.url, neo4j.auth.basic(options.username, options.password), {
    connectionTimeout: NEO4J_CONNECTION_TIMEOUT_MS,
    maxConnectionPoolSize: NEO4J_POOL_SIZE,
    connectionAcquisitionTimeout: NEO4J_ACQUISITION_TIMEOUT_MS,
    maxTransactionRetryTime: NEO4J_MAX_RETRY_TIME_MS,
    disableLosslessIntegers: true,
    userAgent: 'ringfence',
  });
}
