import { ExpiringLookups } from '../expiring-lookups';
import type { ActiveSession, SessionRecord, SessionRepository } from './people';

/** How long a session lookup is reused by a process that is not the sole writer: another process's sign-out applies within this. */
export const SESSION_CACHE_TTL_MS = 1_000;
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

type Found = ActiveSession | null;

/**
 * Every console request authenticates its session: this reuses a lookup (found or not) keyed by
 * the token's hash, like `CachingApiKeyRepository`. This process's own sign-outs, disables and
 * role changes drop what they affect at once, so they apply from the very next request; another
 * process's apply within `ttlMs`. Expiry is checked by the authenticator on every request.
 */
export class CachingSessionRepository implements SessionRepository {
  private readonly lookups: ExpiringLookups<Found>;

  constructor(
    private readonly inner: SessionRepository,
    ttlMs = SESSION_CACHE_TTL_MS,
    maxEntries = SESSION_CACHE_MAX_ENTRIES,
    now: () => number = Date.now,
  ) {
    this.lookups = new ExpiringLookups(ttlMs, maxEntries, now);
  }

  findActiveByHash(tokenHash: string): Promise<Found> {
    return this.lookups.get(tokenHash, () => this.inner.findActiveByHash(tokenHash));
  }

  /**
   * Nothing to forget: a new session's token was just generated (256 random bits), so no lookup
   * of its hash can be cached yet; deleting would only cancel another request's lookup in flight.
   */
  insert(session: SessionRecord): Promise<void> {
    return this.inner.insert(session);
  }

  async end(sessionId: string, at: Date): Promise<boolean> {
    const ended = await this.inner.end(sessionId, at);
    this.lookups.deleteWhere((found) => found?.session.id === sessionId);
    return ended;
  }

  async endAllOfUser(userId: string, at: Date): Promise<number> {
    const ended = await this.inner.endAllOfUser(userId, at);
    this.forgetUser(userId);
    return ended;
  }

  /** Drops the user's sessions' lookups (their name changed: the next request reads it afresh). */
  forgetUser(userId: string): void {
    this.lookups.deleteWhere((found) => found?.user.id === userId);
  }
}
