import type { Account, AccountRepository, AccountSettings } from './account';
import { API_KEY_CACHE_TTL_MS } from './caching-api-key.repository';
import { ExpiringLookups } from './expiring-lookups';

/** Accounts held at most; beyond that the oldest go first. */
export const ACCOUNT_CACHE_MAX_ENTRIES = 10_000;

/**
 * Every checkpoint reads its account's settings (thresholds, lookup and voucher policies): one
 * statement each. This decorator reuses `findById` for `ttlMs`, the same as the API-key cache,
 * so the two agree on when a change takes effect: at once for changes made through this
 * process (they drop the entry), within `ttlMs` for changes made through another process. One
 * read at a time per account (`ExpiringLookups`).
 */
export class CachingAccountRepository implements AccountRepository {
  private readonly lookups: ExpiringLookups<Account | null>;

  constructor(
    private readonly inner: AccountRepository,
    ttlMs = API_KEY_CACHE_TTL_MS,
    maxEntries = ACCOUNT_CACHE_MAX_ENTRIES,
    now: () => number = Date.now,
  ) {
    this.lookups = new ExpiringLookups(ttlMs, maxEntries, now);
  }

  /** Holds every account, read in one statement (a sole writer's start); returns how many. */
  async primeAll(): Promise<number> {
    const accounts = await this.inner.list();
    for (const account of accounts) this.lookups.prime(account.id, account);
    return accounts.length;
  }

  findById(accountId: string): Promise<Account | null> {
    return this.lookups.get(accountId, () => this.inner.findById(accountId));
  }

  async insert(account: Account): Promise<void> {
    await this.inner.insert(account);
    // An id looked up (unknown) before the account was created must not stay unknown.
    this.lookups.delete(account.id);
  }

  findByName(name: string): Promise<Account | null> {
    return this.inner.findByName(name);
  }

  list(): Promise<Account[]> {
    return this.inner.list();
  }

  async updateSettings(accountId: string, settings: AccountSettings): Promise<Account | null> {
    const updated = await this.inner.updateSettings(accountId, settings);
    this.lookups.delete(accountId);
    return updated;
  }
}
