import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { loggedPath } from './logged-path';

/**
 * One log line per request instead of Fastify's two: written when the answer has gone, with the
 * traceId (the request id, a field: requests log through the root logger, not a child per
 * request), method, route, status and duration. Probes are not logged at info.
 * No line carries the query string or the request as Fastify serialises it (`req`, whose `url`
 * has the query): only `loggedPath` (ADR-0016).
 */
export class RequestLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'traceId' });
  }

  override incomingRequest(): void {
    // Folded into requestCompleted.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const fields = {
      traceId: request.id,
      method: request.method,
      url: loggedPath(request),
      status: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else if (request.url.startsWith('/health/') || request.url === '/metrics') reply.log.debug(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }

  // Fastify's own lines below would log `req` (with its query string) or the raw URL.

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    const fields = { traceId: request.id, method: request.method, url: loggedPath(request), status: reply.statusCode, err: error };
    if (reply.statusCode >= 500) reply.log.error(fields, 'request failed');
    else reply.log.info(fields, 'request refused');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info({ traceId: request.id, method: request.method, url: loggedPath(request) }, 'route not found');
  }

  override writeHeadError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    reply.log.warn({ traceId: request.id, method: request.method, url: loggedPath(request), status: reply.statusCode, err: error }, 'could not write the response head');
  }
}
