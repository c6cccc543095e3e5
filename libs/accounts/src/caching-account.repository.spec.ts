import type { Account, AccountRepository, AccountSettings } from './account';
import { CachingAccountRepository } from './caching-account.repository';

const account = (settings: AccountSettings = {}): Account => ({ id: 'acc_1', name: 'acme', industry: null, settings, createdAt: new Date(0) });

function setup() {
  let stored: Account | null = account();
  let reads = 0;
  let now = 0;
  const inner: AccountRepository = {
    insert: async (created) => {
      stored = created;
    },
    findById: async () => {
      reads += 1;
      return stored;
    },
    findByName: async () => stored,
    list: async () => (stored ? [stored] : []),
    updateSettings: async (_id, settings) => (stored = account({ ...stored?.settings, ...settings })),
  };
  const cache = new CachingAccountRepository(inner, 1_000, 10, () => now);
  return {
    cache,
    reads: () => reads,
    advance: (ms: number) => (now += ms),
    changeElsewhere: (settings: AccountSettings) => (stored = account(settings)),
  };
}

describe(CachingAccountRepository.name, () => {
  it('holds, once primed, every account without a read', async () => {
    const { cache, reads } = setup();
    expect(await cache.primeAll()).toBe(1);
    expect(await cache.findById('acc_1')).toMatchObject({ id: 'acc_1' });
    expect(reads()).toBe(0);
  });

  it('reuses a lookup within the TTL, and reads again after it', async () => {
    const { cache, reads, advance } = setup();
    await cache.findById('acc_1');
    await cache.findById('acc_1');
    expect(reads()).toBe(1);
    advance(1_001);
    await cache.findById('acc_1');
    expect(reads()).toBe(2);
  });

  it('shows a settings change made through it on the very next lookup', async () => {
    const { cache } = setup();
    await cache.findById('acc_1');
    await cache.updateSettings('acc_1', { defaultAction: 'REVIEW' });
    expect((await cache.findById('acc_1'))?.settings.defaultAction).toBe('REVIEW');
  });

  it('shows a change made through another process once the TTL has passed', async () => {
    const { cache, advance, changeElsewhere } = setup();
    await cache.findById('acc_1');
    changeElsewhere({ defaultAction: 'PREVENT' });
    expect((await cache.findById('acc_1'))?.settings.defaultAction).toBeUndefined();
    advance(1_001);
    expect((await cache.findById('acc_1'))?.settings.defaultAction).toBe('PREVENT');
  });
});
