import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from '@ringfence/platform';
import { BODY_RESERVED_KEY, BODY_TOO_DEEP, BODY_UNSTORABLE_TEXT, MAX_JSON_DEPTH, scanBody } from '../body-scan';
import { reservedKeyProblems } from '../reserved-keys';
import { unstorableTextProblems } from '../storable-text';

/**
 * Refused before anything walks the body: validation and transformation recurse, and a body
 * nested thousands of levels deep inside an open object would exhaust the stack (a 500).
 * Then text that PostgreSQL cannot store (a NUL, a lone surrogate) in any path parameter, query
 * parameter or body string, keys included, at any depth, of every route, and keys named
 * `constructor` (reserved-keys.ts): one 400 naming each place, instead of a 500 or a database
 * error later. The body is walked once (`scanBody`, allocating nothing); the walks that name the
 * places run only on a body it flags.
 */
export function registerBodyGuards(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', async (request, reply) => {
    const found = request.body === undefined ? 0 : scanBody(request.body);
    if (found & BODY_TOO_DEEP) {
      await refuse(request, reply, `body: must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
      return;
    }
    const problems = unstorableTextProblems({ params: request.params, query: request.query, body: found & BODY_UNSTORABLE_TEXT ? request.body : undefined });
    if (found & BODY_RESERVED_KEY) problems.push(...reservedKeyProblems(request.body));
    if (problems.length > 0) await refuse(request, reply, problems.join('; '));
  });
}

function refuse(request: FastifyRequest, reply: FastifyReply, message: string): FastifyReply {
  return reply.status(400).type('application/json; charset=utf-8').send(errorEnvelope(400, message, String(request.id)));
}
