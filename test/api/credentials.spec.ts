import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';
import { type CapturedLogs, captureLogs } from '../support/captured-logs';

type Envelope = { status: number; message: string; timestamp: number; traceId: string };
type CredentialStatus = { usernameBreached: boolean; passwordBreached: boolean; numBreachedPasswords: number };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** The SHA-256 of "1234", which ADR-0006 names. */
const SHA256_OF_1234 = '03ac674216f3e15c761ee1a5e255f067953623c8b388b4459e13f978d7c846f4';

let sequence = 0;
const uniqueUsername = () => `user-${Date.now().toString(36)}-${(sequence += 1)}@example.com`;
const uncommonPassword = () => `uncommon passphrase ${Date.now()} ${(sequence += 1)} zebra-kettle`;

/** ADR-0006: the breached-credentials check and its import, through the real embedded stack. */
describe('breached credentials (/v2/lookup/credentials/check)', () => {
  let service: EmbeddedService;
  /** Every line the service logged since it started answering, at trace level. */
  let logs: CapturedLogs;

  beforeAll(async () => {
    service = await startEmbeddedService();
    logs = captureLogs(service);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const check = (body: unknown, apiKey = TEST_BOOTSTRAP_KEY) =>
    service.client.send<CredentialStatus>({ method: 'POST', path: '/v2/lookup/credentials/check', body, apiKey });
  const importPairs = (entries: unknown, apiKey = TEST_ADMIN_KEY) =>
    service.client.send<{ received: number; inserted: number }>({ method: 'POST', path: '/admin/breached-credentials', body: { entries }, apiKey });

  function expectEnvelope(response: { status: number; body: unknown }, status: number): Envelope {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ status, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
    return response.body as Envelope;
  }

  it('reports the SHA-256 of "1234" breached for any username, with exactly the three fields', async () => {
    const response = await check({ username: uniqueUsername(), passwordHash: SHA256_OF_1234 });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ usernameBreached: false, passwordBreached: true, numBreachedPasswords: 0 });
    expect(Object.keys(response.body).filter((key) => key.toLowerCase().includes('hash'))).toEqual([]);
  });

  it('reports an unknown username with an uncommon password as not breached', async () => {
    const response = await check({ username: uniqueUsername(), passwordHash: sha256(uncommonPassword()) });

    expect(response.body).toEqual({ usernameBreached: false, passwordBreached: false, numBreachedPasswords: 0 });
  });

  it('finds imported pairs: the username (normalised), its count, and its passwords in either hex case', async () => {
    const username = uniqueUsername();
    const [first, second] = [uncommonPassword(), uncommonPassword()];
    const imported = await importPairs([
      { username: `  ${username.toUpperCase()} `, passwordHash: sha256(first).toUpperCase() },
      { username, passwordHash: sha256(second) },
      { username, passwordHash: sha256(second) },
    ]);
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ received: 3, inserted: 2 });

    expect((await check({ username, passwordHash: sha256(first) })).body).toEqual({
      usernameBreached: true,
      passwordBreached: true,
      numBreachedPasswords: 2,
    });
    expect((await check({ username: ` ${username.toUpperCase()}`, passwordHash: sha256(second).toUpperCase() })).body).toMatchObject({
      passwordBreached: true,
    });
    expect((await check({ username, passwordHash: sha256(uncommonPassword()) })).body).toEqual({
      usernameBreached: true,
      passwordBreached: false,
      numBreachedPasswords: 2,
    });
  });

  it('imports idempotently: pairs already stored are counted as received, not inserted', async () => {
    const entries = [{ username: uniqueUsername(), passwordHash: sha256(uncommonPassword()) }];
    await importPairs(entries);

    expect((await importPairs(entries)).body).toEqual({ received: 1, inserted: 0 });
  });

  describe('never repeats, logs or stores the hash it was given', () => {
    it.each([
      ['63 hex characters', 'a'.repeat(63)],
      ['65 hex characters', 'a'.repeat(65)],
      ['a non-hex character', `${'a'.repeat(63)}g`],
      ['a plaintext password', 'correct horse battery staple'],
    ])('answers 400 for %s, naming the rule without the value', async (_case, passwordHash) => {
      const { message } = expectEnvelope(await check({ username: uniqueUsername(), passwordHash }), 400);

      expect(message).toBe('passwordHash: must be 64 hexadecimal characters (the SHA-256 of the password)');
      expect(message).not.toContain(passwordHash);
    });

    it('answers 400 naming every missing or wrong field', async () => {
      const { message } = expectEnvelope(await check({ passwordHash: 42 }), 400);

      expect(message).toContain('username: is required');
      expect(message).toContain('passwordHash: must be 64 hexadecimal characters');
    });

    it('leaves no trace of a checked hash in the log or the event log', async () => {
      const checked = sha256(uncommonPassword());
      const username = uniqueUsername();
      await importPairs([{ username, passwordHash: sha256(uncommonPassword()) }]);
      const logBefore = logs.text.length;

      expect((await check({ username, passwordHash: checked })).status).toBe(200);
      expect((await check({ username, passwordHash: checked.toUpperCase() })).status).toBe(200);
      expectEnvelope(await check({ username, passwordHash: `${checked}0` }), 400);
      // An event sent beside the checks, to show the event log's file is read as written.
      const customerId = `cus-beside-the-checks-${Date.now()}`;
      const sent = await service.client.send({ method: 'POST', path: '/v2/customer', body: { timestamp: Date.now(), customer: { customerId } }, apiKey: TEST_BOOTSTRAP_KEY });
      expect(sent.status).toBe(200);

      expect(logs.text.length).toBeGreaterThan(logBefore);
      expect(logs.text).toContain('request completed');
      expect(logs.text.toLowerCase()).not.toContain(checked);
      // The event log's own file (LMDB keeps its strings as UTF-8), every byte of it.
      const eventLog = readFileSync(join(service.dataDir, 'event-log', 'data.mdb')).toString('latin1').toLowerCase();
      expect(eventLog).toContain(customerId);
      expect(eventLog).not.toContain(checked);
    });
  });

  describe('the admin import', () => {
    it('refuses more than 5,000 entries in one request', async () => {
      const entries = Array.from({ length: 5_001 }, (_, index) => ({ username: `u${index}`, passwordHash: SHA256_OF_1234 }));

      expect(expectEnvelope(await importPairs(entries), 400).message).toContain('entries: must contain no more than 5000 elements');
    });

    it('names a bad entry without its value', async () => {
      const bad = 'not-a-hash-but-a-password';
      const { message } = expectEnvelope(await importPairs([{ username: 'ada', passwordHash: SHA256_OF_1234 }, { username: 'grace', passwordHash: bad }]), 400);

      expect(message).toBe('entries.1.passwordHash: must be 64 hexadecimal characters (the SHA-256 of the password)');
    });

    it('is for the admin token only', async () => {
      expectEnvelope(await importPairs([{ username: 'ada', passwordHash: SHA256_OF_1234 }], TEST_BOOTSTRAP_KEY), 403);
    });
  });

  describe('the reload route (the CLI calls it after its import)', () => {
    const reload = (apiKey = TEST_ADMIN_KEY) =>
      service.client.send<{ generation: string | null; pairs: number; usernames: number }>({ method: 'POST', path: '/admin/breached-credentials/reload', apiKey });

    it('answers the generation checks read and its size', async () => {
      const username = uniqueUsername();
      await importPairs([{ username, passwordHash: sha256(uncommonPassword()) }]);

      const response = await reload();

      expect(response.status).toBe(200);
      expect(response.body).toEqual({ generation: expect.stringMatching(/^gen-\d{6}$/), pairs: expect.any(Number), usernames: expect.any(Number) });
      expect(response.body.pairs).toBeGreaterThanOrEqual(1);
    });

    it('is for the admin token only', async () => {
      expectEnvelope(await reload(TEST_BOOTSTRAP_KEY), 403);
    });
  });

  it('keeps the store on disk: no table of pairs in the database', async () => {
    const tables = await service.app
      .get(DataSource)
      .query<Array<{ name: string }>>(`SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'breached%'`);
    expect(tables).toEqual([]);
  });

  it('needs a secret key', async () => {
    const created = await service.client.send<{ keys: { publishableTest: string } }>({
      method: 'POST',
      path: '/admin/accounts',
      body: { name: `credentials-${Date.now()}` },
      apiKey: TEST_ADMIN_KEY,
    });

    expectEnvelope(await check({ username: 'ada', passwordHash: SHA256_OF_1234 }, created.body.keys.publishableTest), 403);
    expectEnvelope(await service.client.send({ method: 'POST', path: '/v2/lookup/credentials/check', body: { username: 'ada', passwordHash: SHA256_OF_1234 } }), 401);
  });
});
