import { hashApiKey } from '@ringfence/accounts';
import { InMemoryAccountRepository, InMemoryApiKeyRepository } from '@ringfence/accounts/testing';
import { loadConfig } from '@ringfence/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticateClient } from './client-access';
import { RequestCredentials } from './request-credentials';

const PUBLISHABLE = 'pk_test_clientaccesspublishable01';
const SECRET = 'sk_test_clientaccesssecretkey0001';
const SHOP = 'https://shop.example';

async function credentials(): Promise<RequestCredentials> {
  const accounts = new InMemoryAccountRepository();
  const keys = new InMemoryApiKeyRepository(accounts);
  await accounts.insert({ id: 'acc_1', name: 'acme', industry: null, settings: { testAllowedOrigins: [SHOP] }, createdAt: new Date() });
  const key = (id: string, kind: 'secret' | 'publishable', plaintext: string) =>
    keys.insert({ id, accountId: 'acc_1', kind, environment: 'test', keyHash: hashApiKey(plaintext), displayPrefix: plaintext.slice(0, 12), createdAt: new Date(), revokedAt: null });
  await key('key_pk', 'publishable', PUBLISHABLE);
  await key('key_sk', 'secret', SECRET);
  return new RequestCredentials(keys, loadConfig({ PORT: '0' }, { port: 8443 }));
}

/** A request as Fastify hands it over, and a reply that records its headers. */
function exchange(headers: Record<string, string>, query: Record<string, string> = {}) {
  const sent: Record<string, string> = {};
  const request = { raw: {}, headers, query } as unknown as FastifyRequest;
  const reply = { headers: (values: Record<string, string>) => Object.assign(sent, values) } as unknown as FastifyReply;
  return { request, reply, sent };
}

describe(authenticateClient.name, () => {
  it('takes a publishable key from the header or from the key query parameter', async () => {
    const known = await credentials();
    const header = exchange({ authorization: `token ${PUBLISHABLE}` });
    const query = exchange({}, { key: PUBLISHABLE });

    await expect(authenticateClient(known, header.request, header.reply)).resolves.toMatchObject({ keyKind: 'publishable', environment: 'test', account: { id: 'acc_1' } });
    await expect(authenticateClient(known, query.request, query.reply)).resolves.toMatchObject({ keyKind: 'publishable' });
  });

  it('refuses a secret key (403), and no key or an unknown one (401)', async () => {
    const known = await credentials();
    const secret = exchange({}, { key: SECRET });
    const none = exchange({});
    const unknown = exchange({}, { key: 'pk_test_neverissuedneverissued01' });

    await expect(authenticateClient(known, secret.request, secret.reply)).rejects.toMatchObject({ status: 403 });
    await expect(authenticateClient(known, none.request, none.reply)).rejects.toMatchObject({ status: 401 });
    await expect(authenticateClient(known, unknown.request, unknown.reply)).rejects.toMatchObject({ status: 401 });
  });

  it("refuses an Origin the key's data set does not list (403), and gives an allowed one its CORS headers", async () => {
    const known = await credentials();
    const foreign = exchange({ origin: 'https://evil.example' }, { key: PUBLISHABLE });
    const allowed = exchange({ origin: SHOP }, { key: PUBLISHABLE });

    await expect(authenticateClient(known, foreign.request, foreign.reply)).rejects.toMatchObject({ status: 403 });
    expect(foreign.sent).toEqual({});
    await authenticateClient(known, allowed.request, allowed.reply);
    expect(allowed.sent).toMatchObject({ 'access-control-allow-origin': SHOP, vary: 'Origin' });
  });
});
