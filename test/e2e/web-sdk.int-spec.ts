import { existsSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, defaultAccountId, startEmbeddedService } from '../support/embedded-service';

/**
 * The web SDK (ADR-0015) in a real headless browser: Debian's `chromium` (CHROMIUM_PATH
 * overrides) driven by puppeteer-core loads the sample checkout page from the standalone app,
 * which serves the built bundle (`npm run build` writes dist/client; test:integration builds
 * first). Every request the page makes is intercepted: only the server's own origin is let through.
 */
const ROOT = join(__dirname, '..', '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The page acts once its fetches answer: asynchronous by design, so the page is waited for.
// What the API stored is asserted through the API, on the very next request.
const WAIT = { timeout: 20_000 };
const CARD = { pan: '4242424242424242', month: '04', year: '2031', name: 'Ada Lovelace' };

interface DeviceView {
  data: {
    deviceId: string;
    reported: { webdriver?: boolean; fingerprint?: string; timeZone?: string; userAgent?: string } | null;
    fingerprints: string[];
    sessions: Array<{ sessionId: string; eventCounts: Record<string, number> }>;
    ipAddresses: Array<{ ipAddress: string }>;
    customers: Array<{ customerId: string }>;
    cards: Array<{ cardLastFour?: string; cardBin?: string; instrumentId?: string }>;
  };
}

describe('the web SDK on the sample checkout page', () => {
  let service: EmbeddedService;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let publishableKey: string;
  /** Every URL the page asked for, and those refused for leaving the server's origin. */
  const requested: string[] = [];
  const refused: string[] = [];
  /** What the page reported that a shopper would not see: script errors and CSP refusals. */
  const problems: string[] = [];
  const state = { deviceId: '', sessionId: '', cipher: {} as Record<string, unknown> };

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => service.client.send<T>({ method, path, body, apiKey: TEST_BOOTSTRAP_KEY });
  // Page functions are passed as text: this program's types have no DOM (tsconfig lib).
  const textOf = (selector: string) => page.$eval(selector, (element) => element.textContent ?? '');

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'client', 'ringfence.js'))) throw new Error('dist/client is missing: `npm run build` bundles the web SDK');
    if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
    service = await startEmbeddedService();
    origin = `https://localhost:${(service.app.getHttpServer().address() as { port: number }).port}`;
    const accountId = await defaultAccountId(service);
    const issued = await service.client.send<{ key: string }>({ method: 'POST', path: `/admin/accounts/${accountId}/keys`, body: { kind: 'publishable', env: 'test' }, apiKey: TEST_ADMIN_KEY });
    expect(issued.status).toBe(201);
    publishableKey = issued.body.key;
    // The sandbox data set's origins (`testAllowedOrigins`), which the operator may set for the account.
    const allowed = await service.client.send({ method: 'PATCH', path: `/admin/accounts/${accountId}/settings`, body: { testAllowedOrigins: [origin] }, apiKey: TEST_ADMIN_KEY });
    expect(allowed.status).toBe(200);

    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      // The embedded service's certificate is self-signed; root (CI) needs --no-sandbox.
      acceptInsecureCerts: true,
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    });
    page = await browser.newPage();
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      requested.push(request.url());
      if (request.url().startsWith(`${origin}/`)) {
        void request.continue();
      } else {
        refused.push(request.url());
        void request.abort();
      }
    });
    page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warn') problems.push(`console ${message.type()}: ${message.text()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('loads the SDK from the server as a script defining Ringfence, with a device id and a session id', async () => {
    const script = await service.client.send({ method: 'GET', path: '/client/ringfence.js' });
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');

    const response = await page.goto(`${origin}/client/sample-checkout.html#key=${publishableKey}`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    // Asynchronous by design: the page's own script starts the SDK after load; the server is not polled.
    await page.waitForFunction('document.getElementById("device-id").textContent.length > 0', WAIT);

    state.deviceId = await textOf('#device-id');
    state.sessionId = await textOf('#session-id');
    expect(state.deviceId).toMatch(/^[0-9a-f]{32}$/);
    expect(state.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(await page.evaluate('typeof Ringfence.init')).toBe('function');
    expect(await page.evaluate('document.cookie')).toContain(`rf_device_id=${state.deviceId}`);
    expect(await page.evaluate('localStorage.getItem("ringfence.deviceId")')).toBe(state.deviceId);
  });

  it('encrypts the card in the page and sends the session events: page view, the paste into the card number, the form and the checkout', async () => {
    await page.type('#email', 'ada@example.com');
    await page.type('#card-name', CARD.name);
    // A paste as the browser fires it; the SDK names the field, never what was pasted.
    await page.evaluate(`document.getElementById('card-number').dispatchEvent(new ClipboardEvent('paste', { bubbles: true, cancelable: true }))`);
    await page.type('#card-number', CARD.pan);
    await page.type('#card-month', CARD.month);
    await page.type('#card-year', CARD.year);
    await page.click('#checkout button[type=submit]');
    // Asynchronous by design: the page sends its batch after the submit; the server's reads below are not polled.
    await page.waitForSelector('#events-status[data-state="sent"]', WAIT);

    const shown = JSON.parse(await textOf('#cipher')) as { deviceId: string; paymentMethod: Record<string, unknown> };
    state.cipher = shown.paymentMethod;
    expect(shown.deviceId).toBe(state.deviceId);
    expect(state.cipher).toMatchObject({ methodType: 'paymentMethodCipher', algorithm: 'RSA_OAEP_SHA256_AES_256_GCM', keyIndex: expect.any(Number), cardCiphertext: expect.any(String), aesKeyCiphertext: expect.any(String) });
    expect(JSON.stringify(state.cipher)).not.toContain(CARD.pan);

    const device = await api<DeviceView>('GET', `/v2/devices/${state.deviceId}`);
    expect(device.status).toBe(200);
    // Headless Chromium driven by puppeteer says so: navigator.webdriver is true.
    expect(device.body.data.reported).toMatchObject({ webdriver: true, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), userAgent: expect.stringContaining('Chrome') });
    expect(device.body.data.ipAddresses.length).toBeGreaterThanOrEqual(1);
    const session = device.body.data.sessions.find((candidate) => candidate.sessionId === state.sessionId);
    expect(session?.eventCounts).toMatchObject({ pageview: 1, paste: 1, 'form-submit': 1, checkout: 1 });
    expect(JSON.stringify(device.body)).not.toContain(CARD.pan);
  });

  it('sends what is queued by beacon when the page is hidden', async () => {
    await page.evaluate('window.ringfenceClient.track("beacon-check")');
    const beacon = page.waitForResponse((response) => response.url().startsWith(`${origin}/v2/client/events?key=`), WAIT);
    await page.evaluate(`Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true }); document.dispatchEvent(new Event('visibilitychange'))`);
    expect((await beacon).status()).toBe(202);

    const device = await api<DeviceView>('GET', `/v2/devices/${state.deviceId}`);
    expect(device.body.data.sessions.find((candidate) => candidate.sessionId === state.sessionId)?.eventCounts).toMatchObject({ 'beacon-check': 1 });
  });

  it("takes the page's cipher in the merchant's checkpoint with the device id, whose explanation names the headless browser's session", async () => {
    type Explained = { data: { action: string; explanation: { raised: Array<{ feature: string; value: unknown }> } } };
    const decided = await api<Explained>('POST', '/psp/transaction?checkpoint=pspBeforeAuth&explain=true', {
      timestamp: Date.now(),
      transaction: { transactionId: `tx-web-sdk-${Date.now().toString(36)}`, amount: 2447, currency: 'GBP' },
      customer: { customerId: 'cus-web-sdk' },
      device: { deviceId: state.deviceId },
      paymentMethod: state.cipher,
    });

    expect(decided.status).toBe(200);
    expect(['ALLOW', 'REVIEW', 'PREVENT']).toContain(decided.body.data.action);
    expect(JSON.stringify(decided.body)).not.toContain(CARD.pan);
    // Headless Chromium tells the page it is automated (navigator.webdriver), and the page pasted the card.
    expect(decided.body.data.explanation.raised).toEqual(
      expect.arrayContaining([
        { feature: 'sdkWebdriver', value: true, condition: 'true', contribution: 30 },
        { feature: 'sdkCardFieldPaste', value: true, condition: 'true', contribution: 10 },
      ]),
    );

    // The browser's device is now linked to the customer and to the card, kept as BIN and last four only.
    const device = await api<DeviceView>('GET', `/v2/devices/${state.deviceId}`);
    expect(device.body.data.customers.map((customer) => customer.customerId)).toContain('cus-web-sdk');
    expect(device.body.data.cards).toEqual([expect.objectContaining({ cardBin: '42424242', cardLastFour: '4242', instrumentId: expect.stringMatching(/^card_/) })]);
    expect(JSON.stringify(device.body)).not.toContain(CARD.pan);
  });

  it("lets a shop's page on an allowed origin send events across origins, and the browser refuses one the account did not allow", async () => {
    // Two shop pages on origins of their own. Their documents are answered here by the interception,
    // so nothing leaves the machine; their fetches go to the server for real, and the browser applies CORS.
    const shops = { allowed: 'https://shop.allowed.test', refused: 'https://shop.refused.test' };
    const settings = await service.client.send({ method: 'PATCH', path: `/admin/accounts/${await defaultAccountId(service)}/settings`, body: { testAllowedOrigins: [origin, shops.allowed] }, apiKey: TEST_ADMIN_KEY });
    expect(settings.status).toBe(200);

    // Here the server listens on loopback, where a real one is public: Chromium's Local Network
    // Access checks would refuse a public page's request to loopback before CORS is reached, so this
    // browser leaves them out and only CORS decides.
    const shopBrowser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, acceptInsecureCerts: true, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-features=LocalNetworkAccessChecks'] });
    const sendFrom = async (shop: string, type: string): Promise<string> => {
      const shopPage = await shopBrowser.newPage();
      await shopPage.setRequestInterception(true);
      shopPage.on('request', (request) => {
        if (request.url() === `${shop}/`) void request.respond({ status: 200, contentType: 'text/html', body: '<!doctype html><title>shop</title>' });
        else if (request.url().startsWith(`${origin}/`)) void request.continue();
        else void request.abort();
      });
      await shopPage.goto(`${shop}/`);
      const body = JSON.stringify({ timestamp: Date.now(), deviceId: state.deviceId, sessionId: state.sessionId, events: [{ type, time: Date.now() }] });
      // The SDK's own request: JSON with the key in the header, which the browser preflights.
      const outcome = await shopPage.evaluate(
        `fetch(${JSON.stringify(`${origin}/v2/client/events`)}, { method: 'POST', headers: { Authorization: 'token ${publishableKey}', 'Content-Type': 'application/json' }, body: ${JSON.stringify(body)} })` +
          `.then((response) => 'answered ' + response.status, (error) => 'refused: ' + error.name)`,
      );
      await shopPage.close();
      return outcome as string;
    };

    try {
      expect(await sendFrom(shops.allowed, 'allowed-origin-check')).toBe('answered 202');
      expect(await sendFrom(shops.refused, 'refused-origin-check')).toBe('refused: TypeError');
    } finally {
      await shopBrowser.close();
    }

    // After the refusal: the allowed shop's event is on the device, the refused shop's is not.
    const device = await api<DeviceView>('GET', `/v2/devices/${state.deviceId}`);
    const counts = device.body.data.sessions.find((candidate) => candidate.sessionId === state.sessionId)?.eventCounts;
    expect(counts).toMatchObject({ 'allowed-origin-check': 1 });
    expect(counts).not.toHaveProperty('refused-origin-check');
  });

  it('asked nothing of any other host, and reported no script error or policy refusal', () => {
    expect(requested.length).toBeGreaterThanOrEqual(5);
    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
  });
});
