import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import type { DataSource } from 'typeorm';
import { DatabaseUnavailableError, POSTGRES_CONNECT_TIMEOUT_MS, openDataSource } from '@ringfence/persistence';
import { dropSchema, testDatabaseUrl, uniqueTestSchema } from '@ringfence/persistence/testing';
import { ALL_OWNERS, recordedMigrationNames } from './all-owners';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Accepts connections and never answers: a database that hangs. */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function timed<T>(work: Promise<T>): Promise<{ error: unknown; elapsedMs: number }> {
  const started = Date.now();
  try {
    await work;
    return { error: undefined, elapsedMs: Date.now() - started };
  } catch (error: unknown) {
    return { error, elapsedMs: Date.now() - started };
  }
}

describe(openDataSource.name, () => {
  describe('on PostgreSQL', () => {
    const schema = uniqueTestSchema();
    const options = { databaseUrl: testDatabaseUrl(), dataDir: tmpdir(), schema, schemas: ALL_OWNERS };
    let opened: DataSource[] = [];

    // Three processes starting at once against a schema that does not exist yet.
    beforeAll(async () => {
      opened = await Promise.all([1, 2, 3].map(() => openDataSource(options)));
    });

    afterAll(async () => {
      if (opened[0] !== undefined) {
        await dropSchema(opened[0], schema);
      }
      await Promise.all(opened.map((dataSource) => dataSource.destroy()));
    });

    it('migrates a fresh schema once when several processes start at the same time', async () => {
      expect(opened.map((dataSource) => dataSource.isInitialized)).toEqual([true, true, true]);
      const applied = await opened[0].query<{ name: string }[]>(`SELECT name FROM "${schema}".migrations`);
      expect(applied.map((row) => row.name)).toEqual(recordedMigrationNames());
    });

    it('keeps the tables in the configured schema', async () => {
      const tables = await opened[0].query<{ table_name: string }[]>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
        [schema],
      );

      expect(tables.map((table) => table.table_name)).toEqual([
        'accounts',
        'api_keys',
        'callback_deliveries',
        'card_instrument_secrets',
        'card_key_pairs',
        'case_decisions',
        'case_events',
        'cases',
        'consumer_offsets',
        'decision_facts',
        'decision_records',
        'decision_search_keys',
        'device_records',
        'entity_documents',
        'event_log',
        'graph_chargebacks',
        'graph_custom_node_types',
        'graph_disputes',
        'graph_edges',
        'graph_labels',
        'graph_merchant_customers',
        'graph_nodes',
        'graph_redemptions',
        'graph_tags',
        'graph_transaction_owners',
        'label_history',
        'labels',
        'lookup_evidence',
        'lookup_indicators',
        'migrations',
        'models',
        'payment_reviews',
        'rule_suspensions',
        'rule_versions',
        'set_aside_rows',
        'user_sessions',
        'users',
        'velocity_keys',
        'velocity_occurrences',
        'velocity_recorded_events',
      ]);
    });

    it('leaves nothing for TypeORM to change: the entities describe the migrated schema', async () => {
      const pending = await opened[0].driver.createSchemaBuilder().log();

      expect(pending.upQueries.map((query) => query.query)).toEqual([]);
    });
  });

  describe('when PostgreSQL is unreachable', () => {
    it('fails at once with DatabaseUnavailableError when nothing listens on the port', async () => {
      const port = await closedPort();

      const { error, elapsedMs } = await timed(
        openDataSource({ databaseUrl: `postgres://postgres@localhost:${port}/test`, dataDir: tmpdir() }),
      );

      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect((error as Error).message).toContain(`PostgreSQL at postgres://postgres@localhost:${port}/test is unavailable`);
      expect((error as Error).message).toContain('ECONNREFUSED');
      expect(elapsedMs).toBeLessThan(3_000);
    });

    it('fails within the connect timeout when the server never answers', async () => {
      const server = await silentServer();
      try {
        const { error, elapsedMs } = await timed(
          openDataSource({ databaseUrl: `postgres://postgres@127.0.0.1:${server.port}/test`, dataDir: tmpdir() }),
        );

        expect(error).toBeInstanceOf(DatabaseUnavailableError);
        expect((error as Error).message).toMatch(/timeout/i);
        expect(elapsedMs).toBeGreaterThanOrEqual(POSTGRES_CONNECT_TIMEOUT_MS - 100);
        expect(elapsedMs).toBeLessThan(POSTGRES_CONNECT_TIMEOUT_MS + 1_500);
      } finally {
        await server.close();
      }
    });

    it('never shows the password in its error', async () => {
      const port = await closedPort();

      const { error } = await timed(
        openDataSource({ databaseUrl: `postgres://postgres:s3cret@127.0.0.1:${port}/test`, dataDir: tmpdir() }),
      );

      expect((error as Error).message).toContain('postgres://postgres:***@127.0.0.1');
      expect((error as Error).message).not.toContain('s3cret');
    });
  });
});
