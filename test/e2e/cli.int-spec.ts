import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';

const run = promisify(execFile);
const CLI = join(__dirname, '..', '..', 'bin', 'ringfence.js');

describe('ringfence CLI', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const cli = (...args: string[]) =>
    run(process.execPath, [CLI, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        RINGFENCE_URL: `https://localhost:${(service.app.getHttpServer().address() as { port: number }).port}`,
        ADMIN_API_KEY: TEST_ADMIN_KEY,
        DATA_DIR: service.dataDir,
      },
    });

  it('creates an account, issues and revokes a key, and lists without plaintext keys', async () => {
    const created = JSON.parse((await cli('accounts', 'create', 'cli-account', '--industry', 'travel')).stdout) as {
      accountId: string;
      keys: Record<string, string>;
    };
    expect(created.keys.secretTest).toMatch(/^sk_test_/);

    const issued = JSON.parse((await cli('keys', 'create', created.accountId, '--kind', 'publishable', '--env', 'live')).stdout) as {
      keyId: string;
      key: string;
    };
    expect(issued.key).toMatch(/^pk_live_/);

    await cli('keys', 'revoke', issued.keyId);
    const listed = (await cli('accounts', 'list')).stdout;
    expect(listed).toContain('cli-account');
    expect(listed).not.toContain(issued.key);
    expect(listed).not.toContain(created.keys.secretTest);
    const revokedKey = (JSON.parse(listed) as { accounts: Array<{ keys: Array<{ keyId: string; revokedAt: string | null }> }> }).accounts
      .flatMap((account) => account.keys)
      .find((key) => key.keyId === issued.keyId);
    expect(revokedKey?.revokedAt).toEqual(expect.any(String));
  });

  it('changes account settings, keeping the ones not given, and refuses a call that changes nothing', async () => {
    const created = JSON.parse((await cli('accounts', 'create', 'cli-settings')).stdout) as { accountId: string };

    await cli('accounts', 'settings', created.accountId, '--voucher-abuse', 'off');
    const updated = JSON.parse((await cli('accounts', 'settings', created.accountId, '--potential-labels', 'on', '--default-action', 'REVIEW')).stdout) as {
      accountId: string;
      settings: Record<string, unknown>;
    };

    expect(updated).toMatchObject({ accountId: created.accountId, settings: { voucherAbuseEnabled: false, potentialLabelsEnabled: true, defaultAction: 'REVIEW' } });
    await expect(cli('accounts', 'settings', created.accountId)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('nothing to change') });
    await expect(cli('accounts', 'settings', created.accountId, '--potential-labels', 'yes')).rejects.toMatchObject({ stderr: expect.stringContaining('on, off') });
  });

  it('sets the time zone as the server spells it, and prints the server\'s 400 for one that is none', async () => {
    const created = JSON.parse((await cli('accounts', 'create', 'cli-time-zone')).stdout) as { accountId: string };

    const updated = JSON.parse((await cli('accounts', 'settings', created.accountId, '--time-zone', 'europe/london')).stdout) as { settings: Record<string, unknown> };

    expect(updated.settings).toEqual({ timeZone: 'Europe/London' });
    await expect(cli('accounts', 'settings', created.accountId, '--time-zone', 'Europe/Atlantis')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('400 timeZone: must be an IANA time-zone name'),
    });
  });

  it('exports a warehouse-feed topic as JSON lines, and resumes from where it stopped', async () => {
    const post = (customerId: string) =>
      service.client.send({ method: 'POST', path: '/v2/supplier', apiKey: TEST_BOOTSTRAP_KEY, body: { timestamp: Date.now(), supplier: { supplierId: customerId } } });
    for (let index = 0; index < 3; index += 1) expect((await post(`sup-feed-${index}`)).status).toBe(200);
    const topic = 'ringfence.ingest.supplier.updated.v1';
    const exported = await cli('feed', 'export', topic);
    const lines = exported.stdout.trim().split('\n').map((line) => JSON.parse(line) as { sequence: number; payload: { supplier: { supplierId: string } } });
    expect(lines.map((line) => line.payload.supplier.supplierId)).toEqual(expect.arrayContaining(['sup-feed-0', 'sup-feed-1', 'sup-feed-2']));
    expect(exported.stderr).toMatch(/events exported/);
    const last = lines.at(-1)!.sequence;
    await post('sup-feed-3');
    const more = (await cli('feed', 'export', topic, '--after', String(last))).stdout.trim().split('\n');
    expect(more.map((line) => (JSON.parse(line) as { payload: { supplier: { supplierId: string } } }).payload.supplier.supplierId)).toEqual(['sup-feed-3']);
    expect(JSON.parse((await cli('feed', 'topics')).stdout).topics).toContain(topic);
  });

  it('exits non-zero with the server message for a refused call', async () => {
    await expect(cli('keys', 'revoke', 'key_unknown')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('404') });
  });
});
