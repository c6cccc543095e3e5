import type { FastifyInstance } from 'fastify';
import { CLIENT_EVENTS_BODY_LIMIT_BYTES } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { UNSUPPORTED_MEDIA_TYPE_MESSAGE } from '../envelope-exception.filter';
import { CLIENT_ROUTE_CONFIG } from '../route-access.decorator';
import type { StringBodyParser } from './json-only.hook';

/**
 * The client-SDK routes (`@PublishableKeyRoute()`, ADR-0015) differ from the others in two
 * ways. Their body limit is 32 KiB (413 past it), set on the route as it is registered. And a
 * `text/plain` body is read as JSON there, since `navigator.sendBeacon` and a "simple" cross-origin
 * request send no other type without a preflight; on every other route text/plain stays a 415,
 * as the catch-all of `registerJsonOnly` answers it. Registered after `registerJsonOnly`.
 */
export function registerClientRoutes(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if ((route.config as Record<string, unknown> | undefined)?.[CLIENT_ROUTE_CONFIG] === true) route.bodyLimit = CLIENT_EVENTS_BODY_LIMIT_BYTES;
  });
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = fastify.initialConfig;
  const parseJson = fastify.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning) as StringBodyParser;
  fastify.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body, done) => {
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (config?.[CLIENT_ROUTE_CONFIG] === true) {
      if (body.length === 0) done(null, undefined);
      else parseJson(request, body as string, done);
    } else if (request.is404 || body.length === 0) done(null, undefined);
    else done(new AppError('UNSUPPORTED_MEDIA_TYPE', UNSUPPORTED_MEDIA_TYPE_MESSAGE), undefined);
  });
}
