import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One log line per request instead of Fastify's two: written when the answer has gone, with the
 * traceId (the request id), method, route, status and duration. Probes are not logged at info.
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
      method: request.method,
      url: request.routeOptions.url ?? request.url.split('?')[0],
      status: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else if (request.url.startsWith('/health/') || request.url === '/metrics') reply.log.debug(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }
}
