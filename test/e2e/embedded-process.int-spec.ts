import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDataSource } from '@ringfence/persistence';
import { type ChildService, freePort, spawnService } from '../support/child-service';
import { TestHttpClient } from '../support/https-client';
import { customerRequest } from '../support/payload-factories';

/**
 * The embedded default started as a user starts it (`node dist/apps/standalone/src/main.js`,
 * which is what `npm start` runs after building, less its V8 option, which changes no behaviour),
 * stopped and started again.
 */
describe('embedded mode as a process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ringfence-e2e-'));
  let port: number;
  let service: ChildService | undefined;

  beforeAll(async () => {
    port = await freePort();
  });

  afterEach(async () => {
    await service?.stop();
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function start(): Promise<{ client: TestHttpClient; startMs: number }> {
    const started = Date.now();
    service = spawnService('standalone', { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await service.waitForOutput(/"msg":"listening"/, 60_000);
    const client = new TestHttpClient(`https://localhost:${port}`, readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'));
    return { client, startMs: Date.now() - started };
  }

  it('generates a key on first start, keeps data and keys across a restart, and logs the traceId', async () => {
    const first = await start();
    const keyFile = join(dataDir, 'bootstrap-key');
    const key = readFileSync(keyFile, 'utf8').trim();
    expect(key).toMatch(/^sk_test_/);
    // The build copies docs/api.md into dist/ for /docs/api, where warnings' `help` points.
    expect((await first.client.send({ path: '/docs/api' })).status).toBe(200);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(service!.output.join('\n')).toContain(key);

    const request = customerRequest();
    const answer = await first.client.send({ method: 'POST', path: '/v2/customer', body: request, apiKey: key });
    expect(answer.status).toBe(200);
    const traceId = String(answer.headers['x-trace-id']);
    await service!.waitForOutput(new RegExp(`"traceId":"${traceId}"`), 5_000);
    // The key is printed once at creation; it must never appear in a log line.
    expect(service!.output.filter((line) => line.startsWith('{') && line.includes(key))).toEqual([]);
    await service!.stop();

    const second = await start();
    process.stdout.write(`embedded start: first ${first.startMs} ms, restart ${second.startMs} ms\n`);
    expect(second.startMs).toBeLessThan(15_000);
    expect(service!.output.join('\n')).not.toContain(key);
    expect((await second.client.send({ path: '/v2/auth/checktoken', apiKey: key })).status).toBe(200);
    await service!.stop();

    const dataSource = await openDataSource({ dataDir });
    try {
      // `fields` is the document's JSON as text (read and written whole).
      const rows: Array<{ fields: string }> = await dataSource.query(`SELECT fields FROM entity_documents WHERE kind = 'customer' AND entity_id = $1`, [request.customer.customerId]);
      expect((JSON.parse(rows[0].fields) as { email: string }).email).toBe('ada.lovelace@example.com');
    } finally {
      await dataSource.destroy();
    }
  });

  it('refuses an invalid configuration, naming the variable', async () => {
    service = spawnService('standalone', { PORT: 'eighty', DATA_DIR: dataDir });
    await service.waitForOutput(/PORT/, 30_000);
    expect(await service.exited).toBe(2);
  });
});
