import type { ApiKeyRecord } from './account';
import { CachingApiKeyRepository } from './caching-api-key.repository';
import { InMemoryAccountRepository, InMemoryApiKeyRepository } from './test-support/in-memory-account-repositories';

const TTL = 1_000;

async function setup(maxEntries = 100) {
  const accounts = new InMemoryAccountRepository();
  await accounts.insert({ id: 'acc_1', name: 'acme', industry: null, settings: {}, createdAt: new Date(0) });
  const inner = new InMemoryApiKeyRepository(accounts);
  const lookups = jest.spyOn(inner, 'findActiveByHash');
  let now = 0;
  const cache = new CachingApiKeyRepository(inner, TTL, maxEntries, () => now);
  const key = (id: string): ApiKeyRecord => ({ id, accountId: 'acc_1', kind: 'secret', environment: 'test', keyHash: `hash-${id}`, displayPrefix: 'sk_test_x', createdAt: new Date(0), revokedAt: null });
  return { accounts, inner, cache, lookups, key, advance: (ms: number) => (now += ms) };
}

describe(CachingApiKeyRepository.name, () => {
  it('reuses a lookup for the time to live, then asks again', async () => {
    const { cache, lookups, key, advance } = await setup();
    await cache.insert(key('k1'));
    expect(await cache.findActiveByHash('hash-k1')).toMatchObject({ key: { id: 'k1' } });
    advance(TTL - 1);
    await cache.findActiveByHash('hash-k1');
    expect(lookups).toHaveBeenCalledTimes(1);
    advance(1);
    await cache.findActiveByHash('hash-k1');
    expect(lookups).toHaveBeenCalledTimes(2);
  });

  it('holds, once primed, every active key of the accounts without a lookup, and looks up the rest', async () => {
    const { accounts, inner, cache, lookups, key } = await setup();
    await inner.insert(key('k1'));
    await inner.insert({ ...key('k2'), revokedAt: new Date(1) });

    expect(await cache.primeActive(await accounts.list())).toBe(1);
    expect(await cache.findActiveByHash('hash-k1')).toMatchObject({ key: { id: 'k1' }, account: { id: 'acc_1' } });
    expect(lookups).not.toHaveBeenCalled();
    expect(await cache.findActiveByHash('hash-k2')).toBeNull();
    expect(lookups).toHaveBeenCalledTimes(1);
  });

  it('forgets a revoked key at once, and a key issued after it was looked up unknown', async () => {
    const { cache, key } = await setup();
    expect(await cache.findActiveByHash('hash-k1')).toBeNull();
    await cache.insert(key('k1'));
    expect(await cache.findActiveByHash('hash-k1')).not.toBeNull();
    await cache.revoke('k1', new Date(1));
    expect(await cache.findActiveByHash('hash-k1')).toBeNull();
  });

  it('forgets an account whose settings changed', async () => {
    const { accounts, cache, key } = await setup();
    await cache.insert(key('k1'));
    await cache.findActiveByHash('hash-k1');
    await accounts.updateSettings('acc_1', { voucherAbuseEnabled: false });
    expect((await cache.findActiveByHash('hash-k1'))?.account.settings).toEqual({});
    cache.forgetAccount('acc_1');
    expect((await cache.findActiveByHash('hash-k1'))?.account.settings).toEqual({ voucherAbuseEnabled: false });
  });

  it('holds at most maxEntries lookups, dropping the oldest', async () => {
    const { cache, lookups } = await setup(2);
    for (const hash of ['a', 'b', 'c']) await cache.findActiveByHash(hash);
    await cache.findActiveByHash('c');
    await cache.findActiveByHash('b');
    expect(lookups).toHaveBeenCalledTimes(3);
    await cache.findActiveByHash('a');
    expect(lookups).toHaveBeenCalledTimes(4);
  });
});
