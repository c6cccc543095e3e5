import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CallbackRequest, FetchCallbackSender, INTERRUPTED_ERROR } from './callback-sender';

/** A real receiver on 127.0.0.1: each path answers as the test needs. */
let server: Server;
let baseUrl: string;
const hits: string[] = [];
const slowAnswers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    request.resume();
    request.on('end', () => {
      if (request.url === '/ok') response.writeHead(204).end();
      else if (request.url === '/broken') response.writeHead(500).end('oops');
      else if (request.url === '/moved') response.writeHead(302, { location: '/ok' }).end();
      else if (request.url === '/slow') slowAnswers.add(setTimeout(() => response.writeHead(200).end(), 2_000));
      else response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const answer of slowAnswers) clearTimeout(answer);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  hits.length = 0;
});

const post = (path: string, overrides: Partial<CallbackRequest> = {}) =>
  new FetchCallbackSender().post({ url: `${baseUrl}${path}`, body: '{}', headers: { 'content-type': 'application/json' }, timeoutMs: 1_000, signal: new AbortController().signal, ...overrides });

describe(FetchCallbackSender.name, () => {
  it("answers the receiver's status, 2xx or not", async () => {
    await expect(post('/ok')).resolves.toEqual({ httpStatus: 204, error: null });
    await expect(post('/broken')).resolves.toEqual({ httpStatus: 500, error: null });
  });

  it('does not follow a redirect: the 3xx is the answer, and the body goes nowhere else', async () => {
    await expect(post('/moved')).resolves.toEqual({ httpStatus: 302, error: null });
    expect(hits).toEqual(['/moved']);
  });

  it('gives up an attempt after its timeout, saying so', async () => {
    await expect(post('/slow', { timeoutMs: 50 })).resolves.toEqual({ httpStatus: null, error: 'timed out after 50 ms' });
  });

  it('reports a refused connection with its code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    const response = await new FetchCallbackSender().post({ url: `http://127.0.0.1:${port}/hook`, body: '{}', headers: {}, timeoutMs: 1_000, signal: new AbortController().signal });

    expect(response).toEqual({ httpStatus: null, error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('ends at once, as interrupted, when the service stops', async () => {
    const stopping = new AbortController();
    const pending = post('/slow', { timeoutMs: 10_000, signal: stopping.signal });
    setTimeout(() => stopping.abort(), 20);

    await expect(pending).resolves.toEqual({ httpStatus: null, error: INTERRUPTED_ERROR });
  });
});
