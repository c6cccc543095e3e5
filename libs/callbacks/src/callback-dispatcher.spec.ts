import type { NewCallbackDelivery } from './callback-delivery';
import { CallbackDispatcher, type CallbackDispatcherOptions } from './callback-dispatcher';
import { SettingsCallbackTargets } from './callback-targets';
import { type CallbackRequest, type CallbackResponse } from './callback-sender';
import { verifyCallbackSignature } from './callback-signature';
import { InMemoryCallbackDeliveryRepository } from './test-support/in-memory-callback-delivery.repository';
import { until as pollUntil } from '../../../test/tools/eventually';

const SECRET = 'a-callback-secret-of-some-length';
const POLICY = { baseDelayMs: 20, maxDelayMs: 40, windowMs: 60_000 };

let sequence = 0;
function buildDelivery(overrides: Partial<NewCallbackDelivery> = {}): NewCallbackDelivery {
  sequence += 1;
  const now = Date.now();
  return {
    deliveryId: `dlv_${sequence}`,
    accountId: 'acc_1',
    environment: 'live',
    sourceEventId: `evt-${sequence}`,
    url: 'https://receiver.example/hook',
    body: JSON.stringify({ event: 'label.changed', subjectId: `cus-${sequence}` }),
    changedAt: now,
    createdAt: now,
    ...overrides,
  };
}

const answered = (httpStatus: number): CallbackResponse => ({ httpStatus, error: httpStatus >= 200 && httpStatus < 300 ? null : 'status' });

/** A receiver stand-in: answers from a script (the last answer repeats), records every request. */
function scriptedSender(...answers: Array<CallbackResponse | ((request: CallbackRequest) => Promise<CallbackResponse>)>) {
  const requests: CallbackRequest[] = [];
  return {
    requests,
    post: async (request: CallbackRequest): Promise<CallbackResponse> => {
      requests.push(request);
      const answer = answers[Math.min(requests.length - 1, answers.length - 1)];
      return typeof answer === 'function' ? answer(request) : answer;
    },
  };
}

const silentLogger = { info: () => undefined, warn: () => undefined };
const running: CallbackDispatcher[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((dispatcher) => dispatcher.stop()));
});

function setup(sender: CallbackDispatcherOptions['sender'], overrides: Partial<CallbackDispatcherOptions> = {}) {
  const deliveries = new InMemoryCallbackDeliveryRepository();
  const settings = { callbackUrl: 'https://receiver.example/hook' as string | null, callbackSecret: SECRET as string | null };
  const dispatcher = new CallbackDispatcher({
    deliveries,
    targets: new SettingsCallbackTargets(async ({ accountId }) => (accountId === 'acc_1' ? { ...settings } : null)),
    sender,
    logger: silentLogger,
    retry: POLICY,
    idlePollMs: 50,
    ...overrides,
  });
  running.push(dispatcher);
  return { deliveries, settings, dispatcher };
}

/** Delivery is asynchronous by design: the tests wait for the store to show the outcome. */
const until = (condition: () => boolean, timeoutMs = 3_000): Promise<void> => pollUntil(condition, timeoutMs, { intervalMs: 5 });

describe(CallbackDispatcher.name, () => {
  it('POSTs the body with a signature the secret verifies, and marks a 2xx answer delivered', async () => {
    const sender = scriptedSender(answered(204));
    const { deliveries, dispatcher } = setup(sender);
    const delivery = buildDelivery();
    await deliveries.record(delivery);

    dispatcher.start();
    // Asynchronous by design: poll the store.
    await until(() => deliveries.rows[0].status !== 'pending');

    const [request] = sender.requests;
    expect(request.url).toBe(delivery.url);
    expect(request.body).toBe(delivery.body);
    expect(request.headers).toMatchObject({ 'content-type': 'application/json', 'Ringfence-Delivery-Id': delivery.deliveryId });
    expect(request.headers['Ringfence-Timestamp']).toMatch(/^[0-9]{13}$/);
    expect(verifyCallbackSignature({ secret: SECRET, timestamp: request.headers['Ringfence-Timestamp'], body: request.body, signature: request.headers['Ringfence-Signature'] })).toBe(true);
    expect(deliveries.rows[0]).toMatchObject({ status: 'delivered', nextAttemptAt: null, attempts: [{ httpStatus: 204, error: null, at: expect.any(Number), durationMs: expect.any(Number) }] });
  });

  it('retries failures with a growing delay, signing each attempt afresh, until a 2xx', async () => {
    const sender = scriptedSender(answered(500), { httpStatus: null, error: 'refused', detail: 'connect ECONNREFUSED 203.0.113.7:443' }, answered(200));
    const { deliveries, dispatcher } = setup(sender);
    await deliveries.record(buildDelivery());

    dispatcher.start();
    // Asynchronous by design: poll the store.
    await until(() => deliveries.rows[0].status === 'delivered');

    const { attempts } = deliveries.rows[0];
    // The tenant reads the class and its fixed description, never the socket's message.
    expect(attempts.map(({ httpStatus, error }) => [httpStatus, error])).toEqual([
      [500, 'status'],
      [null, 'refused'],
      [200, null],
    ]);
    expect(JSON.stringify(attempts)).not.toContain('203.0.113.7');
    // Equal jitter: at least half the delay (20 ms, then 40 ms) between an attempt's end and the next.
    expect(attempts[1].at - (attempts[0].at + attempts[0].durationMs)).toBeGreaterThanOrEqual(10);
    expect(attempts[2].at - (attempts[1].at + attempts[1].durationMs)).toBeGreaterThanOrEqual(20);
    expect(new Set(sender.requests.map((request) => request.headers['Ringfence-Signature'])).size).toBe(3);
  });

  it('gives a delivery up, failed, once its retry window after the change is over', async () => {
    const sender = scriptedSender(answered(503));
    // Wide enough that a second attempt fits in it on a loaded machine (a first attempt started
    // late would leave no room for another within a narrower one).
    const { deliveries, dispatcher } = setup(sender, { retry: { ...POLICY, windowMs: 500 } });
    await deliveries.record(buildDelivery());

    dispatcher.start();
    // Asynchronous by design: poll the store.
    await until(() => deliveries.rows[0].status === 'failed');

    const { attempts, nextAttemptAt } = deliveries.rows[0];
    expect(nextAttemptAt).toBeNull();
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.every((attempt) => attempt.httpStatus === 503)).toBe(true);
    expect(attempts.at(-1)!.at).toBeGreaterThanOrEqual(deliveries.rows[0].changedAt + 500);
  });

  it('gives a delivery up without sending when the account has cleared its callback URL', async () => {
    const sender = scriptedSender(answered(200));
    const { deliveries, dispatcher, settings } = setup(sender);
    settings.callbackUrl = null;
    await deliveries.record(buildDelivery());

    dispatcher.start();
    // Asynchronous by design: poll the store.
    await until(() => deliveries.rows[0].status !== 'pending');

    expect(sender.requests).toEqual([]);
    expect(deliveries.rows[0]).toMatchObject({ status: 'failed', attempts: [{ httpStatus: null, error: 'no-url' }] });
  });

  it('sends nothing unsigned: without a secret the attempt fails and is retried, and the secret set meanwhile signs the next', async () => {
    const sender = scriptedSender(answered(200));
    const { deliveries, dispatcher, settings } = setup(sender);
    settings.callbackSecret = null;
    await deliveries.record(buildDelivery());

    dispatcher.start();
    // Asynchronous by design: poll the store.
    await until(() => deliveries.rows[0].attempts.length === 1);
    settings.callbackSecret = 'a-rotated-secret-0123456789';
    await until(() => deliveries.rows[0].status === 'delivered');

    expect(deliveries.rows[0].attempts[0]).toMatchObject({ httpStatus: null, error: 'no-secret' });
    const [request] = sender.requests;
    expect(verifyCallbackSignature({ secret: 'a-rotated-secret-0123456789', timestamp: request.headers['Ringfence-Timestamp'], body: request.body, signature: request.headers['Ringfence-Signature'] })).toBe(true);
  });

  it('records an attempt the account registry could not sign as failed, sends nothing, and delivers once it signs again', async () => {
    const sender = scriptedSender(answered(200));
    let registryAnswers = false;
    const registry = new SettingsCallbackTargets(async () => ({ callbackUrl: 'https://receiver.example/hook', callbackSecret: SECRET }));
    const { deliveries, dispatcher } = setup(sender, {
      targets: {
        urlOf: (tenant) => registry.urlOf(tenant),
        sign: async (tenant, timestamp, body) => {
          if (!registryAnswers) throw new Error('no module in this process answers yet');
          return registry.sign(tenant, timestamp, body);
        },
      },
    });
    await deliveries.record(buildDelivery());

    dispatcher.start();
    // Asynchronous by design: poll the store.
    await until(() => deliveries.rows[0].attempts.length === 1);
    expect(sender.requests).toEqual([]);
    registryAnswers = true;
    await until(() => deliveries.rows[0].status === 'delivered');

    expect(deliveries.rows[0].attempts[0]).toMatchObject({ httpStatus: null, error: 'not-signed' });
    expect(sender.requests).toHaveLength(1);
  });

  it('runs attempts concurrently, never more than the bound, so a slow receiver holds only its own slots', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    const slow = async () => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 30));
      inFlight -= 1;
      return answered(200);
    };
    const { deliveries, dispatcher } = setup(scriptedSender(slow), { maxConcurrentAttempts: 3 });
    for (let count = 0; count < 10; count += 1) await deliveries.record(buildDelivery());

    dispatcher.start();
    // Asynchronous by design: poll the store.
    await until(() => deliveries.rows.every((row) => row.status === 'delivered'));

    expect(mostInFlight).toBe(3);
  });

  it('starts a delivery recorded while it sleeps as soon as it is woken', async () => {
    const sender = scriptedSender(answered(200));
    const { deliveries, dispatcher } = setup(sender, { idlePollMs: 60_000 });
    dispatcher.start();
    await new Promise((resolve) => setTimeout(resolve, 20));

    await deliveries.record(buildDelivery());
    dispatcher.wake();
    // Asynchronous by design: poll the store (the idle poll of a minute would fail the test).
    await until(() => deliveries.rows[0].status === 'delivered', 1_000);
  });

  it('on stop, interrupts the attempt in flight and records it as interrupted, still pending', async () => {
    const hanging = (request: CallbackRequest) =>
      new Promise<CallbackResponse>((resolve) => request.signal.addEventListener('abort', () => resolve({ httpStatus: null, error: 'interrupted' })));
    const { deliveries, dispatcher } = setup(scriptedSender(hanging));
    await deliveries.record(buildDelivery());
    dispatcher.start();
    // Asynchronous by design: wait until the attempt is in flight.
    await until(() => dispatcher.attemptsInFlight === 1);

    await dispatcher.stop();

    expect(deliveries.rows[0]).toMatchObject({ status: 'pending', attempts: [{ httpStatus: null, error: 'interrupted' }], nextAttemptAt: expect.any(Number) });
  });

  it('resumes the pending deliveries a stopped dispatcher left in the store', async () => {
    const first = setup(scriptedSender(answered(500)));
    await first.deliveries.record(buildDelivery());
    first.dispatcher.start();
    // Asynchronous by design: poll the store.
    await until(() => first.deliveries.rows[0].attempts.length >= 1);
    await first.dispatcher.stop();

    const sender = scriptedSender(answered(200));
    const second = new CallbackDispatcher({
      deliveries: first.deliveries,
      targets: new SettingsCallbackTargets(async () => ({ callbackUrl: 'https://receiver.example/hook', callbackSecret: SECRET })),
      sender,
      logger: silentLogger,
      retry: POLICY,
    });
    running.push(second);
    second.start();
    await until(() => first.deliveries.rows[0].status === 'delivered');

    expect(sender.requests).toHaveLength(1);
  });

  it('sends a pending delivery to the URL set now, not the one set when the label changed, and shows where it went', async () => {
    const sender = scriptedSender(answered(503), answered(204));
    const { deliveries, dispatcher, settings } = setup(sender);
    const delivery = buildDelivery({ url: 'https://receiver.example/hook' });
    await deliveries.record(delivery);
    dispatcher.start();
    // Asynchronous by design: poll the store.
    await until(() => deliveries.rows[0].attempts.length === 1);

    settings.callbackUrl = 'https://moved.example/new-hook';
    await until(() => deliveries.rows[0].status === 'delivered');

    expect(sender.requests.map((request) => request.url)).toEqual(['https://receiver.example/hook', 'https://moved.example/new-hook']);
    expect(deliveries.rows[0].url).toBe('https://moved.example/new-hook');
  });

  it("asks for the URL and signature of the delivery's own data set", async () => {
    const sender = scriptedSender(answered(204));
    const asked: string[] = [];
    const { deliveries, dispatcher } = setup(sender, {
      targets: new SettingsCallbackTargets(async ({ environment }) => {
        asked.push(environment);
        return { callbackUrl: `https://${environment}.receiver.example/hook`, callbackSecret: SECRET };
      }),
    });
    await deliveries.record(buildDelivery({ environment: 'test' }));
    dispatcher.start();
    // Asynchronous by design: poll the store.
    await until(() => deliveries.rows[0].status === 'delivered');

    expect(asked).toEqual(['test']);
    expect(sender.requests.map((request) => request.url)).toEqual(['https://test.receiver.example/hook']);
  });

  it('gives each account its share: an account past its slots waits while another account is served', async () => {
    let inFlightOfA = 0;
    let mostInFlightOfA = 0;
    const sender = scriptedSender(async (request) => {
      if (!request.url.includes('a.example')) return answered(204);
      inFlightOfA += 1;
      mostInFlightOfA = Math.max(mostInFlightOfA, inFlightOfA);
      await new Promise((resolve) => setTimeout(resolve, 30));
      inFlightOfA -= 1;
      return answered(204);
    });
    const { deliveries, dispatcher } = setup(sender, {
      maxConcurrentAttempts: 6,
      maxAttemptsPerAccount: 2,
      targets: new SettingsCallbackTargets(async ({ accountId }) => ({ callbackUrl: `https://${accountId === 'acc_a' ? 'a' : 'b'}.example/hook`, callbackSecret: SECRET })),
    });
    for (let count = 0; count < 8; count += 1) await deliveries.record(buildDelivery({ accountId: 'acc_a', createdAt: Date.now() - 1_000 }));
    await deliveries.record(buildDelivery({ accountId: 'acc_b' }));

    dispatcher.start();
    // Asynchronous by design: poll the store.
    await until(() => deliveries.rows.every((row) => row.status === 'delivered'));

    expect(mostInFlightOfA).toBe(2);
    // B's delivery, due last, went out in the first round, beside A's first two.
    expect(sender.requests.findIndex((request) => request.url.includes('b.example'))).toBeLessThanOrEqual(2);
  });
});
