import Fastify from 'fastify';
import { registerLoadShedding } from './load-shedding';

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
  registerLoadShedding(fastify, { maxInFlight: 0, maxEventLoopDelayMs }, 200);
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
    registerLoadShedding(fastify, { maxInFlight: 2, maxEventLoopDelayMs: 0 });
    const held: Array<() => void> = [];
    fastify.post('/v2/customer', () => new Promise((resolve) => held.push(() => resolve({ ok: true }))));
    fastify.get('/health/ready', async () => ({ status: 'ok' }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`;
    const post = () => fetch(`${url}/v2/customer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
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
});
