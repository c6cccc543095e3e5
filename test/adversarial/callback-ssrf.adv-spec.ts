import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AdversarialServer, type Tenant } from './support/adversarial-server';
import { expectStillDeciding } from './support/still-deciding';

type Envelope = { message?: string };
type AccountAnswer = { data: { settings: { callbackUrl: string | null } } };
type DeliveriesAnswer = { data: { deliveries: Array<{ url: string }> } };

/**
 * Issue 32, "Callbacks are a server-side request forgery": any https host (10.x,
 * 169.254.169.254, internal names) and http to loopback on any port were accepted as
 * `callbackUrl`, each label change then POSTed there. The server runs without
 * CALLBACK_ALLOWED_NETWORKS, as by default: only public addresses may be reached (ADR-0016).
 */
describe('attack: callbacks into the service’s own network (issue 32)', () => {
  let server: AdversarialServer;
  let attacker: Tenant;
  let victim: Tenant;
  /** What an internal service on the machine would be: an admin port on loopback, recording what reaches it. */
  let internalListener: Server;
  const reachedInternally: string[] = [];

  beforeAll(async () => {
    internalListener = createServer((request, response) => {
      reachedInternally.push(`${request.method} ${request.url}`);
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => internalListener.listen(0, '127.0.0.1', resolve));
    server = await AdversarialServer.start();
    attacker = await server.createTenant('attacker');
    victim = await server.createTenant('victim');
    await expectStillDeciding(server, victim, 'callbacks SSRF, before the attack', 3);
  }, 90_000);

  afterAll(async () => {
    await server?.dispose();
    internalListener?.closeAllConnections();
    await new Promise((resolve) => internalListener?.close(resolve));
  }, 20_000);

  it('refuses every internal address with a 400 naming callbackUrl, and no label change reaches one', async () => {
    const internalPort = (internalListener.address() as AddressInfo).port;
    const internalUrls = [
      'https://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'https://10.0.0.1/hook',
      'https://100.64.0.1/hook',
      `https://[::1]:${internalPort}/hook`,
      'https://0.0.0.0/hook',
      // A name that resolves to loopback: the address is what counts, not how the URL spells it.
      `https://localhost:${internalPort}/hook`,
      // Last, so that a URL wrongly accepted is the one a label change is sent to.
      `http://127.0.0.1:${internalPort}/admin/shutdown`,
    ];
    const answers = [];
    for (const callbackUrl of internalUrls) {
      const answer = await server.send<Envelope>({
        method: 'PATCH',
        path: '/v2/account/settings',
        body: { callbackUrl, callbackSecret: 'attacker-chosen-secret-0123456789' },
        apiKey: attacker.secretLive,
      });
      answers.push({ callbackUrl, status: answer.status, namesCallbackUrl: answer.body?.message?.startsWith('callbackUrl:') === true });
    }
    const labelled = await server.send({ method: 'POST', path: '/v2/customer/cus-probe/labels', body: { review: 'FRAUDSTER' }, apiKey: attacker.secretLive });

    // The very next requests: nothing stored, no delivery recorded (the list waits for the callbacks consumer).
    const account = await server.send<AccountAnswer>({ path: '/v2/account', apiKey: attacker.secretLive });
    const deliveries = await server.send<DeliveriesAnswer>({ path: '/v2/callbacks/deliveries', apiKey: attacker.secretLive });
    await expectStillDeciding(server, victim, 'callbacks SSRF, after the attack');
    expect(labelled.status).toBe(200);
    expect(account.body.data.settings.callbackUrl).toBeNull();
    expect(deliveries.body.data.deliveries.map((delivery) => delivery.url)).toEqual([]);
    expect(reachedInternally).toEqual([]);
    expect(answers).toEqual(internalUrls.map((callbackUrl) => ({ callbackUrl, status: 400, namesCallbackUrl: true })));
  });
});
