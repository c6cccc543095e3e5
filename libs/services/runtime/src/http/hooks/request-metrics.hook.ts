import type { FastifyInstance } from 'fastify';
import { httpRequestDuration } from '../../metrics/metrics';

/** Each request's duration by method, route and status (`http_request_duration_seconds`). */
export function registerRequestMetrics(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', async (request, reply) => {
    httpRequestDuration
      .labels(request.method, request.routeOptions.url ?? 'unmatched', String(reply.statusCode))
      .observe(reply.elapsedTime / 1000);
  });
}
