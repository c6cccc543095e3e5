import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { BreachedCredentialsUnavailableError, RemoteBreachedCredentialsRepository } from '@ringfence/credentials';
import { ConfigError } from '@ringfence/platform';
import { LookupCredentialsStoreModule, LookupModule } from '@ringfence/service-lookup';
import { type ServiceDefinition, runService } from '@ringfence/service-runtime';

const INTERNAL_KEY = 'internal-credential-for-tests-0123456789';
const ADMIN_KEY = 'admin-token-for-tests-0123456789';
const PASSWORD_HASH = 'a'.repeat(64);

/** The lookup app as apps/lookup/src/main.ts runs it: the store's internal routes on its plain-HTTP port. */
const LOOKUP_SERVICE: ServiceDefinition = { serviceName: 'lookup', modules: [LookupModule, LookupCredentialsStoreModule], https: false };

/**
 * ADR-0016, "Inside the cluster": the gateway calls the lookup service's internal routes
 * with a credential of its own (INTERNAL_API_KEY), and the admin token no longer opens them.
 * The lookup app runs in this process; the gateway's side is its real client,
 * RemoteBreachedCredentialsRepository.
 */
describe('the internal credential (gateway → lookup service)', () => {
  const dataDirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringfence-internal-'));
    dataDirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  describe('a lookup service with INTERNAL_API_KEY', () => {
    let app: INestApplication;
    let url: string;

    beforeAll(async () => {
      ({ app } = await runService(LOOKUP_SERVICE, { PORT: '0', DATA_DIR: dataDir(), LOG_LEVEL: 'silent', INTERNAL_API_KEY: INTERNAL_KEY, ADMIN_API_KEY: ADMIN_KEY }));
      url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    const askPrefixes = (authorization?: string) =>
      fetch(new URL('/internal/breached-credentials/prefixes', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
        body: JSON.stringify({ username: 'ada@example.com' }),
      });

    it('answers the gateway, which sends the internal credential', async () => {
      const gateway = new RemoteBreachedCredentialsRepository(url, INTERNAL_KEY);

      await expect(gateway.insert([{ username: 'grace@example.com', passwordHash: PASSWORD_HASH }])).resolves.toBe(1);
      await expect(gateway.passwordPrefixesOf('grace@example.com')).resolves.toEqual([PASSWORD_HASH.slice(0, 16)]);
    });

    it.each([
      ['the admin token', `token ${ADMIN_KEY}`],
      ['an account key', 'token sk_test_integrationbootstrapkey01'],
      ['another token', `token ${INTERNAL_KEY}x`],
    ])('refuses %s with 401, and the next call with the internal credential is answered', async (_case, authorization) => {
      const refused = await askPrefixes(authorization);

      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { message: string }).message).toBe('internal credential unknown');
      expect((await askPrefixes(`token ${INTERNAL_KEY}`)).status).toBe(200);
    });

    it('refuses a call without a credential with 401', async () => {
      expect((await askPrefixes()).status).toBe(401);
    });

    it('is unavailable to a gateway that would still send the admin token', async () => {
      const outdatedGateway = new RemoteBreachedCredentialsRepository(url, ADMIN_KEY);

      await expect(outdatedGateway.passwordPrefixesOf('grace@example.com')).rejects.toThrow(new BreachedCredentialsUnavailableError('HTTP 401'));
    });
  });

  it('does not start a lookup service without INTERNAL_API_KEY, naming it', async () => {
    const start = runService(LOOKUP_SERVICE, { PORT: '0', DATA_DIR: dataDir(), LOG_LEVEL: 'silent', ADMIN_API_KEY: ADMIN_KEY });

    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(/INTERNAL_API_KEY must be set on the lookup service/);
  }, 60_000);
});
