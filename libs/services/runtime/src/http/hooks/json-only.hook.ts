import type { FastifyInstance } from 'fastify';
import { AppError } from '@ringfence/platform';
import { UNSUPPORTED_MEDIA_TYPE_MESSAGE } from '../envelope-exception.filter';

/**
 * JSON only: every other body is a 415. Fastify's own JSON parser reads `application/json`
 * (with any parameters, such as `charset=utf-8`); its text/plain parser is removed, Nest's
 * form-urlencoded one is never registered (`bodyParser: false` in `createHttpApp`), and the
 * catch-all refuses every other type, and a body sent without a Content-Type. A request without
 * a body may carry any Content-Type (a DELETE sent with one by habit), and an unknown path stays a 404.
 */
export function registerJsonOnly(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser('*', (request, _payload, done) => {
    const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
    if (request.is404 || (chunked === undefined && (length === undefined || length === '0'))) done(null, undefined);
    else done(new AppError('UNSUPPORTED_MEDIA_TYPE', UNSUPPORTED_MEDIA_TYPE_MESSAGE), undefined);
  });
}
