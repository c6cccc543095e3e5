import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '@ringfence/platform';
import { UNSUPPORTED_MEDIA_TYPE_MESSAGE } from '../envelope-exception.filter';

/**
 * JSON only: every other body is a 415. `application/json` (with any parameters, such as
 * `charset=utf-8`) is read by Fastify's own JSON parser, with the app's prototype-poisoning
 * options, except that an empty body is an absent one (`emptyJsonIsAbsent`); its text/plain
 * parser is removed, Nest's form-urlencoded one is never registered (`bodyParser: false` in
 * `createHttpApp`), and the catch-all refuses every other type, and a body sent without a
 * Content-Type. A request without a body may carry any Content-Type (a DELETE sent with one by
 * habit), and an unknown path stays a 404.
 */
export function registerJsonOnly(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['text/plain', 'application/json']);
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = fastify.initialConfig;
  const parse = fastify.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning) as StringBodyParser;
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, emptyJsonIsAbsent(parse));
  fastify.addContentTypeParser('*', (request, _payload, done) => {
    const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
    if (request.is404 || (chunked === undefined && (length === undefined || length === '0'))) done(null, undefined);
    else done(new AppError('UNSUPPORTED_MEDIA_TYPE', UNSUPPORTED_MEDIA_TYPE_MESSAGE), undefined);
  });
}

/** Fastify's JSON parser: the body read as a string, the outcome passed to `done`. */
export type StringBodyParser = (request: FastifyRequest, body: string, done: (error: Error | null, body?: unknown) => void) => void;

/**
 * Many HTTP clients send `Content-Type: application/json` on every request, a GET or DELETE
 * without a body included (issue 38). Fastify runs the parser of a request's Content-Type for
 * every method that may carry a body, DELETE included, even with neither Content-Length nor
 * Transfer-Encoding, and its JSON parser refuses the empty body it reads (400 "Body cannot be
 * empty…"). Here an empty body is no body at all, as if no Content-Type had been sent. A route that needs a body still answers 400 naming it: its
 * validation meets `undefined` (`body: must be a JSON object`). Any other text, blanks
 * included, is parsed as before.
 */
export function emptyJsonIsAbsent(parse: StringBodyParser): StringBodyParser {
  return (request, body, done) => {
    if (body.length === 0) done(null, undefined);
    else parse(request, body, done);
  };
}
