import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';

type ListedAccount = { accountId: string; name: string; keys: Array<{ keyId: string; kind: string; env: string; revokedAt: string | null }> };

/**
 * ADR-0002 and ADR-0016: an operator revokes the bootstrap key while BOOTSTRAP_API_KEY is still
 * set in the server's environment. The next start must neither fail (the key's hash is already
 * stored) nor bring the key back; everything else keeps working. Real restarts of the embedded
 * server on one DATA_DIR.
 */
describe('a revoked bootstrap key across restarts', () => {
  let service: EmbeddedService | undefined;

  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  const checkToken = (apiKey: string) => service!.client.send({ path: '/v2/auth/checktoken', apiKey });
  const defaultAccount = async () => {
    const listed = await service!.client.send<{ accounts: ListedAccount[] }>({ path: '/admin/accounts', apiKey: TEST_ADMIN_KEY });
    return listed.body.accounts.find((account) => account.name === 'default')!;
  };

  it('starts again with the key still set, keeps it revoked, and the other keys answer', async () => {
    service = await startEmbeddedService();
    const other = await service.client.send<{ keys: { secretTest: string } }>({ method: 'POST', path: '/admin/accounts', body: { name: 'revocation-other' }, apiKey: TEST_ADMIN_KEY });
    const [bootstrapKey] = (await defaultAccount()).keys;
    expect((await service.client.send({ method: 'DELETE', path: `/admin/keys/${bootstrapKey.keyId}`, apiKey: TEST_ADMIN_KEY })).status).toBe(204);
    expect((await checkToken(TEST_BOOTSTRAP_KEY)).status).toBe(401);
    const dataDir = service.dataDir;
    await service.close();

    service = await startEmbeddedService({ DATA_DIR: dataDir, BOOTSTRAP_API_KEY: TEST_BOOTSTRAP_KEY });

    expect((await checkToken(TEST_BOOTSTRAP_KEY)).status).toBe(401);
    expect((await checkToken(other.body.keys.secretTest)).status).toBe(200);
    expect((await defaultAccount()).keys).toEqual([expect.objectContaining({ keyId: bootstrapKey.keyId, revokedAt: expect.any(String) })]);
  }, 60_000);

  it('registers a new BOOTSTRAP_API_KEY on the default account after the old one was revoked', async () => {
    service = await startEmbeddedService();
    const [revoked] = (await defaultAccount()).keys;
    await service.client.send({ method: 'DELETE', path: `/admin/keys/${revoked.keyId}`, apiKey: TEST_ADMIN_KEY });
    const dataDir = service.dataDir;
    await service.close();
    const replacement = 'sk_test_replacementbootstrapkey02';

    service = await startEmbeddedService({ DATA_DIR: dataDir, BOOTSTRAP_API_KEY: replacement });

    expect((await checkToken(replacement)).status).toBe(200);
    expect((await checkToken(TEST_BOOTSTRAP_KEY)).status).toBe(401);
    expect((await defaultAccount()).keys.map((key) => key.revokedAt === null)).toEqual([false, true]);
  }, 60_000);
});
