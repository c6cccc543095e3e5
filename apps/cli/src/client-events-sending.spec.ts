import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { issuePublishableKey } from './publishable-key';
import { type TrafficLine, TrafficSendError, TrafficSender } from './traffic-sender';

interface Received {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  authorization?: string;
  at: number;
}

/** A local HTTP server that answers client events late (`clientDelayMs`) and records when each request came and was answered. */
async function serve(clientDelayMs: number): Promise<{ server: Server; url: string; received: Received[]; answered: Map<string, number> }> {
  const received: Received[] = [];
  const answered = new Map<string, number>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const entry: Received = { method: request.method ?? '', path: request.url ?? '', body: text ? (JSON.parse(text) as Record<string, unknown>) : null, authorization: request.headers.authorization, at: Date.now() };
      received.push(entry);
      const reply = (status: number, body: unknown) => {
        answered.set(`${entry.path}#${received.indexOf(entry)}`, Date.now());
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (entry.path === '/v2/account') return reply(200, { status: 200, data: { accountId: 'acc_1', environment: 'test' } });
      if (entry.path === '/admin/accounts/acc_1/keys') return reply(201, { keyId: 'key_1', kind: 'publishable', env: 'test', key: 'pk_test_issued' });
      if (entry.path.startsWith('/v2/client/')) return void setTimeout(() => reply(202, { status: 202, data: { deviceId: entry.body?.deviceId } }), clientDelayMs);
      reply(200, { status: 200, data: { action: 'ALLOW' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, answered };
}

const clientEvents = (line: number, deviceId: string): TrafficLine => ({ line, request: { path: '/v2/client/events', body: { timestamp: line, deviceId, sessionId: 's', events: [] } } });
const checkpoint = (line: number, deviceId: string): TrafficLine => ({
  line,
  request: { path: '/psp/transaction', query: { checkpoint: 'pspBeforeAuth' }, body: { timestamp: line, transaction: { transactionId: `t${line}` }, device: { deviceId } } },
});

describe('sending the client SDK records', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('sends client events with the publishable key, and a checkpoint of the same device only once they are answered', async () => {
    const local = await serve(200);
    server = local.server;
    let asked = 0;
    const sender = new TrafficSender({ baseUrl: local.url, apiKey: 'sk_test_secret', publishableKey: async () => ((asked += 1), 'pk_test_given'), concurrency: 8, ratePerSecond: 0 });

    const summary = await sender.send([clientEvents(1, 'dev-a'), checkpoint(2, 'dev-a'), checkpoint(3, 'dev-b'), clientEvents(4, 'dev-b')]);
    sender.close();

    expect(summary).toMatchObject({ sent: 4, answered: { '200': 2, '202': 2 }, rejected: { count: 0 } });
    expect(asked).toBe(1);
    const byPath = (path: string, deviceOf: (entry: Received) => unknown, device: string) => local.received.find((entry) => entry.path.startsWith(path) && deviceOf(entry) === device)!;
    const events = (device: string) => byPath('/v2/client/events', (entry) => entry.body?.deviceId, device);
    const payment = (device: string) => byPath('/psp/transaction', (entry) => (entry.body?.device as { deviceId: string }).deviceId, device);
    expect(events('dev-a').authorization).toBe('token pk_test_given');
    expect(payment('dev-a').authorization).toBe('token sk_test_secret');
    const eventsAnsweredAt = local.answered.get(`/v2/client/events#${local.received.indexOf(events('dev-a'))}`)!;
    expect(payment('dev-a').at).toBeGreaterThanOrEqual(eventsAnsweredAt);
    // Another device's checkpoint, before its own client events in the file, is not held back.
    expect(payment('dev-b').at).toBeLessThan(eventsAnsweredAt);
  });

  it('stops at the first client events record when it has no publishable key, saying how to give one', async () => {
    const local = await serve(0);
    server = local.server;
    const sender = new TrafficSender({ baseUrl: local.url, apiKey: 'sk_test_secret', concurrency: 2, ratePerSecond: 0 });
    const sent = sender.send([checkpoint(1, 'dev-a'), clientEvents(2, 'dev-a')]);
    await expect(sent).rejects.toThrow(TrafficSendError);
    await expect(sent).rejects.toThrow(/line 2: .*--publishable-key/);
    sender.close();
    expect(local.received.map((entry) => entry.path)).toEqual(['/psp/transaction?checkpoint=pspBeforeAuth']);
  });

  it('issues a publishable key for the secret key\'s account and data set through the admin API', async () => {
    const local = await serve(0);
    server = local.server;
    const key = await issuePublishableKey({ baseUrl: local.url, insecure: false, adminKey: 'admin-token' }, 'sk_test_secret');
    expect(key).toBe('pk_test_issued');
    expect(local.received.map(({ method, path, body, authorization }) => ({ method, path, body, authorization }))).toEqual([
      { method: 'GET', path: '/v2/account', body: null, authorization: 'token sk_test_secret' },
      { method: 'POST', path: '/admin/accounts/acc_1/keys', body: { kind: 'publishable', env: 'test' }, authorization: 'token admin-token' },
    ]);
    await expect(issuePublishableKey({ baseUrl: local.url, insecure: false }, 'sk_test_secret')).rejects.toThrow(/--publishable-key/);
  });
});
