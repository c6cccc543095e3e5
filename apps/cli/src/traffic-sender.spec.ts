import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ImportStateFile, readTrafficFile } from './traffic-files';
import { CompletionWatermark, type TrafficLine, TrafficSendError, TrafficSender } from './traffic-sender';

type Handler = (request: { path: string; body: Record<string, unknown>; authorization?: string }, response: ServerResponse) => void;

/** A real local HTTP server whose answers each test scripts. */
async function serve(handler: Handler): Promise<{ server: Server; url: string; received: Array<{ path: string; body: Record<string, unknown> }> }> {
  const received: Array<{ path: string; body: Record<string, unknown> }> = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      received.push({ path: request.url ?? '', body });
      handler({ path: request.url ?? '', body, authorization: request.headers.authorization }, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

const requests = (count: number, from = 1): TrafficLine[] =>
  Array.from({ length: count }, (_, index) => ({ line: from + index, request: { path: '/v2/customer', body: { timestamp: index, customer: { customerId: `c${from + index}` } } } }));

describe(TrafficSender.name, () => {
  let server: Server | undefined;
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'traffic-sender-'));
  });
  afterEach(async () => {
    rmSync(directory, { recursive: true, force: true });
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('sends each request with the key and its query, and counts statuses, actions and rejections', async () => {
    const local = await serve((request, response) => {
      if (request.authorization !== 'token sk_test_key') return json(response, 401, { message: 'no key' });
      if ((request.body.customer as { customerId?: string } | undefined)?.customerId === 'c2') return json(response, 400, { status: 400, message: 'customer.email: must be a string' });
      json(response, 200, { status: 200, data: { action: request.path.includes('checkpoint=pspBeforeAuth') ? 'PREVENT' : 'ALLOW' } });
    });
    server = local.server;
    const sender = new TrafficSender({ baseUrl: local.url, apiKey: 'sk_test_key', concurrency: 2, ratePerSecond: 0 });
    const lines: TrafficLine[] = [
      ...requests(3),
      { line: 4, invalid: 'not JSON' },
      { line: 5, request: { path: '/psp/transaction', query: { checkpoint: 'pspBeforeAuth' }, body: { timestamp: 1, transaction: { transactionId: 't' } } } },
    ];

    const summary = await sender.send(lines);
    sender.close();

    expect(summary).toMatchObject({
      sent: 4,
      answered: { '200': 3, '400': 1 },
      actions: { ALLOW: 2, REVIEW: 0, PREVENT: 1 },
      rejected: { count: 2, first: [{ line: 2, status: 400, message: 'customer.email: must be a string' }, { line: 4, status: 0, message: 'not JSON' }] },
      interrupted: false,
    });
    expect(local.received.map((request) => request.path)).toContain('/psp/transaction?checkpoint=pspBeforeAuth');
    expect(summary.latencyMs.p50).toBeGreaterThan(0);
  });

  it('waits as long as a 429 says and retries until it is answered, dropping nothing', async () => {
    const attempts = new Map<string, number>();
    const times: number[] = [];
    const local = await serve((request, response) => {
      const id = (request.body.customer as { customerId: string }).customerId;
      attempts.set(id, (attempts.get(id) ?? 0) + 1);
      times.push(Date.now());
      if (id === 'c2' && attempts.get(id)! <= 2) return json(response, 429, { status: 429, message: 'over the limit' }, { 'retry-after': '1' });
      if (id === 'c3' && attempts.get(id)! === 1) return json(response, 503, { status: 503, message: 'busy' });
      json(response, 200, { status: 200 });
    });
    server = local.server;
    const sender = new TrafficSender({ baseUrl: local.url, apiKey: 'k', concurrency: 1, ratePerSecond: 0, backoffMs: 10 });
    const started = Date.now();

    const summary = await sender.send(requests(3));
    sender.close();

    expect(summary.answered).toEqual({ '200': 3 });
    expect(summary.retries).toEqual({ rateLimited: 2, serverErrors: 1, networkErrors: 0 });
    expect(attempts).toEqual(new Map([['c1', 1], ['c2', 3], ['c3', 2]]));
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
  });

  it('gives up on a request that keeps failing with 5xx, telling up to which line everything was answered', async () => {
    const local = await serve((request, response) => {
      if ((request.body.customer as { customerId: string }).customerId === 'c3') return json(response, 500, { message: 'boom' });
      json(response, 200, {});
    });
    server = local.server;
    const sender = new TrafficSender({ baseUrl: local.url, apiKey: 'k', concurrency: 1, ratePerSecond: 0, maxAttempts: 3, backoffMs: 5 });

    const failure = await sender.send(requests(5)).catch((error: unknown) => error);
    sender.close();

    expect(failure).toBeInstanceOf(TrafficSendError);
    expect(failure).toMatchObject({ line: 3, completedThroughLine: 2 });
    expect(local.received.filter((request) => (request.body.customer as { customerId: string }).customerId === 'c3')).toHaveLength(3);
  });

  it('resumes after the line it was told, and stops cleanly when asked, awaiting what is in flight', async () => {
    const local = await serve((_request, response) => setTimeout(() => json(response, 200, {}), 5));
    server = local.server;
    const sender = new TrafficSender({ baseUrl: local.url, apiKey: 'k', concurrency: 4, ratePerSecond: 0 });
    let answered = 0;
    let through = 0;

    const first = await sender.send(requests(40), { shouldStop: () => answered >= 10, onAnswered: (line) => ((answered += 1), (through = line)) });
    expect(first.interrupted).toBe(true);
    expect(first.sent).toBeLessThan(40);
    expect(through).toBeGreaterThanOrEqual(10);

    const second = await sender.send(requests(40), {}, through);
    sender.close();
    const sentIds = local.received.map((request) => (request.body.customer as { customerId: string }).customerId);
    expect(new Set(sentIds).size).toBe(40);
    // Only what was in flight above the resume point is sent twice: at most `concurrency` lines.
    expect(sentIds.length - 40).toBeLessThanOrEqual(4);
    expect(second.sent).toBe(40 - through);
  });

  it('keeps to the rate asked', async () => {
    const local = await serve((_request, response) => json(response, 200, {}));
    server = local.server;
    const sender = new TrafficSender({ baseUrl: local.url, apiKey: 'k', concurrency: 8, ratePerSecond: 50 });
    const started = Date.now();
    await sender.send(requests(26));
    sender.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  it('reads plain and gzip traffic files alike, numbering lines and skipping blank ones', async () => {
    const text = ['{"path":"/v2/customer","time":1,"body":{"timestamp":1}}', '', 'oops', '{"path":"/psp/transaction","query":{"checkpoint":"pspAfterAuth"},"body":{"timestamp":2}}', ''].join('\n');
    writeFileSync(join(directory, 'plain.jsonl'), text);
    writeFileSync(join(directory, 'packed.jsonl.gz'), gzipSync(text));
    const read = async (file: string) => {
      const lines: TrafficLine[] = [];
      for await (const line of readTrafficFile(join(directory, file))) lines.push(line);
      return lines;
    };
    const expected = [
      { line: 1, request: { path: '/v2/customer', body: { timestamp: 1 } } },
      { line: 3, invalid: 'not JSON' },
      { line: 4, request: { path: '/psp/transaction', query: { checkpoint: 'pspAfterAuth' }, body: { timestamp: 2 } } },
    ];
    expect(await read('plain.jsonl')).toEqual(expected);
    expect(await read('packed.jsonl.gz')).toEqual(expected);
  });

  it('keeps the resume point of each input in the state file across runs', () => {
    const path = join(directory, 'state.json');
    new ImportStateFile(path).record('a.jsonl', 120, false);
    const reopened = new ImportStateFile(path);
    expect(reopened.of('a.jsonl')).toMatchObject({ completedThroughLine: 120, done: false });
    expect(reopened.of('b.jsonl')).toMatchObject({ completedThroughLine: 0, done: false });
  });
});

describe(CompletionWatermark.name, () => {
  it('is the line before the earliest one still in flight, whatever order answers come in', () => {
    const watermark = new CompletionWatermark(10);
    for (const line of [11, 12, 13, 15]) watermark.start(line);
    watermark.finish(12);
    watermark.finish(15);
    expect(watermark.completedThroughLine).toBe(10);
    watermark.finish(11);
    expect(watermark.completedThroughLine).toBe(12);
    watermark.finish(13);
    expect(watermark.completedThroughLine).toBe(15);
  });
});
