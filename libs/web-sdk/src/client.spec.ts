import { webcrypto } from 'node:crypto';
import { describeElement } from './auto-track';
import { type ClientEnvironment, RingfenceClient } from './client';
import type { DeviceReport } from './device-info';
import { MAX_EVENTS_PER_BATCH } from './event-queue';
import { SendError, type Transport } from './transport';

const DEVICE: DeviceReport = { userAgent: 'UA', languages: ['en'], timeZone: 'Europe/London', screen: { width: 1, height: 1, colorDepth: 24, pixelRatio: 1 }, platform: 'Linux', webdriver: false, fingerprint: 'f'.repeat(64) };

class FakeTransport implements Transport {
  readonly sent: Array<Record<string, unknown> & { events: Array<Record<string, unknown>> }> = [];
  readonly beacons: string[] = [];
  failures: SendError[] = [];
  keyFetches = 0;
  send(body: string): Promise<void> {
    const failure = this.failures.shift();
    if (failure) return Promise.reject(failure);
    this.sent.push(JSON.parse(body));
    return Promise.resolve();
  }
  beacon(body: string): boolean {
    this.beacons.push(body);
    return true;
  }
  encryptionKey() {
    this.keyFetches += 1;
    return Promise.reject(new SendError('no key in this test', false));
  }
}

/** A page: the window and document as event targets, enough for the automatic tracking. */
function fakeWindow() {
  const document = Object.assign(new EventTarget(), { referrer: 'https://search.example/?q=shoes', visibilityState: 'visible' });
  return Object.assign(new EventTarget(), { document, location: { href: 'https://shop.example/checkout?email=ada@example.com#card' } });
}

function setUp(options: { window?: ReturnType<typeof fakeWindow>; autoTrack?: boolean } = {}) {
  const transport = new FakeTransport();
  const timers: Array<() => void> = [];
  const errors: unknown[] = [];
  let now = 1763800000000;
  const environment: ClientEnvironment = {
    crypto: webcrypto as unknown as Crypto,
    transport,
    stores: { secure: true },
    describeDevice: () => Promise.resolve(DEVICE),
    now: () => (now += 1),
    window: options.window as unknown as Window | undefined,
    setTimeout: (callback) => timers.push(callback),
    onError: (error) => errors.push(error),
  };
  const client = new RingfenceClient(environment, { autoTrack: options.autoTrack });
  return { client, transport, timers, errors };
}

describe(RingfenceClient.name, () => {
  it('sends tracked events in one batch with the device, its id and the session id', async () => {
    const { client, transport, timers } = setUp();
    client.track('login', { element: { name: 'sign-in', kind: 'form' } });
    client.track('custom_step-2');

    expect(timers).toHaveLength(1);
    await client.flush();
    expect(transport.sent).toEqual([
      {
        timestamp: expect.any(Number),
        deviceId: client.deviceId,
        sessionId: client.sessionId,
        device: DEVICE,
        events: [
          { type: 'login', time: expect.any(Number), element: { name: 'sign-in', kind: 'form' } },
          { type: 'custom_step-2', time: expect.any(Number) },
        ],
      },
    ]);
    expect(client.deviceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('adds the customer once identified', async () => {
    const { client, transport } = setUp();
    client.identify('cus-1');
    client.track('checkout');
    await client.flush();

    expect(transport.sent[0].customerId).toBe('cus-1');
  });

  it('sends at once when a batch is full, without waiting for the timer', async () => {
    const { client, transport } = setUp();
    for (let index = 0; index < MAX_EVENTS_PER_BATCH; index += 1) client.track('click');
    await client.flush();

    expect(transport.sent.map((batch) => batch.events.length)).toEqual([MAX_EVENTS_PER_BATCH]);
  });

  it('keeps a batch that may pass later, drops a refused one, and says so to the caller of flush', async () => {
    const { client, transport } = setUp();
    transport.failures = [new SendError('503', true), new SendError('403', false)];
    client.track('pageview');

    await expect(client.flush()).rejects.toThrow('503');
    await expect(client.flush()).rejects.toThrow('403');
    await client.flush();
    expect(transport.sent).toEqual([]);
  });

  it('refuses an event type the server would refuse', () => {
    const { client } = setUp();

    expect(() => client.track('key press')).toThrow(TypeError);
    expect(() => client.track('x'.repeat(65))).toThrow(TypeError);
  });

  it('asks for the encryption key again after a failed fetch', async () => {
    const { client, transport } = setUp();
    const card = { pan: '4242424242424242', month: 1, year: 2031 };

    await expect(client.encryptCard(card)).rejects.toThrow('no key');
    await expect(client.encryptCard(card)).rejects.toThrow('no key');
    expect(transport.keyFetches).toBe(2);
  });

  it('tracks the page view, pastes and form submissions by itself, with the URL cut of its query and fragment', async () => {
    const window = fakeWindow();
    const { client, transport } = setUp({ window });
    window.document.dispatchEvent(new Event('paste'));
    window.document.dispatchEvent(new Event('submit'));
    await client.flush();

    const page = { url: 'https://shop.example/checkout', referrer: 'https://search.example/' };
    expect(transport.sent[0].events).toEqual([
      { type: 'pageview', time: expect.any(Number), page },
      { type: 'paste', time: expect.any(Number), page },
      { type: 'form-submit', time: expect.any(Number), page },
    ]);
  });

  it('sends what is queued by beacon when the page is hidden or left, and tracks nothing once destroyed', async () => {
    const window = fakeWindow();
    const { client, transport } = setUp({ window });
    await Promise.resolve();
    window.document.visibilityState = 'hidden';
    window.document.dispatchEvent(new Event('visibilitychange'));
    expect(transport.beacons.map((body) => JSON.parse(body).events.map((event: { type: string }) => event.type))).toEqual([['pageview']]);
    expect(JSON.parse(transport.beacons[0]).device).toEqual(DEVICE);

    client.destroy();
    window.document.dispatchEvent(new Event('paste'));
    window.dispatchEvent(new Event('pagehide'));
    expect(transport.beacons).toHaveLength(1);
  });

  it('tracks nothing by itself when asked not to', async () => {
    const { client, transport } = setUp({ window: fakeWindow(), autoTrack: false });
    await client.flush();

    expect(transport.sent).toEqual([]);
  });
});

describe('describeElement', () => {
  const element = (tagName: string, attributes: Record<string, string>) => ({ tagName, getAttribute: (name: string) => attributes[name] ?? null }) as unknown as Element;

  it('names a field by its name or id and its kind by autocomplete, type or tag; never by its value', () => {
    expect(describeElement(element('INPUT', { name: 'card-number', autocomplete: 'cc-number', value: '4242424242424242' }))).toEqual({ name: 'card-number', kind: 'cc-number' });
    expect(describeElement(element('INPUT', { id: 'pw', type: 'password' }))).toEqual({ name: 'pw', kind: 'password' });
    expect(describeElement(element('TEXTAREA', {}))).toEqual({ kind: 'textarea' });
    expect(describeElement(element('INPUT', { name: 'pan', 'data-ringfence-kind': 'Card-Number', autocomplete: 'off' }))).toEqual({ name: 'pan', kind: 'card-number' });
    expect(describeElement(null)).toBeUndefined();
  });
});
