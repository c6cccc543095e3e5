import { AppError } from '@ringfence/platform';
import { AccountAdministration } from './account-administration';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { hashApiKey, parseApiKey } from './api-key';
import { CachingApiKeyRepository } from './caching-api-key.repository';
import { InMemoryAccountRepository, InMemoryApiKeyRepository } from './test-support/in-memory-account-repositories';

/** Where callback URLs may reach, as a test decides: hosts under `.internal.example` may not. */
const checkCallbackUrl = async (url: string) => (new URL(url).hostname.endsWith('.internal.example') ? 'its host must resolve, and only to public internet addresses' : null);

// The services run behind the key cache: every rule here must hold through it too.
function setup(options: ConstructorParameters<typeof AccountAdministration>[2] = { checkCallbackUrl }) {
  const accounts = new InMemoryAccountRepository();
  const keys = new InMemoryApiKeyRepository(accounts);
  const cached = new CachingApiKeyRepository(keys);
  return { accounts, keys, admin: new AccountAdministration(accounts, cached, options), auth: new ApiKeyAuthenticator(cached) };
}

describe(AccountAdministration.name, () => {
  it('creates an account with four keys of the right kinds and stores only their hashes', async () => {
    const { admin, keys } = setup();
    const created = await admin.createAccount('acme', 'food-delivery');
    expect(parseApiKey(created.keys.secretTest.key)).toEqual({ kind: 'secret', environment: 'test' });
    expect(parseApiKey(created.keys.secretLive.key)).toEqual({ kind: 'secret', environment: 'live' });
    expect(parseApiKey(created.keys.publishableTest.key)).toEqual({ kind: 'publishable', environment: 'test' });
    expect(parseApiKey(created.keys.publishableLive.key)).toEqual({ kind: 'publishable', environment: 'live' });
    const stored = JSON.stringify([...keys.rows.values()]);
    for (const issued of Object.values(created.keys)) {
      expect(stored).not.toContain(issued.key);
      expect(stored).toContain(hashApiKey(issued.key));
    }
  });

  it('refuses a second account with the same name', async () => {
    const { admin } = setup();
    await admin.createAccount('acme', null);
    await expect(admin.createAccount('acme', null)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('revokes a key so that it no longer authenticates', async () => {
    const { admin, auth } = setup();
    const { keys } = await admin.createAccount('acme', null);
    const header = `token ${keys.secretLive.key}`;
    await expect(auth.authenticate(header)).resolves.toMatchObject({ environment: 'live', keyKind: 'secret' });
    await admin.revokeKey(keys.secretLive.keyId);
    await expect(auth.authenticate(header)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(admin.revokeKey(keys.secretLive.keyId)).rejects.toBeInstanceOf(AppError);
  });

  it('sets the given settings, keeps the others, and authenticates with them from the next request', async () => {
    const { admin, auth } = setup();
    const { account, keys } = await admin.createAccount('acme', null);
    await admin.updateSettings(account.id, { voucherAbuseEnabled: false, defaultAction: 'REVIEW' });

    const updated = await admin.updateSettings(account.id, { potentialLabelsEnabled: true, defaultAction: 'PREVENT' });

    const expected = { voucherAbuseEnabled: false, potentialLabelsEnabled: true, defaultAction: 'PREVENT' };
    expect(updated).toEqual({ ...account, settings: expected });
    await expect(auth.authenticate(`token ${keys.secretTest.key}`)).resolves.toMatchObject({ account: { settings: expected } });
  });

  it('sets a callback URL only with a secret, sent with it or stored before, and lets both be cleared', async () => {
    const { admin } = setup();
    const { account } = await admin.createAccount('acme', null);

    await expect(admin.updateSettings(account.id, { callbackUrl: 'https://hooks.acme.example/' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/^callbackSecret: /),
    });
    await admin.updateSettings(account.id, { callbackSecret: 'a-secret-of-16-chars' });
    await expect(admin.updateSettings(account.id, { callbackUrl: 'https://hooks.acme.example/' })).resolves.toMatchObject({
      settings: { callbackUrl: 'https://hooks.acme.example/', callbackSecret: 'a-secret-of-16-chars' },
    });
    await expect(admin.updateSettings(account.id, { callbackSecret: null })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(admin.updateSettings(account.id, { callbackUrl: null, callbackSecret: null })).resolves.toMatchObject({
      settings: { callbackUrl: null, callbackSecret: null },
    });
  });

  it("keeps each data set's callback URL and secret apart: a sandbox URL needs the sandbox secret", async () => {
    const { admin } = setup();
    const { account } = await admin.createAccount('acme', null);
    await admin.updateSettings(account.id, { callbackUrl: 'https://hooks.acme.example/', callbackSecret: 'a-live-secret-of-16' });

    await expect(admin.updateSettings(account.id, { testCallbackUrl: 'https://staging.acme.example/' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/^testCallbackSecret: is required while testCallbackUrl is set/),
    });
    const updated = await admin.updateSettings(account.id, { testCallbackUrl: 'https://staging.acme.example/', testCallbackSecret: 'a-test-secret-of-16' });

    expect(updated.settings).toMatchObject({ callbackUrl: 'https://hooks.acme.example/', testCallbackUrl: 'https://staging.acme.example/' });
  });

  it('saves no callback URL that may not be reached, naming its setting, and changes nothing', async () => {
    const { admin, accounts } = setup();
    const { account } = await admin.createAccount('acme', null);

    await expect(
      admin.updateSettings(account.id, { callbackUrl: 'https://metadata.internal.example/', callbackSecret: 'a-secret-of-16-chars', testCallbackUrl: 'https://sidecar.internal.example/', testCallbackSecret: 'a-secret-of-16-chars' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'callbackUrl: its host must resolve, and only to public internet addresses; testCallbackUrl: its host must resolve, and only to public internet addresses',
    });
    await expect(accounts.findById(account.id)).resolves.toMatchObject({ settings: {} });
  });

  it('saves no callback URL at all without a check of where it may reach (fail closed)', async () => {
    const { admin } = setup({});
    const { account } = await admin.createAccount('acme', null);

    await expect(admin.updateSettings(account.id, { callbackUrl: 'https://hooks.acme.example/', callbackSecret: 'a-secret-of-16-chars' })).rejects.toMatchObject({ code: 'INTERNAL' });
    await expect(admin.updateSettings(account.id, { callbackUrl: null })).resolves.toMatchObject({ settings: { callbackUrl: null } });
  });

  it('lets an account change its own thresholds and callbacks with the same checks, and refuses operator-only settings naming each', async () => {
    const { admin, auth } = setup();
    const { account, keys } = await admin.createAccount('acme', null);
    await admin.updateSettings(account.id, { potentialLabelsEnabled: true });

    await expect(admin.updateOwnSettings(account.id, { callbackUrl: 'https://hooks.acme.example/' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/^callbackSecret: is required while callbackUrl is set/),
    });
    const refused = { scoreThresholds: null, potentialLabelsEnabled: false, defaultAction: 'PREVENT' } as Parameters<AccountAdministration['updateOwnSettings']>[1];
    await expect(admin.updateOwnSettings(account.id, refused)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message:
        'potentialLabelsEnabled: is set by the operator only (PATCH /admin/accounts/:accountId/settings), not with an account key; defaultAction: is set by the operator only (PATCH /admin/accounts/:accountId/settings), not with an account key',
    });

    const scoreThresholds = { customer: { review: 10, prevent: 20 } };
    // Authenticated (and so cached) before the change: the change must still show on the next request.
    await auth.authenticate(`token ${keys.secretLive.key}`);
    await admin.updateOwnSettings(account.id, { scoreThresholds, callbackUrl: 'https://hooks.acme.example/', callbackSecret: 'a-secret-of-16-chars' });

    const expected = { potentialLabelsEnabled: true, scoreThresholds, callbackUrl: 'https://hooks.acme.example/', callbackSecret: 'a-secret-of-16-chars' };
    await expect(auth.authenticate(`token ${keys.secretLive.key}`)).resolves.toMatchObject({ account: { settings: expected } });
  });

  it('answers NOT_FOUND for the settings of an unknown account', async () => {
    await expect(setup().admin.updateSettings('acc_missing', { potentialLabelsEnabled: true })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('registers the bootstrap key once, on the default account', async () => {
    const { admin, accounts } = setup();
    const bootstrap = 'sk_test_bootstrapbootstrap01';
    const first = await admin.ensureBootstrapAccount(bootstrap);
    const second = await admin.ensureBootstrapAccount(bootstrap);
    expect(first.created).toBe(true);
    expect(second).toEqual({ account: first.account, created: false, revoked: false });
    expect(await accounts.list()).toHaveLength(1);
  });

  it('leaves a revoked bootstrap key revoked on the next start, and says so', async () => {
    const { admin, keys } = setup();
    const bootstrap = 'sk_test_bootstrapbootstrap02';
    const { account } = await admin.ensureBootstrapAccount(bootstrap);
    const [issued] = await keys.listForAccount(account.id);
    await admin.revokeKey(issued.id);

    const again = await admin.ensureBootstrapAccount(bootstrap);

    expect(again).toEqual({ account, created: false, revoked: true });
    expect(await keys.listForAccount(account.id)).toEqual([expect.objectContaining({ id: issued.id, revokedAt: expect.any(Date) })]);
    await expect(keys.findActiveByHash(issued.keyHash)).resolves.toBeNull();
  });

  it('refuses a bootstrap key that is not a sandbox secret key', async () => {
    const { admin } = setup();
    await expect(admin.ensureBootstrapAccount('sk_live_bootstrapbootstrap01')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe(ApiKeyAuthenticator.name, () => {
  it.each([undefined, '', 'Bearer sk_test_aaaaaaaaaaaaaaaaaaaa', 'token', 'token not-a-key', 'token sk_prod_aaaaaaaaaaaaaaaaaaaa'])(
    'answers 401 for the header %p',
    async (header) => {
      await expect(setup().auth.authenticate(header)).rejects.toMatchObject({ status: 401 });
    },
  );

  it('answers 401 for a well-formed key nobody issued', async () => {
    await expect(setup().auth.authenticate('token sk_test_aaaaaaaaaaaaaaaaaaaa')).rejects.toMatchObject({ status: 401 });
  });

  it('accepts the long prefixes of the specification', () => {
    expect(parseApiKey('secret_key_live_aaaaaaaaaaaaaaaaaaaa')).toEqual({ kind: 'secret', environment: 'live' });
    expect(parseApiKey('publishable_key_test_aaaaaaaaaaaaaaaaaaaa')).toEqual({ kind: 'publishable', environment: 'test' });
  });
});
