import type { FastifyInstance } from 'fastify';
import { errorEnvelope } from '@ringfence/platform';
import { MAX_JSON_DEPTH, exceedsJsonDepth } from '../json-depth';
import { reservedKeyProblems } from '../reserved-keys';
import { unstorableTextProblems } from '../storable-text';

/**
 * Refused before anything walks the body: validation and transformation recurse, and a body
 * nested thousands of levels deep inside an open object would exhaust the stack (a 500).
 * Then text that PostgreSQL cannot store (a NUL, a lone surrogate) in any path parameter, query
 * parameter or body string, keys included, at any depth, of every route, and keys named
 * `constructor` (reserved-keys.ts): one 400 naming each place, instead of a 500 or a database
 * error later.
 */
export function registerBodyGuards(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', async (request, reply) => {
    const refuse = (message: string) => reply.status(400).type('application/json; charset=utf-8').send(errorEnvelope(400, message, String(request.id)));
    if (request.body !== undefined && exceedsJsonDepth(request.body)) {
      await refuse(`body: must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
      return;
    }
    const problems = [...unstorableTextProblems(request), ...reservedKeyProblems(request.body)];
    if (problems.length > 0) await refuse(problems.join('; '));
  });
}
