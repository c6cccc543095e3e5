import { connect } from 'node:net';
import Fastify from 'fastify';
import { clientDeadlineOptions, registerBodyDeadline } from './client-deadlines';

const BODY_TIMEOUT_MS = 300;

/** A server with the body deadline whose route answers after `handlerMs`. */
async function server(handlerMs: number) {
  const fastify = Fastify();
  registerBodyDeadline(fastify, BODY_TIMEOUT_MS);
  fastify.post('/v2/customer', async (request) => {
    await new Promise((resolve) => setTimeout(resolve, handlerMs));
    return { received: JSON.stringify(request.body).length };
  });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  return { fastify, port: (fastify.server.address() as { port: number }).port };
}

/** Sends `head` at once, then `trickle` every 50 ms until the server closes the connection. */
function exchange(port: number, head: string, trickle?: string): Promise<{ afterMs: number; received: string }> {
  return new Promise((resolve) => {
    const startedAt = Date.now();
    let received = '';
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(head));
    const timer = trickle === undefined ? undefined : setInterval(() => socket.writable && socket.write(trickle), 50);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ afterMs: Date.now() - startedAt, received });
    });
  });
}

describe(registerBodyDeadline.name, () => {
  it('answers 408 in the error envelope and closes the connection when the body is still arriving at the deadline', async () => {
    const { fastify, port } = await server(0);
    try {
      const { afterMs, received } = await exchange(port, 'POST /v2/customer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{', ' ');

      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(received).toMatch(/connection: close/i);
      expect(received).toMatch(/"status":408,"message":"body: not received within 300 ms of the headers; nothing was accepted"/);
      expect(afterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 20);
      expect(afterMs).toBeLessThan(BODY_TIMEOUT_MS + 500);
    } finally {
      await fastify.close();
    }
  });

  it('never cuts a request that has arrived, however long its answer takes', async () => {
    const { fastify, port } = await server(BODY_TIMEOUT_MS * 2);
    try {
      const { received } = await exchange(port, 'POST /v2/customer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');

      expect(received).toMatch(/^HTTP\/1\.1 200 /);
      expect(received).toMatch(/\{"received":2\}$/);
    } finally {
      await fastify.close();
    }
  });
});

describe(clientDeadlineOptions.name, () => {
  it('gives the handshake the headers deadline, the whole request both, and checks them often enough to keep them', () => {
    expect(clientDeadlineOptions({ headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000 })).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 20_000,
      handshakeTimeout: 10_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 1_000,
    });
    expect(clientDeadlineOptions({ headersTimeoutMs: 1_000, bodyTimeoutMs: 400 }).connectionsCheckingInterval).toBe(100);
  });
});
