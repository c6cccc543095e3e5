import { readFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { customerRequest } from '../support/payload-factories';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';
import { eventually } from '../tools/eventually';

const HEADERS_TIMEOUT_MS = 1_000;
const BODY_TIMEOUT_MS = 2_000;
/** Node checks the deadlines every quarter of the shorter one; the rest is this machine's scheduling. */
const CUT_SLACK_MS = HEADERS_TIMEOUT_MS / 4 + 750;
const AUTHENTICATED_BUDGET = 4;
const KEYLESS_BUDGET = 4;
const KEYLESS_SHARE_PER_ADDRESS = 2;
/** The client budget of a checkpoint (ADR-0016's "Done when"). */
const CHECKPOINT_BUDGET_MS = 750;

interface Cut {
  /** From the connection's start (TCP) or its TLS handshake's end to its close by the server. */
  afterMs: number;
  received: string;
}

/**
 * ADR-0016: slow or unauthenticated clients cannot starve the API. A real HTTPS server (the
 * embedded app in this process) and raw sockets that trickle their bytes, from several loopback
 * addresses (Linux routes all of 127/8 to the loopback interface: each is another client).
 */
describe('slow and keyless clients (ADR-0016)', () => {
  let service: EmbeddedService;
  let port: number;
  let ca: string;
  const sockets: Array<{ destroy(): void }> = [];

  beforeAll(async () => {
    service = await startEmbeddedService({
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
      MAX_IN_FLIGHT_REQUESTS: String(AUTHENTICATED_BUDGET),
      MAX_UNAUTHENTICATED_IN_FLIGHT_REQUESTS: String(KEYLESS_BUDGET),
      MAX_UNAUTHENTICATED_IN_FLIGHT_PER_ADDRESS: String(KEYLESS_SHARE_PER_ADDRESS),
    });
    port = (service.app.getHttpServer().address() as { port: number }).port;
    ca = readFileSync(join(service.dataDir, 'tls', 'cert.pem'), 'utf8');
  }, 60_000);

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });

  afterAll(async () => {
    await service?.close();
  });

  /** A TLS connection from `from` that sends `start` at once, then `trickle` every 100 ms until the server closes it. */
  function slowClient(options: { from?: string; start: string; trickle?: string }): { cut: Promise<Cut>; connected: Promise<void>; firstAnswer: Promise<string> } {
    let socket: TLSSocket | undefined;
    let connected!: () => void;
    const connectedPromise = new Promise<void>((resolve) => (connected = resolve));
    let answered!: (text: string) => void;
    const firstAnswer = new Promise<string>((resolve) => (answered = resolve));
    const cut = new Promise<Cut>((resolve, reject) => {
      let received = '';
      let startedAt = 0;
      // TLS over a TCP socket bound to its own loopback address: tls.connect's options do not type localAddress.
      const tcp = tcpConnect({ host: '127.0.0.1', port, localAddress: options.from ?? '127.0.0.1' });
      socket = tlsConnect({ socket: tcp, ca, servername: 'localhost' }, () => {
        startedAt = Date.now();
        connected();
        socket!.write(options.start);
        if (options.trickle === undefined) return;
        const timer = setInterval(() => (socket!.writable ? socket!.write(options.trickle!) : clearInterval(timer)), 100);
        socket!.once('close', () => clearInterval(timer));
      });
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
        answered(received);
      });
      socket.on('error', () => undefined);
      socket.on('close', () => (startedAt === 0 ? reject(new Error('the TLS connection failed')) : resolve({ afterMs: Date.now() - startedAt, received })));
    });
    sockets.push({ destroy: () => socket?.destroy() });
    return { cut, connected: connectedPromise, firstAnswer };
  }

  /** A keyless request that declares a body it never sends: it holds a place until the body's deadline. */
  const keylessHeldBody = (from: string) =>
    slowClient({ from, start: 'POST /v2/customer HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n' });

  /** A quick keyless request (401 once admitted). */
  const keylessProbe = (from: string) => service.client.send<{ message: string }>({ path: '/v2/auth/checktoken', localAddress: from });

  /**
   * Sends keyless probes from `from` until one is answered `status`: the slow clients' requests
   * reach the server asynchronously (after their TLS handshakes), so the moment their places are
   * taken, or given back, is seen only from outside.
   */
  async function untilProbeAnswers(from: string, status: number): Promise<{ message: string }> {
    let answered = 0;
    const probe = async () => {
      const answer = await keylessProbe(from);
      answered = answer.status;
      return answer.status === status ? answer.body : undefined;
    };
    return eventually(probe, 5_000, { failure: () => `a keyless request from ${from} was answered ${answered}, never ${status}` });
  }


  async function timedCheckpoint(): Promise<{ status: number; elapsedMs: number; data: { source: string; scoreId: string; warnings?: unknown[] } }> {
    const startedAt = Date.now();
    const answer = await service.client.send<{ data: { source: string; scoreId: string; warnings?: unknown[] } }>({
      method: 'POST',
      path: '/v2/customer',
      body: customerRequest(),
      apiKey: TEST_BOOTSTRAP_KEY,
    });
    return { status: answer.status, elapsedMs: Date.now() - startedAt, data: answer.body.data };
  }

  /** A checkpoint decided for real: 200 in the client's budget, scored (no degraded warning). */
  async function expectPromptRealDecision(): Promise<void> {
    const checkpoint = await timedCheckpoint();
    expect(checkpoint.status).toBe(200);
    expect(checkpoint.elapsedMs).toBeLessThan(CHECKPOINT_BUDGET_MS);
    expect(checkpoint.data).toMatchObject({ source: 'RINGFENCE', scoreId: expect.stringMatching(/^scr_/) });
    expect(checkpoint.data.warnings ?? []).toEqual([]);
  }

  it('cuts a client that trickles its headers at the headers deadline (408), and the next checkpoint answers promptly', async () => {
    const { cut } = slowClient({ start: 'POST /v2/customer HTTP/1.1\r\nHost: localhost\r\n', trickle: 'X-Slow: 1\r\n' });

    const { afterMs, received } = await cut;

    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + CUT_SLACK_MS);
    await expectPromptRealDecision();
  });

  it('cuts authenticated clients that trickle their bodies at the body deadline, giving their places back to the next checkpoint', async () => {
    const headers = `POST /v2/customer HTTP/1.1\r\nHost: localhost\r\nAuthorization: token ${TEST_BOOTSTRAP_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`;
    const tricklers = Array.from({ length: AUTHENTICATED_BUDGET }, () => slowClient({ start: headers, trickle: ' ' }));
    // Every authenticated place is taken: a checkpoint meanwhile is refused (polled: the tricklers' requests arrive asynchronously).
    const deadline = Date.now() + 5_000;
    while ((await timedCheckpoint()).status !== 503) {
      if (Date.now() > deadline) throw new Error('the trickling clients never took the authenticated places');
    }

    for (const { afterMs, received } of await Promise.all(tricklers.map((trickler) => trickler.cut))) {
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(received).toMatch(/"message":"body: not received within 2000 ms of the headers; nothing was accepted"/);
      // Counted from the headers, which went with the connection's first bytes.
      expect(afterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
      expect(afterMs).toBeLessThan(BODY_TIMEOUT_MS + CUT_SLACK_MS);
    }
    await expectPromptRealDecision();
  }, 15_000);

  it('closes a connection that never completes its TLS handshake at the headers deadline', async () => {
    const startedAt = Date.now();
    const closedAfterMs = await new Promise<number>((resolve) => {
      const socket = tcpConnect({ host: '127.0.0.1', port }, () => socket.write('\x16\x03\x01'));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(Date.now() - startedAt));
      sockets.push(socket);
    });
    expect(closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + CUT_SLACK_MS);
  });

  it(`keeps the authenticated places when ${KEYLESS_BUDGET + 1} slow keyless clients arrive: the extra one gets 503, a checkpoint answers 200 within ${CHECKPOINT_BUDGET_MS} ms`, async () => {
    const addresses = ['127.0.0.2', '127.0.0.2', '127.0.0.3', '127.0.0.3'];
    await Promise.all(addresses.map((from) => keylessHeldBody(from).connected));
    const refused = await untilProbeAnswers('127.0.0.4', 503);
    expect(refused.message).toMatch(/over capacity \(4 requests without a valid API key in progress\)/);
    const extra = keylessHeldBody('127.0.0.5');
    expect(await extra.firstAnswer).toMatch(/^HTTP\/1\.1 503 /);
    // Its body is never read, so its connection is closed with the answer, not left to the deadline.
    expect((await extra.cut).afterMs).toBeLessThan(BODY_TIMEOUT_MS / 2);

    // The authenticated budget is as large as the keyless one: were keyless requests counted in
    // it, this checkpoint would be refused.
    await expectPromptRealDecision();
  });

  it('gives one address only its share of the keyless budget (429), and other addresses theirs', async () => {
    // The previous test's clients are gone, but the server learns so asynchronously.
    await untilProbeAnswers('127.0.0.6', 401);
    await Promise.all([keylessHeldBody('127.0.0.6').connected, keylessHeldBody('127.0.0.6').connected]);

    const overShare = await untilProbeAnswers('127.0.0.6', 429);
    expect(overShare.message).toMatch(/this address has 2 requests without a valid API key in progress, its share/);
    expect((await keylessProbe('127.0.0.7')).status).toBe(401);
    await expectPromptRealDecision();
  });

  describe('admin-token attempts', () => {
    const adminRequest = (token: string, from: string) => service.client.send<{ message: string }>({ path: '/admin/accounts', apiKey: token, localAddress: from });

    it('answers 429 with Retry-After to an address that keeps guessing, even for the right token, while another address still gets in', async () => {
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        expect((await adminRequest(`wrong-admin-token-guess-${attempt}-0123456789`, '127.0.0.9')).status).toBe(401);
      }

      const throttled = await adminRequest('wrong-admin-token-guess-11-0123456789', '127.0.0.9');
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
      expect(throttled.body.message).toMatch(/too many failed admin-token attempts from this address/);
      expect((await adminRequest(TEST_ADMIN_KEY, '127.0.0.9')).status).toBe(429);

      expect((await adminRequest(TEST_ADMIN_KEY, '127.0.0.10')).status).toBe(200);
      await expectPromptRealDecision();
    });

    it('does not count a request without a token, or with an account key, as a guess', async () => {
      for (let attempt = 1; attempt <= 11; attempt += 1) {
        expect((await service.client.send({ path: '/admin/accounts', localAddress: '127.0.0.11' })).status).toBe(401);
        expect((await adminRequest(TEST_BOOTSTRAP_KEY, '127.0.0.11')).status).toBe(403);
      }
      expect((await adminRequest(TEST_ADMIN_KEY, '127.0.0.11')).status).toBe(200);
    });
  });
});
