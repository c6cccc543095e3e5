import type { Driver } from 'neo4j-driver';
import { startBoltServer } from '../../../../test/tools/bolt/bolt-server';
import { itBehavesLikeAGraphStore } from '../test-support/graph-store.behaviour';
import { createNeo4jDriver } from './neo4j-driver.factory';
import { Neo4jGraphStore } from './neo4j-graph.store';

/**
 * The real neo4j-driver over a real Bolt socket: against the Neo4j 5 of NEO4J_TEST_URL when it
 * is set (NEO4J_TEST_USER / NEO4J_TEST_PASSWORD), else against the test Bolt server over Grafeo.
 * Every test writes tenants of its own (random account ids), so a shared server is fine.
 */
describe(`${Neo4jGraphStore.name} over Bolt (${process.env.NEO4J_TEST_URL ? 'Neo4j' : 'test Bolt server'})`, () => {
  let close: (() => Promise<void>) | undefined;
  let driver: Driver | undefined;
  let store: Neo4jGraphStore | undefined;

  beforeAll(async () => {
    let url = process.env.NEO4J_TEST_URL;
    if (url === undefined) {
      const server = await startBoltServer();
      close = () => server.close();
      url = server.url;
    }
    driver = createNeo4jDriver({ url, username: process.env.NEO4J_TEST_USER ?? 'neo4j', password: process.env.NEO4J_TEST_PASSWORD ?? 'test' });
    store = new Neo4jGraphStore(driver);
    await store.ensureSchema();
  });

  afterAll(async () => {
    await driver?.close();
    await close?.();
  });

  it('creates its schema idempotently', async () => {
    await expect(store!.ensureSchema()).resolves.toBeUndefined();
  });

  itBehavesLikeAGraphStore(() => store!);
});
