import { type Server, createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, type Server as NetServer, createServer as createNetServer } from 'node:net';
import { generate } from 'selfsigned';
import { CallbackAddressPolicy } from './callback-address-policy';
import { CALLBACK_URL_ADDRESS_RULE, CALLBACK_URL_HTTP_RULE, CallbackDestinations, type HostResolver } from './callback-destinations';
import { type CallbackRequest, HttpCallbackSender } from './callback-sender';

const PUBLIC_ADDRESS = '93.184.216.34';
const LOOPBACK_ALLOWED = new CallbackAddressPolicy(['127.0.0.0/8']);

/** A real receiver on 127.0.0.1: each path answers as the test needs; every request's Host is kept. */
let server: Server;
let port: number;
const hits: Array<{ path: string; host: string | undefined }> = [];
const slowAnswers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push({ path: request.url ?? '', host: request.headers.host });
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
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const answer of slowAnswers) clearTimeout(answer);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  hits.length = 0;
});

/** A resolver that answers from a script, one answer per lookup (the last repeats), and counts them. */
function scriptedResolver(...answers: string[][]): HostResolver & { lookups: string[] } {
  const lookups: string[] = [];
  const resolve = async (hostname: string) => {
    lookups.push(hostname);
    const addresses = answers[Math.min(lookups.length - 1, answers.length - 1)]!;
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { lookups });
}

const request = (url: string, overrides: Partial<CallbackRequest> = {}): CallbackRequest => ({
  url,
  body: '{}',
  headers: { 'content-type': 'application/json' },
  timeoutMs: 1_000,
  signal: new AbortController().signal,
  ...overrides,
});

const sender = (policy = LOOPBACK_ALLOWED, resolver?: HostResolver) => new HttpCallbackSender(new CallbackDestinations(policy, resolver));

describe(HttpCallbackSender.name, () => {
  it("answers the receiver's status: a 2xx with no error class, anything else as `status`", async () => {
    await expect(sender().post(request(`http://127.0.0.1:${port}/ok`))).resolves.toEqual({ httpStatus: 204, error: null });
    await expect(sender().post(request(`http://127.0.0.1:${port}/broken`))).resolves.toEqual({ httpStatus: 500, error: 'status' });
  });

  it('does not follow a redirect: the 3xx is the answer, and nothing is sent to its location', async () => {
    await expect(sender().post(request(`http://127.0.0.1:${port}/moved`))).resolves.toEqual({ httpStatus: 302, error: 'status' });
    expect(hits.map((hit) => hit.path)).toEqual(['/moved']);
  });

  it('classes a refused connection as `refused`, the socket message kept as detail for the log only', async () => {
    const closed = createNetServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const answer = await sender().post(request(`http://127.0.0.1:${closedPort}/`));

    expect(answer).toEqual({ httpStatus: null, error: 'refused', detail: expect.stringContaining('ECONNREFUSED') });
  });

  it('classes no answer within the timeout as `timeout`', async () => {
    const startedAt = Date.now();

    await expect(sender().post(request(`http://127.0.0.1:${port}/slow`, { timeoutMs: 150 }))).resolves.toMatchObject({ httpStatus: null, error: 'timeout' });
    expect(Date.now() - startedAt).toBeLessThan(1_500);
  });

  it('classes an attempt the service stopped as `interrupted`', async () => {
    const stopping = new AbortController();
    const answer = sender().post(request(`http://127.0.0.1:${port}/slow`, { signal: stopping.signal }));
    setTimeout(() => stopping.abort(), 50);

    await expect(answer).resolves.toEqual({ httpStatus: null, error: 'interrupted' });
  });

  it('classes a certificate that does not verify as `tls`', async () => {
    const { private: key, cert } = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048 });
    const tlsServer = createHttpsServer({ key, cert }, (_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await sender().post(request(`https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}/`));

      expect(answer).toMatchObject({ httpStatus: null, error: 'tls' });
    } finally {
      tlsServer.closeAllConnections();
      await new Promise((resolve) => tlsServer.close(resolve));
    }
  });

  it('refuses an IP literal callbacks may not reach, as `address`, without connecting', async () => {
    const answer = await sender(new CallbackAddressPolicy()).post(request(`https://127.0.0.1:${port}/ok`));

    expect(answer).toMatchObject({ httpStatus: null, error: 'address' });
    expect(hits).toEqual([]);
  });

  it('connects to the address its own lookup checked, keeping the host name for Host', async () => {
    const resolver = scriptedResolver(['127.0.0.1']);

    const answer = await sender(LOOPBACK_ALLOWED, resolver).post(request(`http://receiver.internal.example:${port}/ok`));

    expect(answer).toEqual({ httpStatus: 204, error: null });
    expect(resolver.lookups).toEqual(['receiver.internal.example']);
    expect(hits).toEqual([{ path: '/ok', host: `receiver.internal.example:${port}` }]);
  });

  it('sends plain http only to the allowed networks, never to a public address', async () => {
    const answer = await sender(new CallbackAddressPolicy(), scriptedResolver([PUBLIC_ADDRESS])).post(request('http://hooks.merchant.example/ok'));

    expect(answer).toMatchObject({ httpStatus: null, error: 'address' });
  });

  it('refuses a host with one address it may not reach among public ones', async () => {
    const answer = await sender(new CallbackAddressPolicy(), scriptedResolver([PUBLIC_ADDRESS, '10.1.2.3'])).post(request('https://hooks.merchant.example/ok'));

    expect(answer).toMatchObject({ httpStatus: null, error: 'address' });
  });
});

describe('DNS rebinding', () => {
  let listener: NetServer;
  let connections = 0;

  beforeAll(async () => {
    listener = createNetServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve));
  });

  it('refuses at the connection a host that was public when saved and resolves to loopback since, without connecting', async () => {
    // The tenant's DNS answers a public address when the URL is saved, its loopback one after.
    const destinations = new CallbackDestinations(new CallbackAddressPolicy(), scriptedResolver([PUBLIC_ADDRESS], ['127.0.0.1']));
    const url = `https://rebinding.attacker.example:${(listener.address() as AddressInfo).port}/admin`;
    await expect(destinations.urlProblem(url)).resolves.toBeNull();

    const answer = await new HttpCallbackSender(destinations).post(request(url));

    expect(answer).toMatchObject({ httpStatus: null, error: 'address' });
    expect(connections).toBe(0);
  });
});

describe(CallbackDestinations.name, () => {
  it('saves an https URL whose host resolves to public addresses only', async () => {
    const destinations = new CallbackDestinations(new CallbackAddressPolicy(), scriptedResolver([PUBLIC_ADDRESS, '2606:2800:220:1:248:1893:25c8:1946']));

    await expect(destinations.urlProblem('https://hooks.merchant.example/ringfence')).resolves.toBeNull();
  });

  it.each([
    ['the metadata endpoint', 'https://169.254.169.254/latest/meta-data/', [] as string[]],
    ['a name that resolves to a private address', 'https://intranet.example/', ['10.0.0.8']],
    ['a name with one private address among public ones', 'https://mixed.example/', [PUBLIC_ADDRESS, '192.168.1.1']],
    ['a name that resolves to nothing', 'https://nothing.example/', []],
  ])('refuses %s with one answer, telling nothing of what the name resolved to', async (_case, url, addresses) => {
    const destinations = new CallbackDestinations(new CallbackAddressPolicy(), scriptedResolver(addresses));

    await expect(destinations.urlProblem(url)).resolves.toBe(CALLBACK_URL_ADDRESS_RULE);
  });

  it('refuses a name that does not resolve with the same answer', async () => {
    const failing: HostResolver = () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' }));

    await expect(new CallbackDestinations(new CallbackAddressPolicy(), failing).urlProblem('https://nowhere.example/')).resolves.toBe(CALLBACK_URL_ADDRESS_RULE);
  });

  it('refuses a name that takes too long to resolve', async () => {
    const hanging: HostResolver = () => new Promise(() => undefined);

    await expect(new CallbackDestinations(new CallbackAddressPolicy(), hanging, 50).urlProblem('https://slow.example/')).resolves.toBe(CALLBACK_URL_ADDRESS_RULE);
  });

  it('refuses plain http unless the operator allows networks, and then only to them', async () => {
    await expect(new CallbackDestinations(new CallbackAddressPolicy(), scriptedResolver([PUBLIC_ADDRESS])).urlProblem('http://hooks.merchant.example/')).resolves.toBe(CALLBACK_URL_HTTP_RULE);
    await expect(new CallbackDestinations(LOOPBACK_ALLOWED, scriptedResolver([PUBLIC_ADDRESS])).urlProblem('http://hooks.merchant.example/')).resolves.toBe(CALLBACK_URL_HTTP_RULE);
    await expect(new CallbackDestinations(LOOPBACK_ALLOWED).urlProblem(`http://127.0.0.1:${port}/hook`)).resolves.toBeNull();
  });

  it('lets an https URL reach an internal receiver in an allowed network', async () => {
    const destinations = new CallbackDestinations(new CallbackAddressPolicy(['10.20.0.0/16']), scriptedResolver(['10.20.3.4']));

    await expect(destinations.urlProblem('https://receiver.corp.example/')).resolves.toBeNull();
  });
});
