import { SIGN_IN_FAILURES_PER_ADDRESS, SIGN_IN_FAILURES_PER_EMAIL } from '@ringfence/service-gateway';
import { customerRequest } from '../support/payload-factories';
import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';

type Keys = { secretTest: string; secretLive: string; publishableTest: string; publishableLive: string };
type CreatedAccount = { accountId: string; keys: Keys };
type User = { userId: string; email: string; name: string; role: string; disabled: boolean; createdAt: number; createdBy: string };
type Session = { token: string; expiresAt: number; environment: string; user: { userId: string; email: string; name: string; role: string } };
type Envelope = { status: number; message: string; timestamp: number; traceId: string };
type HistoryEntry = { review: string; reviewer: { name?: string; email?: string } | null };

const PASSWORD = 'a long enough password';
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** Issue 37's named people through the embedded app over HTTPS: users, sessions, roles. */
describe('people: users, sessions and roles (embedded app over HTTPS)', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  async function newAccount(): Promise<CreatedAccount> {
    const created = await service.client.send<CreatedAccount>({ method: 'POST', path: '/admin/accounts', body: { name: unique('people') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    return created.body;
  }

  const createUser = (apiKey: string, body: Record<string, unknown>) => service.client.send<{ data: User } & Envelope>({ method: 'POST', path: '/v2/users', body, apiKey });
  const signIn = (body: Record<string, unknown>, localAddress?: string) =>
    service.client.send<{ data: Session } & Envelope>({ method: 'POST', path: '/v2/sessions', body, ...(localAddress ? { localAddress } : {}) });

  /** A new user of the account with this role, made with the secret key, and a session of theirs. */
  async function signedIn(account: CreatedAccount, role: string, environment = 'test'): Promise<{ user: User; token: string }> {
    const email = `${unique(role)}@shop.example`;
    const created = await createUser(account.keys.secretTest, { email, name: `The ${role}`, role, password: PASSWORD });
    expect(created.status).toBe(201);
    const session = await signIn({ email, password: PASSWORD, environment });
    expect(session.status).toBe(201);
    return { user: created.body.data, token: session.body.data.token };
  }

  const checktoken = (apiKey: string) => service.client.send<Envelope>({ path: '/v2/auth/checktoken', apiKey });

  it('makes a user with the secret key (lower-cased address, no password in the answer) and refuses a taken address with 409', async () => {
    const account = await newAccount();
    const email = `${unique('Ann')}@Shop.Example`;

    const created = await createUser(account.keys.secretTest, { email, name: 'Ann Lee', role: 'admin', password: PASSWORD });
    const again = await createUser(account.keys.secretLive, { email: email.toUpperCase(), name: 'Ann', role: 'viewer', password: PASSWORD });
    const listed = await service.client.send<{ data: { users: User[] } }>({ path: '/v2/users', apiKey: account.keys.secretTest });

    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ userId: expect.stringMatching(/^usr_/), email: email.toLowerCase(), name: 'Ann Lee', role: 'admin', disabled: false, createdAt: expect.any(Number), createdBy: expect.stringMatching(/^key key_/) });
    expect(JSON.stringify(created.body)).not.toContain(PASSWORD);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/^email:/);
    expect(listed.body.data.users).toEqual([created.body.data]);
  });

  it('refuses a short password and an unknown role, naming the field', async () => {
    const account = await newAccount();

    const short = await createUser(account.keys.secretTest, { email: `${unique('bo')}@shop.example`, name: 'Bo', role: 'viewer', password: 'too short' });
    const role = await createUser(account.keys.secretTest, { email: `${unique('bo')}@shop.example`, name: 'Bo', role: 'owner', password: PASSWORD });

    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/password/);
    expect(role.status).toBe(400);
    expect(role.body.message).toMatch(/role/);
  });

  it('signs in and the token authenticates as the person on the secret-key routes; GET /v2/sessions/current names them', async () => {
    const account = await newAccount();
    const { user, token } = await signedIn(account, 'analyst', 'live');

    const current = await service.client.send<{ data: { user: unknown; environment: string; expiresAt: number } }>({ path: '/v2/sessions/current', apiKey: token });
    const ofKey = await service.client.send<{ data: { user: unknown; expiresAt: unknown } }>({ path: '/v2/sessions/current', apiKey: account.keys.secretTest });

    expect(token).toMatch(/^rfs_[A-Za-z0-9_-]{43}$/);
    expect(current.status).toBe(200);
    expect(current.body.data).toEqual({ user: { userId: user.userId, email: user.email, name: user.name, role: 'analyst' }, environment: 'live', expiresAt: expect.any(Number) });
    expect(current.body.data.expiresAt).toBeGreaterThan(Date.now() + 11 * 3_600_000);
    expect(ofKey.body.data).toMatchObject({ user: null, expiresAt: null });
  });

  it('answers a wrong password and an unknown address with the same 401', async () => {
    const account = await newAccount();
    const { user } = await signedIn(account, 'viewer');

    const wrong = await signIn({ email: user.email, password: 'not the password at all' }, '127.0.0.5');
    const unknown = await signIn({ email: `${unique('nobody')}@shop.example`, password: PASSWORD }, '127.0.0.5');

    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
    expect(JSON.stringify(wrong.body)).not.toContain(user.email);
  });

  // Each failure costs a password hash's time (scrypt, on purpose): more than the default 5 s in all.
  it('throttles failed sign-ins per e-mail address, the right password included, with Retry-After', async () => {
    const account = await newAccount();
    const { user } = await signedIn(account, 'viewer');
    for (let attempt = 0; attempt < SIGN_IN_FAILURES_PER_EMAIL; attempt += 1) {
      expect((await signIn({ email: user.email, password: `wrong password ${attempt}` }, `127.0.0.${10 + attempt}`)).status).toBe(401);
    }

    const refused = await signIn({ email: user.email, password: PASSWORD }, '127.0.0.30');

    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/e-mail address/);
  }, 30_000);

  it('throttles failed sign-ins per client address, whatever address they try', async () => {
    const account = await newAccount();
    const { user } = await signedIn(account, 'viewer');
    for (let attempt = 0; attempt < SIGN_IN_FAILURES_PER_ADDRESS; attempt += 1) {
      expect((await signIn({ email: `${unique('guess')}@shop.example`, password: PASSWORD }, '127.0.0.40')).status).toBe(401);
    }

    const refused = await signIn({ email: user.email, password: PASSWORD }, '127.0.0.40');
    const elsewhere = await signIn({ email: user.email, password: PASSWORD }, '127.0.0.41');

    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/this address/);
    expect(elsewhere.status).toBe(201);
  }, 30_000);

  it("refuses a viewer's POST with 403 naming the role needed, and lets the viewer read", async () => {
    const account = await newAccount();
    const { token } = await signedIn(account, 'viewer');

    const labelled = await service.client.send<Envelope>({ method: 'POST', path: `/v2/customer/${unique('cus')}/labels`, body: { review: 'FRAUDSTER' }, apiKey: token });
    const read = await service.client.send({ path: '/v2/rules', apiKey: token });

    expect(labelled.status).toBe(403);
    expect(labelled.body.message).toBe('this action needs the role analyst; you are signed in as viewer');
    expect(read.status).toBe(200);
  });

  it('refuses rules writes below rule_author, users below admin, and every session on the checkpoint routes', async () => {
    const account = await newAccount();
    const { token: analyst } = await signedIn(account, 'analyst');
    const { token: admin } = await signedIn(account, 'admin');

    const rule = await service.client.send<Envelope>({ method: 'POST', path: '/v2/rules', body: { name: 'r', checkpoint: 'customer', expression: 'true', action: 'REVIEW' }, apiKey: analyst });
    const user = await createUser(analyst, { email: `${unique('x')}@shop.example`, name: 'X', role: 'viewer', password: PASSWORD });
    const checkpoint = await service.client.send<Envelope>({ method: 'POST', path: '/v2/customer', body: customerRequest(), apiKey: admin });
    const byAdmin = await createUser(admin, { email: `${unique('y')}@shop.example`, name: 'Y', role: 'viewer', password: PASSWORD });

    expect(rule.status).toBe(403);
    expect(rule.body.message).toMatch(/needs the role rule_author/);
    expect(user.status).toBe(403);
    expect(user.body.message).toMatch(/needs the role admin/);
    expect(checkpoint.status).toBe(403);
    expect(checkpoint.body.message).toMatch(/for integrations/);
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.data.createdBy).toMatch(/^admin-.*@shop\.example$/);
  });

  it("records the analyst's e-mail address as the label's reviewer, whatever the request says", async () => {
    const account = await newAccount();
    const { user, token } = await signedIn(account, 'analyst');
    const customerId = unique('cus');

    const labelled = await service.client.send({ method: 'POST', path: `/v2/customer/${customerId}/labels`, body: { review: 'FRAUDSTER', reviewer: { name: 'Someone Else', email: 'else@shop.example' } }, apiKey: token });
    const read = await service.client.send<{ data: { history: HistoryEntry[] } }>({ path: `/v2/customer/${customerId}/labels`, apiKey: account.keys.secretTest });

    expect(labelled.status).toBe(200);
    expect(read.body.data.history).toEqual([expect.objectContaining({ review: 'FRAUDSTER', reviewer: { name: user.name, email: user.email } })]);
  });

  it('ends the session at sign-out: the very next request with its token is 401', async () => {
    const account = await newAccount();
    const { token } = await signedIn(account, 'viewer');
    expect((await checktoken(token)).status).toBe(200);

    const signedOut = await service.client.send({ method: 'DELETE', path: '/v2/sessions/current', apiKey: token });

    expect(signedOut.status).toBe(200);
    expect((await checktoken(token)).status).toBe(401);
  });

  it("ends a user's sessions when an admin disables them: the very next request is 401, and sign-in is refused", async () => {
    const account = await newAccount();
    const { user, token } = await signedIn(account, 'analyst');
    const { token: admin } = await signedIn(account, 'admin');
    expect((await checktoken(token)).status).toBe(200);

    const disabled = await service.client.send<{ data: User }>({ method: 'PATCH', path: `/v2/users/${user.userId}`, body: { disabled: true }, apiKey: admin });

    expect(disabled.status).toBe(200);
    expect(disabled.body.data.disabled).toBe(true);
    expect((await checktoken(token)).status).toBe(401);
    expect((await signIn({ email: user.email, password: PASSWORD })).status).toBe(401);
  });

  it("keeps a session to its account and data set: account B's data is not account A's, and another account's user cannot be changed", async () => {
    const first = await newAccount();
    const second = await newAccount();
    const { token } = await signedIn(first, 'admin');
    const { user: other } = await signedIn(second, 'viewer');
    const customerId = unique('cus');
    expect((await service.client.send({ method: 'POST', path: `/v2/customer/${customerId}/labels`, body: { review: 'FRAUDSTER' }, apiKey: second.keys.secretTest })).status).toBe(200);

    const labels = await service.client.send<{ data: { history: unknown[] } }>({ path: `/v2/customer/${customerId}/labels`, apiKey: token });
    const users = await service.client.send<{ data: { users: User[] } }>({ path: '/v2/users', apiKey: token });
    const patched = await service.client.send({ method: 'PATCH', path: `/v2/users/${other.userId}`, body: { role: 'admin' }, apiKey: token });

    expect(labels.body.data.history).toEqual([]);
    expect(users.body.data.users.map((user) => user.userId)).not.toContain(other.userId);
    expect(patched.status).toBe(404);
  });
});

describe('people: session expiry (embedded app over HTTPS, SESSION_TTL_SECONDS=1)', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService({ SESSION_TTL_SECONDS: '1' });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  it('refuses a session after its absolute expiry', async () => {
    const account = (await service.client.send<CreatedAccount>({ method: 'POST', path: '/admin/accounts', body: { name: unique('expiry') }, apiKey: TEST_ADMIN_KEY })).body;
    const email = `${unique('ann')}@shop.example`;
    expect((await service.client.send({ method: 'POST', path: '/v2/users', body: { email, name: 'Ann', role: 'viewer', password: PASSWORD }, apiKey: account.keys.secretTest })).status).toBe(201);
    const session = await service.client.send<{ data: Session }>({ method: 'POST', path: '/v2/sessions', body: { email, password: PASSWORD } });
    const { token, expiresAt } = session.body.data;

    // Waits for a time, not for a state: the session's end is a clock reading the answer gave.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));

    const expired = await service.client.send<Envelope>({ path: '/v2/auth/checktoken', apiKey: token });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);
  });
});
