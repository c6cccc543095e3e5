import type { FastifyInstance } from 'fastify';

/** Every answer names its request's traceId (`x-trace-id`), the id its log lines carry. */
export function registerTraceIdHeader(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-trace-id', request.id);
  });
}
