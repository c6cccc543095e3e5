import type { SessionRecord, UserRecord, UserRepository, SessionRepository, AccountRepository } from '@ringfence/accounts';
import { buildAccount } from '@ringfence/persistence/testing';

let sequence = 0;

const buildUser = (accountId: string, overrides: Partial<UserRecord> = {}): UserRecord => {
  sequence += 1;
  return {
    id: `usr_${sequence}_${Date.now()}`,
    accountId,
    email: `person${sequence}.${Date.now()}@example.com`,
    name: 'Ann',
    role: 'analyst',
    passwordHash: 'scrypt$32768$8$1$c2FsdA$a2V5',
    disabled: false,
    createdAt: new Date('2030-01-01T10:00:00.123Z'),
    createdBy: 'key key_1',
    ...overrides,
  };
};

const buildSession = (user: UserRecord, overrides: Partial<SessionRecord> = {}): SessionRecord => {
  sequence += 1;
  return {
    id: `ses_${sequence}_${Date.now()}`,
    accountId: user.accountId,
    userId: user.id,
    environment: 'live',
    tokenHash: `${sequence}`.padStart(64, 'a'),
    createdAt: new Date('2030-01-01T10:00:00.123Z'),
    expiresAt: new Date('2030-01-01T22:00:00.123Z'),
    endedAt: null,
    ...overrides,
  };
};

/** What the people repositories must do; run against each database by its spec files. */
export function itBehavesLikePeopleRepositories(repositories: () => { accounts: AccountRepository; users: UserRepository; sessions: SessionRepository }): void {
  const insertUser = async (overrides: Partial<UserRecord> = {}) => {
    const account = buildAccount();
    await repositories().accounts.insert(account);
    const user = buildUser(account.id, overrides);
    await expect(repositories().users.insert(user)).resolves.toBe(true);
    return user;
  };

  it('stores a user and finds it by address and by id within its account only', async () => {
    const user = await insertUser();

    await expect(repositories().users.findByEmail(user.email)).resolves.toEqual(user);
    await expect(repositories().users.findById(user.accountId, user.id)).resolves.toEqual(user);
    await expect(repositories().users.findById('acc_other', user.id)).resolves.toBeNull();
    await expect(repositories().users.listForAccount(user.accountId)).resolves.toEqual([user]);
  });

  it('answers false for an address taken by a user of another account', async () => {
    const user = await insertUser();
    const other = buildAccount();
    await repositories().accounts.insert(other);

    await expect(repositories().users.insert(buildUser(other.id, { email: user.email }))).resolves.toBe(false);
  });

  it('updates a user within its account only', async () => {
    const user = await insertUser();

    await expect(repositories().users.update('acc_other', user.id, { role: 'admin' })).resolves.toBeNull();
    await expect(repositories().users.update(user.accountId, user.id, { role: 'admin', name: 'Ann Lee' })).resolves.toEqual({ ...user, role: 'admin', name: 'Ann Lee' });
  });

  it('finds an unended session of an enabled user by its hash, with its user', async () => {
    const user = await insertUser();
    const session = buildSession(user);
    await repositories().sessions.insert(session);

    const { passwordHash: _hash, ...withoutHash } = user;
    const found = await repositories().sessions.findActiveByHash(session.tokenHash);
    expect(found).toEqual({ session, user: withoutHash });
    expect(found?.user).not.toHaveProperty('passwordHash');
    await expect(repositories().sessions.findActiveByHash('0'.repeat(64))).resolves.toBeNull();
  });

  it('no longer finds an ended session, nor one of a disabled user', async () => {
    const user = await insertUser();
    const ended = buildSession(user);
    const other = buildSession(user);
    await repositories().sessions.insert(ended);
    await repositories().sessions.insert(other);

    await expect(repositories().sessions.end(ended.id, new Date())).resolves.toBe(true);
    await expect(repositories().sessions.end(ended.id, new Date())).resolves.toBe(false);
    await expect(repositories().sessions.findActiveByHash(ended.tokenHash)).resolves.toBeNull();
    await repositories().users.update(user.accountId, user.id, { disabled: true });
    await expect(repositories().sessions.findActiveByHash(other.tokenHash)).resolves.toBeNull();
  });

  it("ends every session of a user, and only that user's", async () => {
    const user = await insertUser();
    const bystander = await insertUser();
    await repositories().sessions.insert(buildSession(user));
    await repositories().sessions.insert(buildSession(user));
    const kept = buildSession(bystander);
    await repositories().sessions.insert(kept);

    await expect(repositories().sessions.endAllOfUser(user.id, new Date())).resolves.toBe(2);
    const { passwordHash: _hash, ...bystanderWithoutHash } = bystander;
    await expect(repositories().sessions.findActiveByHash(kept.tokenHash)).resolves.toEqual({ session: kept, user: bystanderWithoutHash });
  });
}
