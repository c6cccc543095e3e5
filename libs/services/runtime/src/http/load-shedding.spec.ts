import { request as httpRequest } from 'node:http';
import Fastify, { type FastifyRequest } from 'fastify';
import { type LoadLimits, registerLoadShedding } from './load-shedding';

const NO_CAPS: LoadLimits = { maxInFlight: 0, maxUnauthenticatedInFlight: 0, maxUnauthenticatedInFlightPerAddress: 1, maxEventLoopDelayMs: 0 };

/** The tests' credential: a request is authenticated when it says so (the real reader is `RequestCredentials`). */
const byHeader = async (request: FastifyRequest) => request.headers.authorization === 'token valid';

/** Holds the event loop, as a saturated process does. */
function blockFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

/**
 * A server whose sampler (every 200 ms) has just seen the loop held for longer than an
 * interval. The sampler is asynchronous by design, so the test holds the loop until it reports
 * pressure (at most five tries), then has a whole interval to send its requests.
 */
async function serverUnderLoad(maxEventLoopDelayMs: number) {
  const fastify = Fastify();
  registerLoadShedding(fastify, { ...NO_CAPS, maxEventLoopDelayMs }, byHeader, 200);
  let handled = 0;
  fastify.post('/v2/customer', async () => ({ handled: ++handled }));
  fastify.get('/health/ready', async () => ({ status: 'ok' }));
  await fastify.ready();
  for (let attempt = 0; attempt < 5 && !(maxEventLoopDelayMs > 0 && fastify.isUnderPressure()); attempt += 1) {
    blockFor(450);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (maxEventLoopDelayMs === 0) break;
  }
  return { fastify, handledCount: () => handled };
}

describe('load shedding', () => {
  it('refuses API requests with 503, Retry-After and the error envelope while the event loop lags, before anything is handled', async () => {
    const { fastify, handledCount } = await serverUnderLoad(50);
    try {
      expect(fastify.isUnderPressure()).toBe(true);
      const answer = await fastify.inject({ method: 'POST', url: '/v2/customer', payload: { customer: {} } });
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      const body = answer.json();
      expect(body.status).toBe(503);
      expect(body.message).toMatch(/over capacity \(an event-loop delay over 50 ms\); nothing was accepted/);
      expect(handledCount()).toBe(0);

      const probe = await fastify.inject({ method: 'GET', url: '/health/ready' });
      expect(probe.statusCode).toBe(200);
    } finally {
      await fastify.close();
    }
  });

  it('lets requests through once the delay is back under the limit, and never sheds on delay when the limit is 0', async () => {
    const { fastify } = await serverUnderLoad(0);
    try {
      expect((await fastify.inject({ method: 'POST', url: '/v2/customer', payload: {} })).statusCode).toBe(200);
    } finally {
      await fastify.close();
    }
    const recovering = await serverUnderLoad(50);
    try {
      expect(recovering.fastify.isUnderPressure()).toBe(true);
      // Two quiet samples later.
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect((await recovering.fastify.inject({ method: 'POST', url: '/v2/customer', payload: {} })).statusCode).toBe(200);
    } finally {
      await recovering.fastify.close();
    }
  });

  it('refuses API requests past the in-flight cap, and admits again once one has finished', async () => {
    const fastify = Fastify();
    registerLoadShedding(fastify, { ...NO_CAPS, maxInFlight: 2 }, byHeader);
    const held: Array<() => void> = [];
    fastify.post('/v2/customer', () => new Promise((resolve) => held.push(() => resolve({ ok: true }))));
    fastify.get('/health/ready', async () => ({ status: 'ok' }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`;
    const post = () => fetch(`${url}/v2/customer`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'token valid' }, body: '{}' });
    try {
      const first = post();
      const second = post();
      // Polled: the requests reach the handler over the network, asynchronously.
      while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));

      const refused = await post();
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(((await refused.json()) as { message: string }).message).toMatch(/over capacity \(2 requests in progress\); nothing was accepted/);
      expect(held).toHaveLength(2);
      expect((await fetch(`${url}/health/ready`)).status).toBe(200);

      held.shift()?.();
      expect((await first).status).toBe(200);
      const third = post();
      // Polled: the requests reach the handler over the network, asynchronously.
      while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      held.splice(0).forEach((release) => release());
      expect((await second).status).toBe(200);
      expect((await third).status).toBe(200);
    } finally {
      await fastify.close();
    }
  });

  describe('requests without a valid credential', () => {
    const LIMITS: LoadLimits = { maxInFlight: 2, maxUnauthenticatedInFlight: 3, maxUnauthenticatedInFlightPerAddress: 2, maxEventLoopDelayMs: 0 };

    /** A server whose `/v2/customer` holds every request until released; `held` counts them. */
    async function holdingServer() {
      const fastify = Fastify();
      registerLoadShedding(fastify, LIMITS, byHeader);
      const held: Array<() => void> = [];
      fastify.post('/v2/customer', () => new Promise((resolve) => held.push(() => resolve({ ok: true }))));
      await fastify.listen({ port: 0, host: '127.0.0.1' });
      const port = (fastify.server.address() as { port: number }).port;
      /** A POST from `from` (a loopback address: Linux routes all of 127/8 to the loopback interface). */
      const post = (options: { from: string; authenticated?: boolean }) =>
        new Promise<{ status: number; body: { message: string }; retryAfter: string | undefined }>((resolve, reject) => {
          const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.authenticated ? { authorization: 'token valid' } : {}) };
          const request = httpRequest({ host: '127.0.0.1', port, path: '/v2/customer', method: 'POST', localAddress: options.from, headers, agent: false }, (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as { message: string }, retryAfter: response.headers['retry-after'] }));
          });
          request.on('error', reject);
          request.end('{}');
        });
      const heldReach = async (count: number) => {
        // Polled: the requests reach the handler over the network, asynchronously.
        while (held.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
      };
      return { fastify, held, post, heldReach };
    }

    it('have a budget of their own: keyless requests past it get 503 while authenticated ones are still admitted', async () => {
      const { fastify, held, post, heldReach } = await holdingServer();
      try {
        const keyless = [post({ from: '127.0.0.1' }), post({ from: '127.0.0.2' }), post({ from: '127.0.0.3' })];
        await heldReach(3);

        const refused = await post({ from: '127.0.0.4' });
        expect(refused.status).toBe(503);
        expect(refused.retryAfter).toBe('1');
        expect(refused.body.message).toMatch(/over capacity \(3 requests without a valid API key in progress\); nothing was accepted/);

        const authenticated = [post({ from: '127.0.0.4', authenticated: true }), post({ from: '127.0.0.1', authenticated: true })];
        await heldReach(5);
        expect((await post({ from: '127.0.0.5', authenticated: true })).status).toBe(503);

        held.splice(0).forEach((release) => release());
        for (const answer of await Promise.all([...keyless, ...authenticated])) expect(answer.status).toBe(200);
      } finally {
        await fastify.close();
      }
    });

    it('give one client address only its share of that budget (429), and the others theirs', async () => {
      const { fastify, held, post, heldReach } = await holdingServer();
      try {
        const first = [post({ from: '127.0.0.7' }), post({ from: '127.0.0.7' })];
        await heldReach(2);

        const overShare = await post({ from: '127.0.0.7' });
        expect(overShare.status).toBe(429);
        expect(overShare.retryAfter).toBe('1');
        expect(overShare.body.message).toMatch(/this address has 2 requests without a valid API key in progress, its share; nothing was accepted/);

        const other = post({ from: '127.0.0.8' });
        await heldReach(3);
        held.splice(0).forEach((release) => release());
        for (const answer of await Promise.all([...first, other])) expect(answer.status).toBe(200);
        // The share is given back when the requests end.
        const again = post({ from: '127.0.0.7' });
        await heldReach(1);
        held.splice(0).forEach((release) => release());
        expect((await again).status).toBe(200);
      } finally {
        await fastify.close();
      }
    });
  });
});
