import { TransactionGate } from './transaction-gate';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { GrafeoDB } from '@grafeo-db/js';
import { BoltConnection } from './bolt-connection';

/**
 * A Bolt server over an in-memory Grafeo database, for tests of code that talks to Neo4j
 * through neo4j-driver. Test tooling only; see README.md in this folder for what it speaks and
 * where it differs from Neo4j.
 */

export interface BoltServerOptions {
  /** The interface to listen on; 127.0.0.1 by default. */
  host?: string;
  /** 0 (the default) takes a free port. */
  port?: number;
}

export interface BoltTestServer {
  /** bolt://<host>:<port>; a neo4j:// URL to the same address works too (routing to itself). */
  url: string;
  port: number;
  /** The server's database, to seed or inspect the graph without a driver. */
  database: GrafeoDB;
  /** Drops every connection (open transactions roll back), frees the port, closes the database. */
  close(): Promise<void>;
}

export async function startBoltServer(options: BoltServerOptions = {}): Promise<BoltTestServer> {
  const host = options.host ?? '127.0.0.1';
  const database = GrafeoDB.create();
  const connections = new Set<BoltConnection>();
  let connectionCount = 0;
  const gate = new TransactionGate();
  const server = createServer((socket) => {
    const connection = new BoltConnection(socket, database, `bolt-${++connectionCount}`, gate);
    connections.add(connection);
    void connection.closed.then(() => connections.delete(connection));
  });
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    const open = [...connections];
    for (const connection of open) connection.destroy();
    await Promise.all(open.map((connection) => connection.closed));
    await stopped;
    database.close();
  };
  return {
    url: `bolt://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    database,
    close: () => (closing ??= close()),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
