import { OPERATOR_ONLY_SETTING_RULE } from '@ringfence/accounts';
import { TIME_ZONE_RULE } from '@ringfence/contracts';
import { customerRequest } from '../support/payload-factories';
import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import type { TestResponse } from '../support/https-client';

type Keys = { secretTest: string; secretLive: string; publishableTest: string; publishableLive: string };
type CreatedAccount = { accountId: string; name: string; keys: Keys };
type OwnKey = { keyId: string; prefix: string; kind: string; environment: string; createdAt: string; revokedAt: string | null; current: boolean };
type OwnAccount = { accountId: string; name: string; industry: string | null; createdAt: string; environment: string; settings: Record<string, unknown>; keys: OwnKey[] };
type OwnAccountAnswer = { status: number; timestamp: number; data: OwnAccount };
type Envelope = { status: number; message: string; timestamp: number; traceId: string };
type Decision = { data: { action: string; source: string; score: number } };

/** Each account of this file makes far fewer requests than this, except the one the rate-limit test runs over it. */
const ACCOUNT_LIMIT = 20;
const ISO_MILLIS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** A public address, written as a literal: callback URLs are resolved when saved, and this machine may have no DNS. */
const PUBLIC_URL = 'https://93.184.216.34/ringfence';

let sequence = 0;
const newName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;
const newSecret = () => `whsec-${newName('secret')}-0123456789abcdef`;

/** GET /v2/account and PATCH /v2/account/settings through the embedded app over HTTPS (ADR-0014). */
describe('the account routes (embedded app over HTTPS)', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService({ ACCOUNT_RATE_LIMIT_PER_MINUTE: String(ACCOUNT_LIMIT) });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  async function newAccount(industry?: string): Promise<CreatedAccount> {
    const created = await service.client.send<CreatedAccount>({ method: 'POST', path: '/admin/accounts', body: { name: newName('own'), ...(industry ? { industry } : {}) }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    return created.body;
  }

  const read = (apiKey: string) => service.client.send<OwnAccountAnswer>({ path: '/v2/account', apiKey });
  const patch = (apiKey: string, body: unknown) => service.client.send<OwnAccountAnswer & Envelope>({ method: 'PATCH', path: '/v2/account/settings', body, apiKey });
  const adminPatch = (accountId: string, body: unknown) =>
    service.client.send<Envelope & { settings: Record<string, unknown> }>({ method: 'PATCH', path: `/admin/accounts/${accountId}/settings`, body, apiKey: TEST_ADMIN_KEY });
  const checkpoint = (apiKey: string) => service.client.send<Decision>({ method: 'POST', path: '/v2/customer', body: customerRequest(), apiKey });

  function expectEnvelope(response: TestResponse<unknown>, status: number): Envelope {
    const body = response.body as Envelope;
    expect(response.status).toBe(status);
    expect(body).toEqual({ status, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
    return body;
  }

  describe('GET /v2/account', () => {
    it('shows the account, its settings and every key by prefix, and no secret anywhere', async () => {
      const account = await newAccount('food-delivery');
      const secret = newSecret();
      expect((await adminPatch(account.accountId, { callbackUrl: PUBLIC_URL, callbackSecret: secret, potentialLabelsEnabled: true })).status).toBe(200);
      const issued = await service.client.send<{ keyId: string; key: string }>({ method: 'POST', path: `/admin/accounts/${account.accountId}/keys`, body: { kind: 'secret', env: 'test' }, apiKey: TEST_ADMIN_KEY });
      expect((await service.client.send({ method: 'DELETE', path: `/admin/keys/${issued.body.keyId}`, apiKey: TEST_ADMIN_KEY })).status).toBe(204);

      const answer = await read(account.keys.secretLive);

      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        status: 200,
        timestamp: expect.any(Number),
        data: {
          accountId: account.accountId,
          name: account.name,
          industry: 'food-delivery',
          createdAt: expect.stringMatching(ISO_MILLIS_UTC),
          environment: 'live',
          settings: { scoreThresholds: null, callbackUrl: PUBLIC_URL, callbackSecretSet: true, testCallbackUrl: null, testCallbackSecretSet: false, potentialLabelsEnabled: true, timeZone: null, allowedOrigins: [], testAllowedOrigins: [] },
          keys: expect.any(Array),
        },
      });
      const { keys } = answer.body.data;
      const byPrefix = (key: string) => keys.find((listed) => key.startsWith(listed.prefix) && listed.prefix.length >= 12);
      expect(keys).toHaveLength(5);
      for (const [plaintext, kind, environment] of [
        [account.keys.secretTest, 'secret', 'test'],
        [account.keys.secretLive, 'secret', 'live'],
        [account.keys.publishableTest, 'publishable', 'test'],
        [account.keys.publishableLive, 'publishable', 'live'],
      ]) {
        expect(byPrefix(plaintext)).toEqual({
          keyId: expect.stringMatching(/^key_/),
          prefix: plaintext.slice(0, plaintext.indexOf(`_${environment}_`) + environment.length + 6),
          kind,
          environment,
          createdAt: expect.stringMatching(ISO_MILLIS_UTC),
          revokedAt: null,
          current: plaintext === account.keys.secretLive,
        });
      }
      expect(keys.find((key) => key.keyId === issued.body.keyId)).toMatchObject({ kind: 'secret', environment: 'test', revokedAt: expect.stringMatching(ISO_MILLIS_UTC), current: false });
      for (const plaintext of [...Object.values(account.keys), issued.body.key, secret]) expect(answer.text).not.toContain(plaintext);
      expect(answer.text).not.toMatch(/[0-9a-f]{64}/);
    });

    it('answers the same account to a sandbox key, with its own environment', async () => {
      const account = await newAccount();

      const answer = await read(account.keys.secretTest);

      expect(answer.body.data).toMatchObject({ accountId: account.accountId, environment: 'test', settings: { scoreThresholds: null, callbackUrl: null, callbackSecretSet: false, testCallbackUrl: null, testCallbackSecretSet: false, potentialLabelsEnabled: false, timeZone: null } });
      expect(answer.body.data.keys.filter((key) => key.current)).toEqual([expect.objectContaining({ kind: 'secret', environment: 'test' })]);
    });

    it("shows another account's key its own account only", async () => {
      const first = await newAccount();
      const second = await newAccount();
      const firstKeyIds = (await read(first.keys.secretTest)).body.data.keys.map((key) => key.keyId);

      const answer = await read(second.keys.secretTest);

      expect(answer.body.data.accountId).toBe(second.accountId);
      expect(answer.text).not.toContain(first.accountId);
      for (const keyId of firstKeyIds) expect(answer.text).not.toContain(keyId);
    });
  });

  describe('PATCH /v2/account/settings', () => {
    it('sets the thresholds, and the very next checkpoint of either data set decides with them', async () => {
      const account = await newAccount();
      // Decided (so the account's settings were read and cached) before the change.
      const before = await checkpoint(account.keys.secretTest);
      expect(before.body.data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });

      const scoreThresholds = { customer: { review: 0, prevent: 0 } };
      const patched = await patch(account.keys.secretLive, { scoreThresholds });

      expect(patched.status).toBe(200);
      expect(patched.body.data.settings).toEqual({ scoreThresholds, callbackUrl: null, callbackSecretSet: false, testCallbackUrl: null, testCallbackSecretSet: false, potentialLabelsEnabled: false, timeZone: null, allowedOrigins: [], testAllowedOrigins: [] });
      expect((await checkpoint(account.keys.secretTest)).body.data).toMatchObject({ action: 'PREVENT', source: 'RINGFENCE' });
      expect((await checkpoint(account.keys.secretLive)).body.data).toMatchObject({ action: 'PREVENT', source: 'RINGFENCE' });
      expect((await read(account.keys.secretLive)).body.data.settings.scoreThresholds).toEqual(scoreThresholds);

      const unset = await patch(account.keys.secretLive, { scoreThresholds: null });
      expect(unset.body.data.settings.scoreThresholds).toBeNull();
      expect((await checkpoint(account.keys.secretTest)).body.data).toMatchObject({ action: 'ALLOW', source: 'RINGFENCE' });
    });

    it('changes its own account only', async () => {
      const changed = await newAccount();
      const other = await newAccount();

      await patch(changed.keys.secretLive, { scoreThresholds: { customer: { review: 0, prevent: 0 } } });

      expect((await checkpoint(other.keys.secretTest)).body.data).toMatchObject({ action: 'ALLOW' });
      expect((await read(other.keys.secretTest)).body.data.settings.scoreThresholds).toBeNull();
    });

    it('sets the callback URL and secret: answered as callbackSecretSet, never the secret', async () => {
      const account = await newAccount();
      const secret = newSecret();

      const patched = await patch(account.keys.secretLive, { callbackUrl: PUBLIC_URL, callbackSecret: secret });
      const answer = await read(account.keys.secretLive);

      expect(patched.status).toBe(200);
      expect(patched.text).not.toContain(secret);
      expect(answer.body.data.settings).toMatchObject({ callbackUrl: PUBLIC_URL, callbackSecretSet: true });
      expect(answer.text).not.toContain(secret);
      const listed = await service.client.send<{ accounts: Array<{ accountId: string; settings: Record<string, unknown> }> }>({ path: '/admin/accounts', apiKey: TEST_ADMIN_KEY });
      expect(listed.body.accounts.find((listedAccount) => listedAccount.accountId === account.accountId)?.settings).toEqual({
        callbackUrl: PUBLIC_URL,
        callbackSecretSet: true,
      });

      const cleared = await patch(account.keys.secretLive, { callbackUrl: null, callbackSecret: null });
      expect(cleared.body.data.settings).toMatchObject({ callbackUrl: null, callbackSecretSet: false });
    });

    it.each([
      { scoreThresholds: { customer: { review: 90, prevent: 10 } } },
      { scoreThresholds: { payout: { review: 50, prevent: 101 } } },
      { scoreThresholds: { checkout: { review: 50, prevent: 60 } } },
      { callbackUrl: 'http://93.184.216.34/ringfence', callbackSecret: 'x'.repeat(16) },
      { callbackUrl: 'https://169.254.169.254/latest/meta-data/', callbackSecret: 'x'.repeat(16) },
      { testCallbackUrl: 'https://10.1.2.3/hook', testCallbackSecret: 'x'.repeat(16) },
      { callbackUrl: PUBLIC_URL, callbackSecret: 'too-short' },
      { callbackUrl: PUBLIC_URL },
      { timeZone: 'Europe/Atlantis' },
      { timeZone: '+01:00' },
    ])('answers %j 400 with the admin route\'s message, and changes nothing', async (body) => {
      const account = await newAccount();
      const admin = await service.client.send<Envelope>({ method: 'PATCH', path: `/admin/accounts/${(await newAccount()).accountId}/settings`, body, apiKey: TEST_ADMIN_KEY });

      const refused = await patch(account.keys.secretLive, body);

      expect(expectEnvelope(refused, 400).message).toBe(expectEnvelope(admin, 400).message);
      expect(refused.text).not.toContain('too-short');
      expect((await read(account.keys.secretTest)).body.data.settings).toEqual({ scoreThresholds: null, callbackUrl: null, callbackSecretSet: false, testCallbackUrl: null, testCallbackSecretSet: false, potentialLabelsEnabled: false, timeZone: null, allowedOrigins: [], testAllowedOrigins: [] });
    });

    it('sets the time zone as the server spells it, shown by the very next GET; null resets it to UTC', async () => {
      const account = await newAccount();

      const patched = await patch(account.keys.secretLive, { timeZone: 'america/new_york' });

      expect(patched.status).toBe(200);
      expect(patched.body.data.settings.timeZone).toBe('America/New_York');
      expect((await read(account.keys.secretTest)).body.data.settings.timeZone).toBe('America/New_York');
      const listed = await service.client.send<{ accounts: Array<{ accountId: string; settings: Record<string, unknown> }> }>({ path: '/admin/accounts', apiKey: TEST_ADMIN_KEY });
      expect(listed.body.accounts.find((listedAccount) => listedAccount.accountId === account.accountId)?.settings).toEqual({ timeZone: 'America/New_York' });

      expect((await patch(account.keys.secretLive, { timeZone: null })).body.data.settings.timeZone).toBeNull();
      expect((await read(account.keys.secretLive)).body.data.settings.timeZone).toBeNull();
    });

    it('refuses a time zone that is none, naming the field, and changes nothing sent with it', async () => {
      const account = await newAccount();
      expect((await patch(account.keys.secretLive, { timeZone: 'Europe/London' })).status).toBe(200);

      const refused = await patch(account.keys.secretLive, { timeZone: 'Europe/Atlantis', scoreThresholds: { customer: { review: 0, prevent: 0 } } });

      expect(expectEnvelope(refused, 400).message).toBe(`timeZone: ${TIME_ZONE_RULE}`);
      expect((await read(account.keys.secretLive)).body.data.settings).toMatchObject({ timeZone: 'Europe/London', scoreThresholds: null });
      expect(expectEnvelope(await patch(account.keys.secretLive, { timeZone: 'x'.repeat(65) }), 400).message).toBe(`timeZone: ${TIME_ZONE_RULE}`);
      expect(expectEnvelope(await patch(account.keys.secretLive, { timeZone: 60 }), 400).message).toBe(`timeZone: ${TIME_ZONE_RULE}`);
      expect((await read(account.keys.secretLive)).body.data.settings.timeZone).toBe('Europe/London');
    });

    it('shows the time zone the operator set through the admin route, which refuses a bad one the same way', async () => {
      const account = await newAccount();

      const set = await adminPatch(account.accountId, { timeZone: 'asia/tokyo' });

      expect(set.status).toBe(200);
      expect(set.body.settings).toEqual({ timeZone: 'Asia/Tokyo' });
      expect((await read(account.keys.secretTest)).body.data.settings.timeZone).toBe('Asia/Tokyo');
      expect(expectEnvelope(await adminPatch(account.accountId, { timeZone: 'Asia/Atlantis' }), 400).message).toBe(`timeZone: ${TIME_ZONE_RULE}`);
      expect((await read(account.keys.secretTest)).body.data.settings.timeZone).toBe('Asia/Tokyo');
      expect((await adminPatch(account.accountId, { timeZone: null })).status).toBe(200);
      expect((await read(account.keys.secretTest)).body.data.settings.timeZone).toBeNull();
    });

    it('refuses the operator\'s settings naming each, changes nothing, and ignores fields that are no setting', async () => {
      const account = await newAccount();

      const refused = await patch(account.keys.secretLive, { potentialLabelsEnabled: true, voucherAbuseEnabled: false, scoreThresholds: { customer: { review: 0, prevent: 0 } } });

      expect(expectEnvelope(refused, 400).message).toBe(`voucherAbuseEnabled: ${OPERATOR_ONLY_SETTING_RULE}; potentialLabelsEnabled: ${OPERATOR_ONLY_SETTING_RULE}`);
      expect((await read(account.keys.secretTest)).body.data.settings).toMatchObject({ scoreThresholds: null, potentialLabelsEnabled: false });

      const ignored = await patch(account.keys.secretLive, { scoreThresholds: null, surprise: 'kept nowhere', callbackSecretSet: true });
      expect(ignored.status).toBe(200);
      expect(ignored.text).not.toContain('surprise');
      expect(ignored.body.data.settings).toMatchObject({ callbackSecretSet: false });
    });

    it('answers an empty body with the settings unchanged, and a body that is not JSON 415', async () => {
      const account = await newAccount();

      expect((await patch(account.keys.secretLive, {})).body.data.settings).toEqual({ scoreThresholds: null, callbackUrl: null, callbackSecretSet: false, testCallbackUrl: null, testCallbackSecretSet: false, potentialLabelsEnabled: false, timeZone: null, allowedOrigins: [], testAllowedOrigins: [] });
      expectEnvelope(
        await service.client.send({ method: 'PATCH', path: '/v2/account/settings', rawBody: 'scoreThresholds=null', headers: { 'content-type': 'application/x-www-form-urlencoded' }, apiKey: account.keys.secretLive }),
        415,
      );
    });
  });

  describe('OpenAPI', () => {
    type Schema = { $ref?: string; properties?: Record<string, Schema>; required?: string[]; allOf?: Schema[] };
    type Document = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>; components: { schemas: Record<string, Schema> } };

    it('documents both routes, a body of the self-service settings only, and settings always showing the self-service ones', async () => {
      const document = (await service.client.send<Document>({ path: '/openapi.json' })).body;
      const schemaOf = (ref: string | undefined) => document.components.schemas[(ref ?? '').replace('#/components/schemas/', '')];

      expect(Object.keys(document.paths['/v2/account'])).toEqual(['get']);
      expect(Object.keys(document.paths['/v2/account/settings'])).toEqual(['patch']);
      const body = schemaOf(document.paths['/v2/account/settings'].patch.requestBody?.content['application/json'].schema.$ref);
      expect(Object.keys(body.properties ?? {}).sort()).toEqual(['allowedOrigins', 'callbackSecret', 'callbackUrl', 'scoreThresholds', 'testAllowedOrigins', 'testCallbackSecret', 'testCallbackUrl', 'timeZone']);
      const settings = schemaOf('OwnAccountSettingsDto');
      expect(settings.required).toEqual(expect.arrayContaining(['scoreThresholds', 'callbackUrl', 'callbackSecretSet', 'testCallbackUrl', 'testCallbackSecretSet', 'potentialLabelsEnabled', 'timeZone', 'allowedOrigins', 'testAllowedOrigins']));
      expect(Object.keys(settings.properties ?? {})).not.toContain('callbackSecret');
      expect(Object.keys(settings.properties ?? {})).not.toContain('testCallbackSecret');
    });
  });

  describe('access', () => {
    it('refuses publishable keys 403 on both routes', async () => {
      const account = await newAccount();

      expectEnvelope(await read(account.keys.publishableTest), 403);
      expectEnvelope(await patch(account.keys.publishableLive, { scoreThresholds: { customer: { review: 0, prevent: 0 } } }), 403);
      expect((await read(account.keys.secretTest)).body.data.settings.scoreThresholds).toBeNull();
    });

    it('changes settings with a live secret key only: a sandbox key reads them, and its PATCH is 403 and changes nothing', async () => {
      const account = await newAccount();
      const refused = await patch(account.keys.secretTest, { scoreThresholds: { customer: { review: 0, prevent: 0 } }, callbackUrl: `${PUBLIC_URL}/x` });
      expectEnvelope(refused, 403);
      expect(refused.body.message).toMatch(/live secret key/);
      expect((await read(account.keys.secretTest)).body.data.settings).toMatchObject({ scoreThresholds: null, callbackUrl: null });
      expect((await checkpoint(account.keys.secretLive)).body.data).toMatchObject({ action: 'ALLOW' });
    });

    it('refuses the admin token as every /v2 route does (401: it is not an account key), and no key at all', async () => {
      expectEnvelope(await read(TEST_ADMIN_KEY), 401);
      expectEnvelope(await patch(TEST_ADMIN_KEY, { scoreThresholds: null }), 401);
      expectEnvelope(await service.client.send({ path: '/v2/account' }), 401);
    });

    it('answers a revoked key 401', async () => {
      const account = await newAccount();
      const issued = await service.client.send<{ keyId: string; key: string }>({ method: 'POST', path: `/admin/accounts/${account.accountId}/keys`, body: { kind: 'secret', env: 'live' }, apiKey: TEST_ADMIN_KEY });
      expect((await read(issued.body.key)).status).toBe(200);
      await service.client.send({ method: 'DELETE', path: `/admin/keys/${issued.body.keyId}`, apiKey: TEST_ADMIN_KEY });

      expectEnvelope(await read(issued.body.key), 401);
    });

    it('answers 405 with Allow for a wrong method on either path', async () => {
      const account = await newAccount();

      const wrongOnSettings = await service.client.send({ path: '/v2/account/settings', apiKey: account.keys.secretTest });
      const wrongOnAccount = await service.client.send({ method: 'PATCH', path: '/v2/account', body: {}, apiKey: account.keys.secretTest });

      expectEnvelope(wrongOnSettings, 405);
      expect(wrongOnSettings.headers.allow).toBe('PATCH');
      expectEnvelope(wrongOnAccount, 405);
      expect(wrongOnAccount.headers.allow).toBe('GET');
    });

    it("counts both routes against the account's limit: over it, 429 and nothing changed", async () => {
      const account = await newAccount();
      for (let request = 0; request < ACCOUNT_LIMIT; request += 1) {
        expect((await read(account.keys.secretTest)).status).toBe(200);
      }

      const refused = await patch(account.keys.secretLive, { scoreThresholds: { customer: { review: 0, prevent: 0 } } });

      expectEnvelope(refused, 429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expectEnvelope(await read(account.keys.secretLive), 429);
      const listed = await service.client.send<{ accounts: Array<{ accountId: string; settings: Record<string, unknown> }> }>({ path: '/admin/accounts', apiKey: TEST_ADMIN_KEY });
      expect(listed.body.accounts.find((listedAccount) => listedAccount.accountId === account.accountId)?.settings).toEqual({});
    });
  });
});
