import type { ActiveSession, SessionRecord, SessionRepository, UserChanges, UserRecord, UserRepository } from '../people/people';

/** Map-backed people repositories for domain tests; the real ones are tested in libs/account-store. */
export class InMemoryUserRepository implements UserRepository {
  readonly rows = new Map<string, UserRecord>();
  async insert(user: UserRecord) {
    if ([...this.rows.values()].some((row) => row.email === user.email)) return false;
    this.rows.set(user.id, { ...user });
    return true;
  }
  async findByEmail(email: string) {
    return [...this.rows.values()].find((row) => row.email === email) ?? null;
  }
  async findById(accountId: string, userId: string) {
    const user = this.rows.get(userId);
    return user?.accountId === accountId ? user : null;
  }
  async listForAccount(accountId: string) {
    return [...this.rows.values()].filter((row) => row.accountId === accountId);
  }
  async update(accountId: string, userId: string, changes: UserChanges) {
    const user = await this.findById(accountId, userId);
    if (!user) return null;
    const updated = { ...user, ...changes };
    this.rows.set(userId, updated);
    return updated;
  }
}

export class InMemorySessionRepository implements SessionRepository {
  readonly rows = new Map<string, SessionRecord>();
  constructor(private readonly users: InMemoryUserRepository) {}
  async insert(session: SessionRecord) {
    this.rows.set(session.id, { ...session });
  }
  async findActiveByHash(tokenHash: string): Promise<ActiveSession | null> {
    const session = [...this.rows.values()].find((row) => row.tokenHash === tokenHash && row.endedAt === null);
    const user = session ? this.users.rows.get(session.userId) : undefined;
    if (!session || !user || user.disabled) return null;
    const { passwordHash: _hash, ...withoutHash } = user;
    return { session, user: withoutHash };
  }
  async end(sessionId: string, at: Date) {
    const session = this.rows.get(sessionId);
    if (!session || session.endedAt !== null) return false;
    this.rows.set(sessionId, { ...session, endedAt: at });
    return true;
  }
  async endAllOfUser(userId: string, at: Date) {
    let ended = 0;
    for (const session of this.rows.values()) if (session.userId === userId && (await this.end(session.id, at))) ended += 1;
    return ended;
  }
}
