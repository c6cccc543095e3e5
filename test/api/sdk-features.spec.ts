import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest, pspTransactionRequest } from '../support/payload-factories';

type Keys = { secretTest: string; publishableTest: string };
type Account = { accountId: string; keys: Keys };
type Explained = { data: { score: number; scoreId: string; action?: string; source: string; explanation: { rules: Array<{ ruleId: number; name: string }>; reason: string } } };

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/**
 * The client SDKs' device and session features at checkpoints (issue 36): a headless browser's
 * client events, sent with a publishable key, reach the next checkpoint that names its device, in
 * its features, the rules over them and the explanation of its answer.
 */
describe('client SDK features at checkpoints (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;

  beforeAll(async () => {
    service = await startEmbeddedService();
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: unique('sdk-features') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    account = created.body;
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = <T>(method: string, path: string, body: unknown, apiKey = account.keys.secretTest) => service.client.send<T>({ method, path, body, apiKey });

  /** A batch as the web SDK sends it from a headless browser in Manila: pages, then a card number pasted. */
  function headlessBatch(deviceId: string) {
    const now = Date.now();
    return {
      timestamp: now,
      deviceId,
      sessionId: unique('ses'),
      device: { userAgent: 'Mozilla/5.0 HeadlessChrome/131.0', timeZone: 'Asia/Manila', webdriver: true, fingerprint: 'fp-bot' },
      events: [
        { type: 'pageview', time: now - 4_000, page: { url: 'https://shop.example/checkout' } },
        { type: 'paste', time: now - 1_000, element: { name: 'card', kind: 'cc-number' } },
        { type: 'form-submit', time: now, element: { name: 'checkout', kind: 'form' } },
      ],
    };
  }

  it('names a device feature when a rule over it decides a payment, with the features on the decision', async () => {
    const deviceId = unique('dev');
    const rule = await send<{ ruleId: number }>('POST', '/v2/rules', {
      name: 'Automated browser pasting a card',
      checkpoint: 'pspBeforeAuth',
      expression: 'features.sdkWebdriver == true && features.sdkCardFieldPaste == true',
      action: 'REVIEW',
      state: 'active',
    });
    expect(rule.status).toBe(201);
    const events = await service.client.send({ method: 'POST', path: '/v2/client/events', body: headlessBatch(deviceId), apiKey: account.keys.publishableTest });
    expect(events.status).toBe(202);

    // A British IP address at checkout, a Manila time zone in the browser.
    const payment = pspTransactionRequest({ device: { deviceId, ipAddress: '81.2.69.142' }, customer: { customerId: unique('cus') } });
    const answer = await send<Explained>('POST', '/psp/transaction?checkpoint=pspBeforeAuth&explain=true', payment);

    expect(answer.status).toBe(200);
    expect(answer.body.data.source).toBe('RULE');
    expect(answer.body.data.explanation.rules).toEqual([expect.objectContaining({ ruleId: rule.body.ruleId, name: 'Automated browser pasting a card' })]);
    const decision = await send<{ data: { features: Record<string, unknown> } }>('GET', `/v2/decisions/${answer.body.data.scoreId}`, undefined);
    expect(decision.body.data.features).toMatchObject({ sdkDeviceKnown: true, sdkWebdriver: true, sdkCardFieldPaste: true, sdkCardFieldPastes: 1, sdkTimeZoneIpMismatch: true, sdkSessionPageviews: 1, sdkSessionSeconds: 4 });
  });

  it("reads the customer's last device when a checkpoint names none, and leaves the features null for a device the SDK never reported", async () => {
    const deviceId = unique('dev');
    const customerId = unique('cus');
    expect((await service.client.send({ method: 'POST', path: '/v2/client/events', body: headlessBatch(deviceId), apiKey: account.keys.publishableTest })).status).toBe(202);
    expect((await send('POST', '/v2/customer', customerRequest({ customer: { customerId }, device: { deviceId } }))).status).toBe(200);

    const later = await send<Explained>('POST', '/v2/customer?explain=true', customerRequest({ customer: { customerId } }));
    const stranger = await send<Explained>('POST', '/v2/customer?explain=true', customerRequest({ device: { deviceId: unique('dev-unseen') } }));

    const featuresOf = async (answer: { body: Explained }) => (await send<{ data: { features: Record<string, unknown> } }>('GET', `/v2/decisions/${answer.body.data.scoreId}`, undefined)).body.data.features;
    expect(await featuresOf(later)).toMatchObject({ sdkDeviceKnown: true, sdkWebdriver: true, sdkDeviceCustomerCount: 1 });
    const unseen = await featuresOf(stranger);
    // A false or zero is left out of the decision event; a null is recorded as null or left out too.
    expect(unseen.sdkDeviceKnown ?? false).toBe(false);
    expect(unseen.sdkWebdriver ?? null).toBeNull();
  });
});
