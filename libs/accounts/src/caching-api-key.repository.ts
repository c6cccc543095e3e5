import type { Account, ApiKeyRecord, ApiKeyRepository } from './account';

/** How long an authentication lookup is reused: a revocation or a settings change made through another process takes effect within this. */
export const API_KEY_CACHE_TTL_MS = 1_000;
/** Lookups held at most; beyond that the oldest go first (a flood of unknown keys stays bounded). */
export const API_KEY_CACHE_MAX_ENTRIES = 10_000;

type Found = { key: ApiKeyRecord; account: Account } | null;

interface Entry {
  found: Found;
  expiresAt: number;
}

/**
 * Every request authenticates with its key: one database statement each, the only one on
 * read-only routes. This decorator reuses a lookup (found or not) for `ttlMs`, keyed by the
 * key's hash (never the key). This process's own revocations and settings changes drop the
 * entries they affect at once; other processes' changes apply within `ttlMs`.
 */
export class CachingApiKeyRepository implements ApiKeyRepository {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly inner: ApiKeyRepository,
    private readonly ttlMs = API_KEY_CACHE_TTL_MS,
    private readonly maxEntries = API_KEY_CACHE_MAX_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {}

  async findActiveByHash(keyHash: string): Promise<Found> {
    const cached = this.entries.get(keyHash);
    if (cached !== undefined && cached.expiresAt > this.now()) return cached.found;
    const found = await this.inner.findActiveByHash(keyHash);
    this.entries.delete(keyHash);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(keyHash, { found, expiresAt: this.now() + this.ttlMs });
    return found;
  }

  insert(key: ApiKeyRecord): Promise<void> {
    // A key looked up (unknown) just before it was issued must not stay unknown.
    this.entries.delete(key.keyHash);
    return this.inner.insert(key);
  }

  listForAccount(accountId: string): Promise<ApiKeyRecord[]> {
    return this.inner.listForAccount(accountId);
  }

  async revoke(keyId: string, at: Date): Promise<boolean> {
    const revoked = await this.inner.revoke(keyId, at);
    this.forget((entry) => entry.found?.key.id === keyId);
    return revoked;
  }

  forgetAccount(accountId: string): void {
    this.forget((entry) => entry.found?.account.id === accountId);
  }

  private forget(matches: (entry: Entry) => boolean): void {
    for (const [hash, entry] of this.entries) if (matches(entry)) this.entries.delete(hash);
  }
}
