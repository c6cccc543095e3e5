import { createHmac, timingSafeEqual } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { ALL_TOPICS } from '@ringfence/contracts';
import { type EmbeddedService, TEST_ADMIN_KEY, eventually, startEmbeddedService } from '../support/embedded-service';

type Account = { accountId: string; keys: { secretTest: string; secretLive: string } };
type Attempt = { at: string; httpStatus: number | null; error: string | null; durationMs: number };
type Delivery = { deliveryId: string; event: Record<string, unknown>; url: string; status: string; attempts: Attempt[]; nextAttemptAt: string | null; createdAt: string };
type DeliveriesAnswer = { status: number; timestamp: number; data: { deliveries: Delivery[] } };
type Envelope = { status: number; message: string };

const ISO_MILLIS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** The retry base the services of this file run with: 100 ms, then 200 ms (each with jitter down to half). */
const RETRY_BASE_MS = 100;
/**
 * The receivers of this file listen on loopback, which callbacks may reach only when the operator
 * allows it (ADR-0016): as an operator with an internal receiver would.
 */
const LOOPBACK_RECEIVERS = { CALLBACK_ALLOWED_NETWORKS: '127.0.0.0/8' };
/** A public address, written as a literal: the settings tests need no DNS (this machine may have none), and send nothing. */
const PUBLIC_URL = 'https://93.184.216.34/ringfence';

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;
const newSecret = () => `whsec-${newId('secret')}-0123456789abcdef`;

interface ReceivedCallback {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/** What the receiver answers on a path: a status, after an optional delay. */
type Answer = { status: number; delayMs?: number };

/**
 * A real HTTP receiver on 127.0.0.1 (a random port), as an integrator runs one: it records every
 * request and answers each path from its script (the last answer repeats; 200 when unscripted).
 */
class CallbackReceiver {
  readonly received: ReceivedCallback[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private server!: Server;

  static async start(): Promise<CallbackReceiver> {
    const receiver = new CallbackReceiver();
    receiver.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        receiver.received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() });
        const answers = receiver.scripts.get(path) ?? [{ status: 200 }];
        const count = receiver.received.filter((callback) => callback.path === path).length;
        const answer = answers[Math.min(count - 1, answers.length - 1)];
        setTimeout(() => response.writeHead(answer.status, { 'content-type': 'text/plain' }).end('ok'), answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** A path of its own for one test, answered by `answers`. */
  hook(name: string, ...answers: Answer[]): { path: string; url: string } {
    const path = `/hooks/${name}`;
    this.scripts.set(path, answers.length > 0 ? answers : [{ status: 200 }]);
    return { path, url: `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}` };
  }

  answer(path: string, ...answers: Answer[]): void {
    this.scripts.set(path, answers);
  }

  on(path: string): ReceivedCallback[] {
    return this.received.filter((callback) => callback.path === path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** What an integrator's receiver does (docs/api.md, "Review callbacks"): HMAC-SHA256 of "<timestamp>.<raw body>", compared in constant time. */
function signatureVerifies(callback: ReceivedCallback, secret: string): boolean {
  const timestamp = String(callback.headers['ringfence-timestamp']);
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${callback.body}`).digest('hex')}`);
  const received = Buffer.from(String(callback.headers['ringfence-signature']));
  return received.length === expected.length && timingSafeEqual(received, expected);
}

async function setUpAccount(service: EmbeddedService, settings: Record<string, unknown>): Promise<Account> {
  const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('callbacks') }, apiKey: TEST_ADMIN_KEY });
  expect(created.status).toBe(201);
  const patched = await service.client.send({ method: 'PATCH', path: `/admin/accounts/${created.body.accountId}/settings`, body: settings, apiKey: TEST_ADMIN_KEY });
  expect(patched.status).toBe(200);
  return created.body;
}

const label = (service: EmbeddedService, apiKey: string, customerId: string, body: Record<string, unknown> = { review: 'FRAUDSTER' }) =>
  service.client.send<{ eventTime: string }>({ method: 'POST', path: `/v2/customer/${encodeURIComponent(customerId)}/labels`, body, apiKey });

const deliveriesOf = (service: EmbeddedService, apiKey: string, query = '') =>
  service.client.send<DeliveriesAnswer>({ path: `/v2/callbacks/deliveries${query}`, apiKey });

/** ADR-0013 through the embedded app over HTTPS, delivering to a real local receiver. */
describe('review callbacks (embedded app over HTTPS, a real receiver on 127.0.0.1)', () => {
  let service: EmbeddedService;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    receiver = await CallbackReceiver.start();
    service = await startEmbeddedService({ CALLBACK_RETRY_BASE_MS: String(RETRY_BASE_MS), ...LOOPBACK_RECEIVERS });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    await receiver?.close();
  });

  describe('PATCH /admin/accounts/:id/settings', () => {
    const patch = (accountId: string, body: unknown) =>
      service.client.send<{ settings: Record<string, unknown> } & Envelope>({ method: 'PATCH', path: `/admin/accounts/${accountId}/settings`, body, apiKey: TEST_ADMIN_KEY });

    async function newAccount(): Promise<Account> {
      return setUpAccount(service, {});
    }

    it('sets the callback URL and secret, and no answer ever shows the secret: callbackSecretSet instead', async () => {
      const { accountId } = await newAccount();
      const secret = newSecret();

      const patched = await patch(accountId, { callbackUrl: PUBLIC_URL, callbackSecret: secret });
      const listed = await service.client.send<{ accounts: Array<{ accountId: string; settings: Record<string, unknown> }> }>({ path: '/admin/accounts', apiKey: TEST_ADMIN_KEY });

      expect(patched.status).toBe(200);
      expect(patched.body.settings).toEqual({ callbackUrl: PUBLIC_URL, callbackSecretSet: true });
      expect(patched.text).not.toContain(secret);
      expect(listed.body.accounts.find((account) => account.accountId === accountId)?.settings).toEqual({
        callbackUrl: PUBLIC_URL,
        callbackSecretSet: true,
      });
      expect(listed.text).not.toContain(secret);
    });

    it('clears both with null', async () => {
      const { accountId } = await newAccount();
      await patch(accountId, { callbackUrl: PUBLIC_URL, callbackSecret: newSecret() });

      const cleared = await patch(accountId, { callbackUrl: null, callbackSecret: null });

      expect(cleared.status).toBe(200);
      expect(cleared.body.settings).toEqual({ callbackUrl: null, callbackSecretSet: false });
    });

    it.each([
      [{ callbackUrl: 'http://93.184.216.34/ringfence', callbackSecret: 'x'.repeat(16) }, /^callbackUrl: must be an https URL \(plain http only to the networks the operator allows/],
      [{ callbackUrl: 'https://10.0.0.1/hook', callbackSecret: 'x'.repeat(16) }, /^callbackUrl: its host must resolve, and only to public internet addresses$/],
      [{ testCallbackUrl: 'https://169.254.169.254/latest/meta-data/', testCallbackSecret: 'x'.repeat(16) }, /^testCallbackUrl: its host must resolve, and only to public internet addresses$/],
      [{ callbackUrl: 'https://[::ffff:10.0.0.1]/hook', callbackSecret: 'x'.repeat(16) }, /^callbackUrl: its host must resolve, and only to public internet addresses$/],
      [{ callbackUrl: PUBLIC_URL, callbackSecret: 'too-short' }, /^callbackSecret: must be longer than or equal to 16 characters$/],
      [{ callbackUrl: PUBLIC_URL }, /^callbackSecret: is required while callbackUrl is set/],
      [{ scoreThresholds: { customer: { review: 90, prevent: 10 } } }, /^scoreThresholds\.customer\.prevent: must be at least review$/],
      [{ scoreThresholds: { payout: { review: 50, prevent: 101 } } }, /^scoreThresholds\.payout\.prevent: must be an integer from 0 to 100$/],
      [{ scoreThresholds: { checkout: { review: 50, prevent: 60 } } }, /^scoreThresholds: checkout is not a checkpoint \(customer, /],
    ])('answers 400 naming the field for %j, and changes nothing', async (body, message) => {
      const { accountId } = await newAccount();

      const refused = await patch(accountId, body);

      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(message);
      expect(refused.text).not.toContain('too-short');
      const listed = await service.client.send<{ accounts: Array<{ accountId: string; settings: Record<string, unknown> }> }>({ path: '/admin/accounts', apiKey: TEST_ADMIN_KEY });
      expect(listed.body.accounts.find((account) => account.accountId === accountId)?.settings).toEqual({});
    });

    it('stores per-checkpoint score thresholds and answers them as stored', async () => {
      const { accountId } = await newAccount();
      const scoreThresholds = { customer: { review: 60, prevent: 85 }, transaction: { review: 40, prevent: 40 } };

      const patched = await patch(accountId, { scoreThresholds });

      expect(patched.status).toBe(200);
      expect(patched.body.settings).toEqual({ scoreThresholds });
    });
  });

  describe('delivery', () => {
    it('POSTs the signed label change, retries the two 500 answers with backoff, and the deliveries endpoint shows each attempt', async () => {
      const secret = newSecret();
      const hook = receiver.hook(newId('retried'), { status: 500 }, { status: 500 }, { status: 204 });
      const account = await setUpAccount(service, { testCallbackUrl: hook.url, testCallbackSecret: secret });
      const customerId = newId('cus');

      const applied = await label(service, account.keys.secretTest, customerId, { review: 'FRAUDSTER', reviewer: { name: 'Grace Hopper' }, comment: 'ring' });
      expect(applied.status).toBe(200);
      // Delivery is asynchronous by design (off the request, retried after a backoff): wait for the third attempt.
      const received = await eventually(async () => (receiver.on(hook.path).length >= 3 ? receiver.on(hook.path) : null), 10_000);

      expect(received).toHaveLength(3);
      const expectedBody = {
        event: 'label.changed',
        accountId: account.accountId,
        environment: 'test',
        subjectType: 'customer',
        subjectId: customerId,
        category: 'PAYMENT_FRAUD',
        review: 'FRAUDSTER',
        previous: null,
        reviewer: { name: 'Grace Hopper' },
        comment: 'ring',
        eventTime: applied.body.eventTime,
      };
      for (const callback of received) {
        expect(callback.headers['content-type']).toBe('application/json');
        expect(callback.headers['ringfence-timestamp']).toMatch(/^[0-9]{13}$/);
        expect(callback.headers['ringfence-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
        expect(signatureVerifies(callback, secret)).toBe(true);
        expect(signatureVerifies(callback, `${secret}x`)).toBe(false);
        expect(callback.body).toBe(JSON.stringify(expectedBody));
        expect(callback.headers['ringfence-delivery-id']).toBe(received[0].headers['ringfence-delivery-id']);
      }
      // Exponential backoff with jitter: at least half of 100 ms, then at least half of 200 ms.
      expect(received[1].receivedAt - received[0].receivedAt).toBeGreaterThanOrEqual(RETRY_BASE_MS / 2);
      expect(received[2].receivedAt - received[1].receivedAt).toBeGreaterThanOrEqual(RETRY_BASE_MS);

      // The third attempt is recorded once its answer is in: asynchronous, so wait for the record.
      const delivery = await eventually(async () => {
        const answer = await deliveriesOf(service, account.keys.secretTest);
        return answer.body.data.deliveries[0]?.status === 'delivered' ? answer.body.data.deliveries[0] : null;
      });
      expect(delivery).toEqual({
        deliveryId: received[0].headers['ringfence-delivery-id'],
        event: expectedBody,
        url: hook.url,
        status: 'delivered',
        attempts: [
          { at: expect.stringMatching(ISO_MILLIS_UTC), httpStatus: 500, error: 'status', durationMs: expect.any(Number) },
          { at: expect.stringMatching(ISO_MILLIS_UTC), httpStatus: 500, error: 'status', durationMs: expect.any(Number) },
          { at: expect.stringMatching(ISO_MILLIS_UTC), httpStatus: 204, error: null, durationMs: expect.any(Number) },
        ],
        nextAttemptAt: null,
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
      });
      expect(Date.parse(delivery.attempts[1].at)).toBeGreaterThan(Date.parse(delivery.attempts[0].at));
    }, 30_000);

    it('answers the label request at once, whatever the receiver, and a slow receiver holds up no other account', async () => {
      // Answers after 5 s: well past what either request below may take.
      const slowHook = receiver.hook(newId('slow'), { status: 200, delayMs: 5_000 });
      const fastHook = receiver.hook(newId('fast'), { status: 200 });
      const slow = await setUpAccount(service, { testCallbackUrl: slowHook.url, testCallbackSecret: newSecret() });
      const fast = await setUpAccount(service, { testCallbackUrl: fastHook.url, testCallbackSecret: newSecret() });

      const startedAt = Date.now();
      const applied = await label(service, slow.keys.secretTest, newId('cus'));
      const answeredInMs = Date.now() - startedAt;
      // The slow receiver has the request (asynchronous by design: wait for it to arrive).
      await eventually(async () => (receiver.on(slowHook.path).length === 1 ? true : null));
      const fastStartedAt = Date.now();
      await label(service, fast.keys.secretTest, newId('cus'));
      // Asynchronous by design: wait for the other account's delivery.
      await eventually(async () => (receiver.on(fastHook.path).length === 1 ? true : null));

      expect(applied.status).toBe(200);
      expect(answeredInMs).toBeLessThan(2_500);
      expect(Date.now() - fastStartedAt).toBeLessThan(2_500);
      const pending = await deliveriesOf(service, slow.keys.secretTest);
      expect(pending.body.data.deliveries).toEqual([expect.objectContaining({ status: 'pending', attempts: [] })]);
    }, 30_000);

    it("sends a sandbox label to the sandbox receiver only, signed with the sandbox secret, and a live label to the live one", async () => {
      const sandboxSecret = newSecret();
      const liveSecret = newSecret();
      const sandboxHook = receiver.hook(newId('sandbox'));
      const liveHook = receiver.hook(newId('live'));
      const account = await setUpAccount(service, { testCallbackUrl: sandboxHook.url, testCallbackSecret: sandboxSecret, callbackUrl: liveHook.url, callbackSecret: liveSecret });
      const sandboxCustomer = newId('cus');

      await label(service, account.keys.secretTest, sandboxCustomer);
      // Asynchronous by design: wait for the sandbox delivery to be recorded delivered.
      await eventually(async () => ((await deliveriesOf(service, account.keys.secretTest)).body.data.deliveries[0]?.status === 'delivered' ? true : null));
      const liveCustomer = newId('cus');
      await label(service, account.keys.secretLive, liveCustomer);
      // Asynchronous by design: wait for the live delivery to reach its receiver.
      await eventually(async () => (receiver.on(liveHook.path).length === 1 ? true : null));

      const [sandboxCallback] = receiver.on(sandboxHook.path);
      const [liveCallback] = receiver.on(liveHook.path);
      expect(receiver.on(sandboxHook.path)).toHaveLength(1);
      expect(JSON.parse(sandboxCallback!.body)).toMatchObject({ environment: 'test', subjectId: sandboxCustomer });
      expect(signatureVerifies(sandboxCallback!, sandboxSecret)).toBe(true);
      expect(JSON.parse(liveCallback!.body)).toMatchObject({ environment: 'live', subjectId: liveCustomer });
      expect(signatureVerifies(liveCallback!, liveSecret)).toBe(true);
      expect(signatureVerifies(liveCallback!, sandboxSecret)).toBe(false);
    }, 30_000);

    it('sends a pending delivery to the URL set since, and shows where it went', async () => {
      const secret = newSecret();
      const retiredHook = receiver.hook(newId('retired'), { status: 503 });
      const newHook = receiver.hook(newId('new'), { status: 204 });
      const account = await setUpAccount(service, { testCallbackUrl: retiredHook.url, testCallbackSecret: secret });
      await label(service, account.keys.secretTest, newId('cus'));
      // Asynchronous by design: wait for the first, failed attempt.
      await eventually(async () => (receiver.on(retiredHook.path).length >= 1 ? true : null));

      const moved = await service.client.send({ method: 'PATCH', path: `/admin/accounts/${account.accountId}/settings`, body: { testCallbackUrl: newHook.url }, apiKey: TEST_ADMIN_KEY });
      expect(moved.status).toBe(200);
      // The next attempt, after the backoff, goes to the new URL.
      const delivery = await eventually(async () => {
        const [first] = (await deliveriesOf(service, account.keys.secretTest)).body.data.deliveries;
        return first?.status === 'delivered' ? first : null;
      }, 10_000);

      expect(receiver.on(newHook.path)).toHaveLength(1);
      expect(signatureVerifies(receiver.on(newHook.path)[0]!, secret)).toBe(true);
      expect(delivery.url).toBe(newHook.url);
      expect(delivery.attempts.at(-1)).toMatchObject({ httpStatus: 204, error: null });
    }, 30_000);

    it("shows an attempt's error class, never the socket's message", async () => {
      // A port with nothing listening: the connection is refused.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const account = await setUpAccount(service, { testCallbackUrl: `http://127.0.0.1:${closedPort}/hook`, testCallbackSecret: newSecret() });

      await label(service, account.keys.secretTest, newId('cus'));
      // Asynchronous by design: wait for the first attempt's record.
      const attempt = await eventually(async () => (await deliveriesOf(service, account.keys.secretTest)).body.data.deliveries[0]?.attempts[0] ?? null);

      // The class alone: no address, port or socket code.
      expect(attempt).toEqual({ at: expect.stringMatching(ISO_MILLIS_UTC), httpStatus: null, error: 'refused', durationMs: expect.any(Number) });
    }, 30_000);

    it('records no delivery for an account without a callback URL', async () => {
      const plain = await setUpAccount(service, {});

      await label(service, plain.keys.secretTest, newId('cus'));

      const answer = await deliveriesOf(service, plain.keys.secretTest);
      expect(answer.status).toBe(200);
      expect(answer.body.data.deliveries).toEqual([]);
    });

    it('never puts the callback secret on a topic', async () => {
      const secret = newSecret();
      const hook = receiver.hook(newId('topics'));
      const account = await setUpAccount(service, { testCallbackUrl: hook.url, testCallbackSecret: secret });
      await label(service, account.keys.secretTest, newId('cus'));
      // Asynchronous by design: wait until the callback went out.
      await eventually(async () => (receiver.on(hook.path).length === 1 ? true : null));

      const log = service.app.get<EventLogStore>(EVENT_LOG_STORE, { strict: false });
      for (const topic of ALL_TOPICS) {
        const events = await log.readAfter(topic, 0, 100_000);
        expect({ topic, leaks: JSON.stringify(events).includes(secret) }).toEqual({ topic, leaks: false });
      }
    });
  });

  describe('GET /v2/callbacks/deliveries', () => {
    it("lists the data set's deliveries newest first, each one as soon as its label request is answered, a page at a time", async () => {
      const hook = receiver.hook(newId('paged'));
      const account = await setUpAccount(service, { testCallbackUrl: hook.url, testCallbackSecret: newSecret() });
      const customers = [newId('cus'), newId('cus'), newId('cus')];
      for (const customerId of customers) {
        await label(service, account.keys.secretTest, customerId);
        // No wait: the read answers once the callbacks consumer has handled the account's label events.
        const listed = await deliveriesOf(service, account.keys.secretTest);
        expect(listed.body.data.deliveries[0].event.subjectId).toBe(customerId);
      }

      const first = await deliveriesOf(service, account.keys.secretTest, '?limit=2');
      const second = await deliveriesOf(service, account.keys.secretTest, `?limit=2&before=${first.body.data.deliveries[1].deliveryId}`);

      expect(first.status).toBe(200);
      expect(first.body).toEqual({ status: 200, timestamp: expect.any(Number), data: { deliveries: [expect.any(Object), expect.any(Object)] } });
      expect(first.body.data.deliveries.map((delivery) => delivery.event.subjectId)).toEqual([customers[2], customers[1]]);
      expect(second.body.data.deliveries.map((delivery) => delivery.event.subjectId)).toEqual([customers[0]]);
      const live = await deliveriesOf(service, account.keys.secretLive);
      expect(live.body.data.deliveries).toEqual([]);
    });

    it.each([
      ['?limit=0', /^limit: /],
      ['?limit=201', /^limit: /],
      ['?limit=ten', /^limit: /],
      ['?before=not-a-delivery', /^before: /],
      ['?before=dlv_0000000000000000000000', /^before: names no delivery of this data set$/],
    ])('answers 400 naming the parameter for %s', async (query, message) => {
      const account = await setUpAccount(service, {});

      const refused = await service.client.send<Envelope>({ path: `/v2/callbacks/deliveries${query}`, apiKey: account.keys.secretTest });

      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(message);
    });

    it('needs a secret key', async () => {
      await expect(service.client.send({ path: '/v2/callbacks/deliveries' })).resolves.toMatchObject({ status: 401 });
    });
  });
});

describe('review callbacks across a restart', () => {
  let service: EmbeddedService | undefined;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    receiver = await CallbackReceiver.start();
  });

  afterAll(async () => {
    await service?.close();
    await receiver?.close();
  });

  it('resumes a pending delivery from the table after the service starts again', async () => {
    service = await startEmbeddedService({ CALLBACK_RETRY_BASE_MS: '200', ...LOOPBACK_RECEIVERS });
    const secret = newSecret();
    const hook = receiver.hook(newId('restart'), { status: 503 });
    const account = await setUpAccount(service, { testCallbackUrl: hook.url, testCallbackSecret: secret });
    const customerId = newId('cus');
    await label(service, account.keys.secretTest, customerId);
    // Asynchronous by design: wait for a failed attempt to be recorded.
    await eventually(async () => ((await deliveriesOf(service!, account.keys.secretTest)).body.data.deliveries[0]?.attempts.length ? true : null));

    const dataDir = service.dataDir;
    await service.close();
    service = undefined;
    const failedBeforeRestart = receiver.on(hook.path).length;
    receiver.answer(hook.path, { status: 200 });
    service = await startEmbeddedService({ DATA_DIR: dataDir, CALLBACK_RETRY_BASE_MS: '200', ...LOOPBACK_RECEIVERS });

    // The restarted dispatcher finds the pending row and sends it: asynchronous, so wait for it.
    const delivery = await eventually(async () => {
      const [first] = (await deliveriesOf(service!, account.keys.secretTest)).body.data.deliveries;
      return first?.status === 'delivered' ? first : null;
    }, 10_000);
    const deliveries = (await deliveriesOf(service, account.keys.secretTest)).body.data.deliveries;

    expect(failedBeforeRestart).toBeGreaterThanOrEqual(1);
    expect(deliveries).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ httpStatus: 503 });
    expect(delivery.attempts.at(-1)).toMatchObject({ httpStatus: 200, error: null });
    // The restarted dispatcher waited for the bus, through which the gateway signs: every attempt was sent.
    expect(delivery.attempts.filter((attempt) => attempt.httpStatus === null)).toEqual([]);
    const callbacks = receiver.on(hook.path);
    expect(callbacks.length).toBeGreaterThan(failedBeforeRestart);
    expect(new Set(callbacks.map((callback) => callback.headers['ringfence-delivery-id'])).size).toBe(1);
    expect(callbacks.every((callback) => signatureVerifies(callback, secret) && JSON.parse(callback.body).subjectId === customerId)).toBe(true);
  }, 60_000);
});
