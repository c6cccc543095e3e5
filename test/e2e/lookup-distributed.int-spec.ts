import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_TOPICS } from '@ringfence/contracts';
import { startKafkaMock } from '../tools/kafka-mock/kafka-mock';
import { type ChildService, freePort, spawnService } from '../support/child-service';
import { eventually } from '../support/embedded-service';
import { TestHttpClient } from '../support/https-client';
import { createScratchDatabase } from '../support/postgres-database';

const BOOTSTRAP_KEY = 'sk_test_lookupdistributedkey0001';
const ADMIN_KEY = 'admin-token-for-lookup-e2e-0123456789';
const INTERNAL_KEY = 'internal-credential-for-lookup-e2e-0123456789';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The lookup routes in the distributed mode: the gateway and the lookup service as separate
 * processes over a Kafka-protocol broker (librdkafka's mock cluster) and PostgreSQL. The
 * breached-credentials store is the lookup service's (its DATA_DIR), asked over its internal
 * HTTP port.
 */
describe('lookup in the distributed mode', () => {
  let kafka: Awaited<ReturnType<typeof startKafkaMock>> | undefined;
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let services: ChildService[] = [];
  let client: TestHttpClient;
  let gateway: ChildService;

  async function waitReady(port: number, https: boolean, ca?: string) {
    const probe = new TestHttpClient(`${https ? 'https' : 'http'}://localhost:${port}`, ca);
    await eventually(async () => ((await probe.send({ path: '/health/ready' }).catch(() => null))?.status === 200 ? true : null), 60_000);
  }

  let gatewayDataDir: string | undefined;
  let lookupDataDir: string | undefined;
  let lookupPort: number;

  beforeAll(async () => {
    kafka = await startKafkaMock({ topics: [...ALL_TOPICS], partitions: 3 });
    database = await createScratchDatabase('ringfence_lookup_e2e');
    const shared = { DATABASE_URL: database.url, KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_CONSUMER_MAX_WAIT_MS: '5', LOG_LEVEL: 'info' };
    const dataDir = mkdtempSync(join(tmpdir(), 'ringfence-lookup-gw-'));
    gatewayDataDir = dataDir;
    let gatewayPort: number;
    [gatewayPort, lookupPort] = await Promise.all([freePort(), freePort()]);
    lookupDataDir = mkdtempSync(join(tmpdir(), 'ringfence-lookup-store-'));
    // The lookup service holds the breached-credentials store; the gateway asks it at LOOKUP_URL
    // with the internal credential, which the lookup service holds; only the gateway has the admin token.
    gateway = spawnService('gateway', {
      ...shared,
      PORT: String(gatewayPort),
      DATA_DIR: dataDir,
      BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
      ADMIN_API_KEY: ADMIN_KEY,
      INTERNAL_API_KEY: INTERNAL_KEY,
      LOOKUP_URL: `http://localhost:${lookupPort}`,
    });
    services = [gateway, spawnService('lookup', { ...shared, PORT: String(lookupPort), DATA_DIR: lookupDataDir, INTERNAL_API_KEY: INTERNAL_KEY })];
    await gateway.waitForOutput(/"msg":"listening"/, 60_000);
    const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
    await Promise.all([waitReady(gatewayPort, true, ca), waitReady(lookupPort, false)]);
    client = new TestHttpClient(`https://localhost:${gatewayPort}`, ca);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await kafka?.stop();
    await database?.drop();
    if (gatewayDataDir !== undefined) rmSync(gatewayDataDir, { recursive: true, force: true });
    if (lookupDataDir !== undefined) rmSync(lookupDataDir, { recursive: true, force: true });
  });

  it('adds, reads and deletes indicators through the lookup process', async () => {
    const address = `fraud-${Date.now()}@example.com`;
    const added = await client.send({
      method: 'POST',
      path: '/v2/lookup',
      body: { timestamp: 1_763_800_000, email: { address }, telephone: { number: '07700 900123', countryCode: 'GBR' }, chargebacks: [{ chargebackId: 'cb-1' }] },
      apiKey: BOOTSTRAP_KEY,
    });
    expect(added.body).toMatchObject({ status: 200, data: { added: { email: address, telephone: '+447700900123' } } });

    const read = await client.send({ path: `/v2/lookup?email=${encodeURIComponent(address)}&telephone=%2B447700900123`, apiKey: BOOTSTRAP_KEY });
    expect(read.body).toMatchObject({
      status: 200,
      data: { email: { known: true, chargebacks: 1, firstSeen: 1_763_800_000_000 }, telephone: { known: true, chargebacks: 1 } },
    });

    const deleted = await client.send({ method: 'DELETE', path: `/v2/lookup?email=${encodeURIComponent(address)}`, apiKey: BOOTSTRAP_KEY });
    expect(deleted.body).toMatchObject({ status: 200, data: { deleted: { email: 1 } } });
  });

  it('answers a normalisation failure of the lookup process as a 400', async () => {
    const response = await client.send({
      method: 'POST',
      path: '/v2/lookup',
      body: { timestamp: 1_763_800_000, telephone: { number: '07700900123', countryCode: 'ZZZ' } },
      apiKey: BOOTSTRAP_KEY,
    });

    expect(response.body).toMatchObject({ status: 400, message: expect.stringMatching(/^telephone\.countryCode: /) });
  });

  it('checks credentials against the lookup service\'s store, the hash compared in the gateway and never in a log', async () => {
    const username = `ada-${Date.now()}@example.com`;
    const leaked = sha256(`leaked ${Date.now()}`);
    const imported = await client.send({ method: 'POST', path: '/admin/breached-credentials', body: { entries: [{ username, passwordHash: leaked }] }, apiKey: ADMIN_KEY });
    expect(imported.body).toEqual({ received: 1, inserted: 1 });

    const checked = await client.send({ method: 'POST', path: '/v2/lookup/credentials/check', body: { username, passwordHash: leaked }, apiKey: BOOTSTRAP_KEY });
    expect(checked.body).toEqual({ usernameBreached: true, passwordBreached: true, numBreachedPasswords: 1 });
    const common = await client.send({ method: 'POST', path: '/v2/lookup/credentials/check', body: { username, passwordHash: sha256('1234') }, apiKey: BOOTSTRAP_KEY });
    expect(common.body).toMatchObject({ passwordBreached: true });

    await gateway.waitForOutput(new RegExp(`"traceId":"${String(checked.headers['x-trace-id'])}"`), 5_000);
    expect(gateway.output.join('\n')).not.toContain(leaked);
    expect(services[1].output.join('\n')).not.toContain(leaked);
    expect(readFileSync(join(lookupDataDir as string, 'credentials', 'CURRENT'), 'utf8')).toMatch(/^gen-\d{6}\n$/);
  });

  it("refuses the admin token on the lookup service's internal routes: the gateway's own credential opens them (ADR-0016)", async () => {
    const ask = (token: string) =>
      fetch(`http://localhost:${lookupPort}/internal/breached-credentials/prefixes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `token ${token}` },
        body: JSON.stringify({ username: 'ada@example.com' }),
      });

    expect((await ask(ADMIN_KEY)).status).toBe(401);
    expect((await ask(INTERNAL_KEY)).status).toBe(200);
  });
});
