import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_IDENTIFIER_LENGTH } from '@ringfence/contracts';
import { errorEnvelope } from '@ringfence/platform';

/**
 * Path identifiers (`/v2/customer/:customerId/labels`) may be 300 characters, which the route
 * DTOs check on the decoded value (400 naming the parameter). The router's own limit (default
 * 100, then 414) counts UTF-16 units, so it sits well above 300 characters of any script;
 * beyond it 414 is the right answer.
 */
export const MAX_PATH_PARAMETER_LENGTH = MAX_IDENTIFIER_LENGTH * 4;

/**
 * The router's own refusals (a malformed percent-encoding, a parameter over that limit) happen
 * before Nest sees the request, so its filter cannot shape them: they are answered with the
 * envelope here (Fastify's `frameworkErrors`).
 */
export function answerRouterRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
  const message = status === 414 ? 'path: a parameter is too long' : 'path: is not a valid percent-encoded URL';
  void reply
    .status(status)
    .header('x-trace-id', request.id)
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(status, message, String(request.id)));
}
