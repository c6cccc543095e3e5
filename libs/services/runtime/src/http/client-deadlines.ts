import type { ServerOptions as HttpServerOptions } from 'node:http';
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import type { FastifyInstance } from 'fastify';
import { errorEnvelope } from '@ringfence/platform';

/** A kept-alive connection idle for this long between requests is closed (Node's default, stated so it cannot drift). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** Node checks its request deadlines on a timer; at most this long after a deadline the connection is closed. */
const MAX_CHECKING_INTERVAL_MS = 1_000;

export interface ClientDeadlines {
  /** The TLS handshake, and a request's headers, within this. */
  headersTimeoutMs: number;
  /** The body complete within this once the headers are in. */
  bodyTimeoutMs: number;
}

/**
 * ADR-0016, slow clients: the options that bound how long a client may take to send a
 * request, for every server an app listens with (Fastify applies its own timeouts only to
 * servers it creates, and ours come from `serverFactory`). Node's defaults leave a slow client
 * 60 s for its headers, 300 s for its request and 120 s for a TLS handshake, and check them only
 * every 30 s: 256 clients trickling bytes held every request slot.
 *
 * - `headersTimeout`: the headers (and, on a new connection, the first byte) within the headers'
 *   deadline; past it Node answers 408 and closes the connection.
 * - `handshakeTimeout` (TLS): a connection that never completes its handshake never reaches
 *   HTTP, so the headers' deadline applies to the handshake too.
 * - `requestTimeout`: the whole request within both deadlines, a backstop to the body's own
 *   deadline (`registerBodyDeadline`), which Node does not have. A request that has arrived is
 *   not bound by it, however long its answer takes.
 * - `keepAliveTimeout`: idle kept-alive connections are closed after 5 s.
 */
export function clientDeadlineOptions({ headersTimeoutMs, bodyTimeoutMs }: ClientDeadlines): HttpServerOptions & Pick<HttpsServerOptions, 'handshakeTimeout'> {
  return {
    headersTimeout: headersTimeoutMs,
    requestTimeout: headersTimeoutMs + bodyTimeoutMs,
    handshakeTimeout: headersTimeoutMs,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // A quarter of the shorter deadline, so a deadline is kept to within a quarter of itself.
    connectionsCheckingInterval: Math.min(MAX_CHECKING_INTERVAL_MS, Math.ceil(Math.min(headersTimeoutMs, bodyTimeoutMs) / 4)),
  };
}

/**
 * ADR-0016: a request's body must have arrived `bodyTimeoutMs` after its headers; past it
 * the answer is 408 in the error envelope and the connection is closed (its remaining bytes are
 * never read). Counted from the `onRequest` hook, where the headers are in and the body is not
 * read yet. The deadline is whether the message is complete (`IncomingMessage.complete`), not
 * whether anybody read it, so a long answer to a request that has arrived is never cut.
 */
export function registerBodyDeadline(fastify: FastifyInstance, bodyTimeoutMs: number): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const message = request.raw;
    if (message.complete) {
      done();
      return;
    }
    const deadline = setTimeout(() => {
      if (message.complete || reply.sent) return;
      void reply
        .status(408)
        .header('connection', 'close')
        .type('application/json; charset=utf-8')
        .send(errorEnvelope(408, `body: not received within ${bodyTimeoutMs} ms of the headers; nothing was accepted`, String(request.id)));
    }, bodyTimeoutMs);
    // The server keeps the process alive; a pending deadline alone must not (a closing app, inject() in tests).
    deadline.unref();
    const clear = () => clearTimeout(deadline);
    message.once('end', clear);
    reply.raw.once('close', clear);
    done();
  });
}
