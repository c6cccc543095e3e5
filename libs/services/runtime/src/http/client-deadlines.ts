import type { ServerOptions as HttpServerOptions } from 'node:http';
import type { ServerOptions as HttpsServerOptions } from 'node:https';

/** A kept-alive connection idle for this long between requests is closed (Node's default, stated so it cannot drift). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** Node checks its request deadlines on a timer; at most this long after a deadline the connection is closed. */
const MAX_CHECKING_INTERVAL_MS = 1_000;

export interface ClientDeadlines {
  /** The TLS handshake, and a request's headers, within this. */
  headersTimeoutMs: number;
  /** The body complete within this after the headers' deadline. */
  bodyTimeoutMs: number;
}

/**
 * decisions §16, slow clients: the options that bound how long a client may take to send a
 * request, for every server an app listens with (Fastify applies its own timeouts only to
 * servers it creates, and ours come from `serverFactory`). Node's defaults leave a slow client
 * 60 s for its headers, 300 s for its request and 120 s for a TLS handshake, and check them only
 * every 30 s: 256 clients trickling bytes held every request slot.
 *
 * - `headersTimeout`: the headers (and, on a new connection, the first byte) within the headers'
 *   deadline; past it Node answers 408 and closes the connection.
 * - `requestTimeout`: the whole request, body included, within both deadlines: Node has no
 *   deadline for the body alone, so the body's is counted from the headers' deadline. A request
 *   that has arrived is not bound by it, however long its answer takes.
 * - `handshakeTimeout` (TLS): a connection that never completes its handshake never reaches
 *   HTTP, so the headers' deadline applies to the handshake too.
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
