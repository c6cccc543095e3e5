import type { Account, AccountRepository, AccountSettings } from './account';
import { API_KEY_CACHE_TTL_MS } from './caching-api-key.repository';

/** Accounts held at most; beyond that the oldest go first. */
export const ACCOUNT_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  account: Account | null;
  expiresAt: number;
}

/**
 * Every checkpoint reads its account's settings (thresholds, lookup and voucher policies): one
 * statement each. This decorator reuses `findById` for `ttlMs`, the same as the API-key cache,
 * so the two agree on when a change takes effect: at once for changes made through this
 * process (they drop the entry), within `ttlMs` for changes made through another process.
 */
export class CachingAccountRepository implements AccountRepository {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly inner: AccountRepository,
    private readonly ttlMs = API_KEY_CACHE_TTL_MS,
    private readonly maxEntries = ACCOUNT_CACHE_MAX_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {}

  async findById(accountId: string): Promise<Account | null> {
    const cached = this.entries.get(accountId);
    if (cached !== undefined && cached.expiresAt > this.now()) return cached.account;
    const account = await this.inner.findById(accountId);
    this.entries.delete(accountId);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(accountId, { account, expiresAt: this.now() + this.ttlMs });
    return account;
  }

  async insert(account: Account): Promise<void> {
    // An id looked up (unknown) just before the account was created must not stay unknown.
    this.entries.delete(account.id);
    await this.inner.insert(account);
  }

  findByName(name: string): Promise<Account | null> {
    return this.inner.findByName(name);
  }

  list(): Promise<Account[]> {
    return this.inner.list();
  }

  async updateSettings(accountId: string, settings: AccountSettings): Promise<Account | null> {
    const updated = await this.inner.updateSettings(accountId, settings);
    this.entries.delete(accountId);
    return updated;
  }
}
