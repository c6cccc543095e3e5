import { type Principal, allowedOriginsOf } from '@ringfence/accounts';
import { AppError } from '@ringfence/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestCredentials } from './request-credentials';

/** Methods and request headers the client routes take from a browser (ADR-0015). */
const CORS_ALLOWED_METHODS = 'GET, POST';
const CORS_ALLOWED_HEADERS = 'authorization, content-type';
/** Answer headers a page's script may read: the trace id (for support) and a 429's wait. */
const CORS_EXPOSED_HEADERS = 'x-trace-id, retry-after';
/** How long a browser may reuse a preflight's answer. */
const CORS_MAX_AGE_SECONDS = 600;

/** The CORS headers of a client route's answer to a request from `origin`. */
export function corsAnswerHeaders(origin: string): Record<string, string> {
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': CORS_EXPOSED_HEADERS, vary: 'Origin' };
}

/** The CORS headers of a preflight answered for `origin`. */
export function corsPreflightHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': CORS_ALLOWED_METHODS,
    'access-control-allow-headers': CORS_ALLOWED_HEADERS,
    'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
    vary: 'Origin',
  };
}

/**
 * A client route's access (`@PublishableKeyRoute()`): a publishable key of an active account,
 * from the header or the `key` query parameter; a secret key is 403 (it must never reach a
 * browser). A request with an `Origin` (a browser's) is refused 403 unless the key's data set
 * lists that origin in `allowedOrigins`, before anything of it is read further, so nothing is
 * kept; an allowed one gets its CORS headers on every answer, errors included. A request
 * without an `Origin` (a server, a mobile app) is not a browser's and needs none.
 */
export async function authenticateClient(credentials: RequestCredentials, request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  const key = await credentials.clientKeyOf(request);
  if (key instanceof AppError) throw key;
  if (key.keyKind !== 'publishable') {
    throw new AppError('FORBIDDEN', 'this endpoint takes a publishable key (pk_…); a secret key must never be sent from a browser or app');
  }
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (!allowedOriginsOf(key.account.settings, key.environment).includes(origin)) {
      throw new AppError('FORBIDDEN', "the request's Origin is not one of this data set's allowedOrigins (PATCH /v2/account/settings); nothing was kept");
    }
    void reply.headers(corsAnswerHeaders(origin));
  }
  return key;
}
