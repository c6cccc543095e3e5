import type { AccountRepository, ApiKeyRepository } from '@ringfence/accounts';
import { buildAccount, buildApiKey } from '@ringfence/persistence/testing';

/** What any ApiKeyRepository adapter must do; run against each database by its spec files. */
export function itBehavesLikeAnApiKeyRepository(
  repositories: () => { accounts: AccountRepository; keys: ApiKeyRepository },
): void {
  const insertAccount = async (overrides: Parameters<typeof buildAccount>[0] = {}) => {
    const account = buildAccount(overrides);
    await repositories().accounts.insert(account);
    return account;
  };

  it('finds an active key by its hash, with its account', async () => {
    const account = await insertAccount({ settings: { potentialLabelsEnabled: true } });
    const key = buildApiKey({ accountId: account.id, kind: 'publishable', environment: 'live' });
    await repositories().keys.insert(key);

    await expect(repositories().keys.findActiveByHash(key.keyHash)).resolves.toEqual({ key, account });
  });

  it('answers null for an unknown hash', async () => {
    await expect(repositories().keys.findActiveByHash('0'.repeat(64))).resolves.toBeNull();
  });

  it('no longer finds a key once it is revoked', async () => {
    const account = await insertAccount();
    const key = buildApiKey({ accountId: account.id });
    await repositories().keys.insert(key);

    await expect(repositories().keys.revoke(key.id, new Date())).resolves.toBe(true);

    await expect(repositories().keys.findActiveByHash(key.keyHash)).resolves.toBeNull();
  });

  it('finds a key by its hash whether revoked or not (the bootstrap tells a revoked key from an unknown one)', async () => {
    const account = await insertAccount();
    const key = buildApiKey({ accountId: account.id });
    await repositories().keys.insert(key);
    const revokedAt = new Date('2030-02-01T10:00:00.123Z');
    await repositories().keys.revoke(key.id, revokedAt);

    await expect(repositories().keys.findByHash(key.keyHash)).resolves.toEqual({ ...key, revokedAt });
    await expect(repositories().keys.findByHash('0'.repeat(64))).resolves.toBeNull();
  });

  it('revokes a key only once', async () => {
    const account = await insertAccount();
    const key = buildApiKey({ accountId: account.id });
    await repositories().keys.insert(key);
    await repositories().keys.revoke(key.id, new Date());

    await expect(repositories().keys.revoke(key.id, new Date())).resolves.toBe(false);
  });

  it('answers false when revoking an unknown key', async () => {
    await expect(repositories().keys.revoke('key_unknown', new Date())).resolves.toBe(false);
  });

  it("lists an account's keys oldest first, revoked ones included with their revocation time", async () => {
    const account = await insertAccount();
    const other = await insertAccount();
    const older = buildApiKey({ accountId: account.id, createdAt: new Date('2030-01-01T00:00:00.000Z') });
    const newer = buildApiKey({ accountId: account.id, createdAt: new Date('2030-01-02T00:00:00.000Z') });
    await repositories().keys.insert(newer);
    await repositories().keys.insert(older);
    await repositories().keys.insert(buildApiKey({ accountId: other.id }));
    const revokedAt = new Date('2030-02-01T10:00:00.123Z');
    await repositories().keys.revoke(older.id, revokedAt);

    const listed = await repositories().keys.listForAccount(account.id);

    expect(listed).toEqual([{ ...older, revokedAt }, newer]);
  });

  it('refuses a key for an account that does not exist', async () => {
    await expect(repositories().keys.insert(buildApiKey({ accountId: 'acc_missing' }))).rejects.toThrow(/fk_api_keys_account/);
  });

  it('refuses a second key with the same hash', async () => {
    const account = await insertAccount();
    const key = buildApiKey({ accountId: account.id });
    await repositories().keys.insert(key);

    await expect(
      repositories().keys.insert(buildApiKey({ accountId: account.id, keyHash: key.keyHash })),
    ).rejects.toThrow(/uq_api_keys_key_hash/);
  });
}
