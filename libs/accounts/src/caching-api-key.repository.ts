import type { Account, ApiKeyRecord, ApiKeyRepository } from './account';
import { ExpiringLookups } from './expiring-lookups';

/** How long an authentication lookup is reused: a revocation or a settings change made through another process takes effect within this. */
export const API_KEY_CACHE_TTL_MS = 1_000;
/** Lookups held at most; beyond that the oldest go first (a flood of unknown keys stays bounded). */
export const API_KEY_CACHE_MAX_ENTRIES = 10_000;

type Found = { key: ApiKeyRecord; account: Account } | null;

/**
 * Every request authenticates with its key: one database statement each, the only one on
 * read-only routes. This decorator reuses a lookup (found or not) for `ttlMs`, keyed by the
 * key's hash (never the key), and sends one lookup at a time per key (`ExpiringLookups`). This
 * process's own revocations and settings changes drop the entries they affect at once; other
 * processes' changes apply within `ttlMs`.
 */
export class CachingApiKeyRepository implements ApiKeyRepository {
  private readonly lookups: ExpiringLookups<Found>;

  constructor(
    private readonly inner: ApiKeyRepository,
    ttlMs = API_KEY_CACHE_TTL_MS,
    maxEntries = API_KEY_CACHE_MAX_ENTRIES,
    now: () => number = Date.now,
  ) {
    this.lookups = new ExpiringLookups(ttlMs, maxEntries, now);
  }

  /** Holds every active key of these accounts, one statement per account (a sole writer's start); returns how many. */
  async primeActive(accounts: readonly Account[]): Promise<number> {
    let primed = 0;
    for (const account of accounts) {
      for (const key of await this.inner.listForAccount(account.id)) {
        if (key.revokedAt !== null) continue;
        this.lookups.prime(key.keyHash, { key, account });
        primed += 1;
      }
    }
    return primed;
  }

  findActiveByHash(keyHash: string): Promise<Found> {
    return this.lookups.get(keyHash, () => this.inner.findActiveByHash(keyHash));
  }

  async insert(key: ApiKeyRecord): Promise<void> {
    await this.inner.insert(key);
    // A key looked up (unknown) before it was issued must not stay unknown.
    this.lookups.delete(key.keyHash);
  }

  /** Not cached: only the bootstrap asks it, once per start. */
  findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.inner.findByHash(keyHash);
  }

  listForAccount(accountId: string): Promise<ApiKeyRecord[]> {
    return this.inner.listForAccount(accountId);
  }

  async revoke(keyId: string, at: Date): Promise<boolean> {
    const revoked = await this.inner.revoke(keyId, at);
    this.lookups.deleteWhere((found) => found?.key.id === keyId);
    return revoked;
  }

  forgetAccount(accountId: string): void {
    this.lookups.deleteWhere((found) => found?.account.id === accountId);
  }
}
