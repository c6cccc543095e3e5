import { AppError } from '@ringfence/platform';
import type { Account } from '../account';
import { InMemoryAccountRepository } from '../test-support/in-memory-account-repositories';
import { InMemorySessionRepository, InMemoryUserRepository } from '../test-support/in-memory-people-repositories';
import { CachingSessionRepository } from './caching-session.repository';
import { PeopleAdministration } from './people-administration';
import { SessionAuthenticator, sessionIdOf } from './session-authenticator';

const PASSWORD = 'a long enough password';

describe(PeopleAdministration.name, () => {
  let clock: number;
  let people: PeopleAdministration;
  let users: InMemoryUserRepository;
  let authenticator: SessionAuthenticator;
  let account: Account;

  beforeEach(async () => {
    clock = Date.parse('2030-01-01T10:00:00Z');
    const accounts = new InMemoryAccountRepository();
    account = { id: 'acc_1', name: 'Shop', industry: null, settings: {}, createdAt: new Date(clock) };
    await accounts.insert(account);
    users = new InMemoryUserRepository();
    // A cache that never expires on its own: only the administration's changes may drop entries.
    const sessions = new CachingSessionRepository(new InMemorySessionRepository(users), Number.POSITIVE_INFINITY, 100, () => clock);
    people = new PeopleAdministration(users, sessions, { sessionTtlSeconds: 60, now: () => new Date(clock) });
    authenticator = new SessionAuthenticator(sessions, accounts, () => clock);
  });

  const createAnalyst = (email = 'Ann@Example.com') => people.createUser(account.id, 'key key_1', { email, name: 'Ann', role: 'analyst', password: PASSWORD });

  it('creates a user with a lower-cased address and a hashed password, naming who made it', async () => {
    const user = await createAnalyst();

    expect(user).toMatchObject({ email: 'ann@example.com', name: 'Ann', role: 'analyst', disabled: false, createdBy: 'key key_1' });
    expect(user.passwordHash).toMatch(/^scrypt\$/);
  });

  it('refuses a taken address whatever its case (409) and a short password (400)', async () => {
    await createAnalyst();

    await expect(createAnalyst('ANN@example.com')).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/^email:/) });
    await expect(people.createUser(account.id, 'key key_1', { email: 'bo@example.com', name: 'Bo', role: 'viewer', password: 'short' })).rejects.toMatchObject({ status: 400 });
  });

  it('signs in with the right password whatever the address case, and the token authenticates as the person', async () => {
    await createAnalyst();

    const signedIn = await people.signIn(' ANN@example.com ', PASSWORD, 'live');
    const principal = await authenticator.authenticate(signedIn!.token);

    expect(signedIn!.token).toMatch(/^rfs_[A-Za-z0-9_-]{43}$/);
    expect(signedIn!.session.tokenHash).not.toContain(signedIn!.token.slice(4));
    expect(principal).toMatchObject({ account, environment: 'live', keyKind: 'secret', user: { email: 'ann@example.com', role: 'analyst' } });
    expect(sessionIdOf(principal)).toBe(signedIn!.session.id);
  });

  it('answers null alike for a wrong password, an unknown address and a disabled user', async () => {
    const user = await createAnalyst();

    await expect(people.signIn('ann@example.com', 'a wrong password!', 'test')).resolves.toBeNull();
    await expect(people.signIn('nobody@example.com', PASSWORD, 'test')).resolves.toBeNull();
    await people.updateUser(account.id, user.id, { disabled: true });
    await expect(people.signIn('ann@example.com', PASSWORD, 'test')).resolves.toBeNull();
  });

  it('refuses a session at its absolute expiry, even from the cache', async () => {
    await createAnalyst();
    const { token } = (await people.signIn('ann@example.com', PASSWORD, 'test'))!;
    await authenticator.authenticate(token);

    clock += 59_999;
    await expect(authenticator.authenticate(token)).resolves.toMatchObject({ user: { email: 'ann@example.com' } });
    clock += 1;
    await expect(authenticator.authenticate(token)).rejects.toThrow(AppError);
  });

  it('ends the session at sign-out, at once (the cached lookup is dropped)', async () => {
    await createAnalyst();
    const { token, session } = (await people.signIn('ann@example.com', PASSWORD, 'test'))!;
    await authenticator.authenticate(token);

    await people.signOut(session.id);

    await expect(authenticator.authenticate(token)).rejects.toMatchObject({ status: 401 });
  });

  it.each([
    ['disabling the user', { disabled: true }],
    ['a new role', { role: 'viewer' as const }],
  ])('ends every session of the user at once on %s', async (_change, update) => {
    const user = await createAnalyst();
    const { token } = (await people.signIn('ann@example.com', PASSWORD, 'test'))!;
    await authenticator.authenticate(token);

    await people.updateUser(account.id, user.id, update);

    await expect(authenticator.authenticate(token)).rejects.toMatchObject({ status: 401 });
  });

  it('keeps the sessions on a new name, and the next request carries the new name', async () => {
    const user = await createAnalyst();
    const { token } = (await people.signIn('ann@example.com', PASSWORD, 'test'))!;
    await authenticator.authenticate(token);

    await people.updateUser(account.id, user.id, { name: 'Ann Lee' });

    await expect(authenticator.authenticate(token)).resolves.toMatchObject({ user: { name: 'Ann Lee' } });
  });

  it("does not find or change another account's user (404)", async () => {
    const user = await createAnalyst();

    await expect(people.updateUser('acc_other', user.id, { role: 'admin' })).rejects.toMatchObject({ status: 404 });
    await expect(people.listUsers('acc_other')).resolves.toEqual([]);
  });
});
