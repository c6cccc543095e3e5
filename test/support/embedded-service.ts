import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { runService } from '@ringfence/service-runtime';
import { standaloneService } from '../../apps/standalone/src/standalone.service';
import { assertEventLogMatchesFeedSchemas, reportFeedSchemaCounts } from './feed-schemas';
import { TestHttpClient } from './https-client';

export const TEST_BOOTSTRAP_KEY = 'sk_test_integrationbootstrapkey01';
export const TEST_ADMIN_KEY = 'admin-token-for-tests-0123456789';

export interface EmbeddedService {
  app: INestApplication;
  client: TestHttpClient;
  dataDir: string;
  /**
   * Validates every event the service logged on a warehouse-feed topic against the topic's
   * published JSON Schema (test/support/feed-schemas.ts), then closes the app; throws the schema
   * problems, if any, after closing.
   */
  close(): Promise<void>;
}

/** Per data directory, the last event-log sequence already validated per topic (a restart reads the same log). */
const validatedUpTo = new Map<string, Map<string, number>>();

async function checkPublishedFeed(app: INestApplication, dataDir: string): Promise<void> {
  const log = app.get<EventLogStore>(EVENT_LOG_STORE, { strict: false });
  const from = validatedUpTo.get(dataDir) ?? new Map<string, number>();
  validatedUpTo.set(dataDir, from);
  const checked = await assertEventLogMatchesFeedSchemas(log, from);
  reportFeedSchemaCounts((typeof expect === 'undefined' ? undefined : expect.getState().testPath) ?? dataDir, checked);
}

/** The temporary DATA_DIRs this file's services got (several services may restart on one). */
const createdDataDirs = new Set<string>();

// Registered when a test file imports this module, so at the file's top level: jest runs it after
// every describe block's afterAll, where the services are closed.
afterAll(() => {
  for (const dataDir of createdDataDirs) rmSync(dataDir, { recursive: true, force: true });
  createdDataDirs.clear();
});

function createDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'ringfence-test-'));
  createdDataDirs.add(dataDir);
  return dataDir;
}

/**
 * The standalone app in this process (HTTPS on a free port, PGlite in a temp DATA_DIR that is
 * removed once the test file is done; close the service in a describe block's afterAll).
 */
export async function startEmbeddedService(env: Record<string, string> = {}): Promise<EmbeddedService> {
  const dataDir = env.DATA_DIR ?? createDataDir();
  const { app } = await runService(standaloneService, {
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BOOTSTRAP_API_KEY: TEST_BOOTSTRAP_KEY,
    ADMIN_API_KEY: TEST_ADMIN_KEY,
    ...env,
  });
  const address = app.getHttpServer().address() as { port: number };
  const ca = env.TLS_CERT_FILE ? readFileSync(env.TLS_CERT_FILE, 'utf8') : readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
  return {
    app,
    dataDir,
    client: new TestHttpClient(`https://localhost:${address.port}`, ca),
    close: async () => {
      let problem: unknown;
      try {
        await checkPublishedFeed(app, dataDir);
      } catch (error) {
        problem = error;
      }
      await app.close();
      if (problem !== undefined) throw problem;
    },
  };
}

/** The id of the `default` account the bootstrap key belongs to, through the admin API. */
export async function defaultAccountId(service: EmbeddedService): Promise<string> {
  const accounts = await service.client.send<{ accounts: Array<{ accountId: string; name: string }> }>({ path: '/admin/accounts', apiKey: TEST_ADMIN_KEY });
  const account = accounts.body.accounts.find((candidate) => candidate.name === 'default');
  if (!account) throw new Error('the embedded service has no default account');
  return account.accountId;
}

export { eventually } from '../tools/eventually';
