import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, NotFoundException } from '@nestjs/common';
import { BusMessageRefusedError, BusRemoteError, BusTimeoutError, BusUnavailableError } from '@ringfence/bus';
import { isDatabaseUnavailable } from '@ringfence/persistence';
import { AppError, INTERNAL_ERROR_MESSAGE, type Logger, RateLimitedError, errorEnvelope } from '@ringfence/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { loggedPath } from '../logging/logged-path';
import type { RouteTable } from './route-table';

interface Described {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** The 415 answer: a body of any type but JSON, or a Content-Type header that is not one. */
export const UNSUPPORTED_MEDIA_TYPE_MESSAGE = 'Content-Type: must be application/json';

const bodyTooLarge = (limit: number): Described => ({ status: 413, message: `body: larger than the limit of ${limit} bytes` });

// Fastify's own request errors (raised before a handler runs), by code.
const FASTIFY_ERRORS: Record<string, (error: { message: string }, bodyLimit: number) => Described> = {
  FST_ERR_CTP_BODY_TOO_LARGE: (_e, limit) => bodyTooLarge(limit),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => ({ status: 415, message: UNSUPPORTED_MEDIA_TYPE_MESSAGE }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => ({ status: 400, message: 'Content-Length: does not match the body' }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => ({ status: 400, message: 'body: must be a JSON object, got an empty body' }),
  FST_ERR_CTP_INVALID_JSON_BODY: () => ({ status: 400, message: 'body: is not valid JSON' }),
};

function isFastifyError(error: unknown): error is { code: string; statusCode: number; message: string } {
  return typeof error === 'object' && error !== null && typeof (error as { statusCode?: unknown }).statusCode === 'number';
}

/**
 * The one HTTP error mapping (ADR-0001): every non-2xx answer is the envelope
 * `{status, message, timestamp, traceId}`; unexpected errors get a generic message and are
 * logged with the traceId.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly routes: RouteTable,
    private readonly bodyLimit: number,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const traceId = String(request.id);
    const described = this.describe(exception, request);
    if (described.status >= 500) {
      // The route, not the URL: a query string carries personal data (ADR-0016).
      this.logger.error({ traceId, err: exception, method: request.method, url: loggedPath(request) }, 'request failed');
    }
    void reply
      .status(described.status)
      .headers({ 'x-trace-id': traceId, ...described.headers })
      .type('application/json; charset=utf-8')
      .send(errorEnvelope(described.status, described.message, traceId));
  }

  private describe(exception: unknown, request: FastifyRequest): Described {
    if (exception instanceof RateLimitedError) {
      return { status: exception.status, message: exception.message, headers: { 'retry-after': String(exception.retryAfterSeconds) } };
    }
    if (exception instanceof AppError) return { status: exception.status, message: exception.message };
    if (exception instanceof NotFoundException) return this.notFound(request);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      // Nest hands Fastify's own errors over as HttpExceptions with Fastify's text; a malformed
      // Content-Type header arrives so.
      if (status === 415) return { status, message: UNSUPPORTED_MEDIA_TYPE_MESSAGE };
      // Fastify's body limit, the route's own where it has one (the client routes' 32 KiB).
      if (status === 413) return bodyTooLarge(request.routeOptions?.bodyLimit ?? this.bodyLimit);
      return { status, message: status >= 500 && status !== 503 ? INTERNAL_ERROR_MESSAGE : exception.message };
    }
    if (exception instanceof BusTimeoutError) return { status: 503, message: 'a dependency did not answer in time; retry' };
    if (exception instanceof BusUnavailableError) return { status: 503, message: 'a dependency is unavailable; nothing was accepted, retry' };
    // The same body would be refused again, so not a 503 (ADR-0016): Kafka's message.max.bytes can be below BODY_LIMIT_BYTES.
    if (exception instanceof BusMessageRefusedError) {
      const tooLarge = exception.reason.endsWith('TOO_LARGE');
      return { status: tooLarge ? 413 : 400, message: `body: the event bus refused it (${exception.reason}); nothing was accepted` };
    }
    if (exception instanceof BusRemoteError && exception.status < 500) {
      // A 429 of the service that owns the state (a training, an account's share: ADR-0016) says how long to wait.
      const wait = exception.retryAfterSeconds === undefined ? undefined : { 'retry-after': String(exception.retryAfterSeconds) };
      return { status: exception.status, message: exception.message, ...(wait === undefined ? {} : { headers: wait }) };
    }
    if (exception instanceof BusRemoteError && exception.status === 503) return { status: 503, message: 'a dependency is unavailable; retry' };
    if (isFastifyError(exception) && exception.statusCode < 500) {
      const known = FASTIFY_ERRORS[exception.code];
      if (known) return known(exception, request.routeOptions?.bodyLimit ?? this.bodyLimit);
      if (exception.statusCode === 404) return this.notFound(request);
      return { status: exception.statusCode, message: `request: ${exception.message}` };
    }
    if (exception instanceof SyntaxError) return { status: 400, message: 'body: is not valid JSON' };
    if (isDatabaseUnavailable(exception)) return { status: 503, message: 'the database is unavailable; nothing was accepted, retry' };
    return { status: 500, message: INTERNAL_ERROR_MESSAGE };
  }

  private notFound(request: FastifyRequest): Described {
    const allowed = this.routes.methodsFor(request.url);
    if (allowed.length > 0) {
      return { status: 405, message: `${request.method} is not allowed here; use ${allowed.join(', ')}`, headers: { allow: allowed.join(', ') } };
    }
    return { status: 404, message: `no route ${request.method} ${request.url.split('?')[0]}` };
  }
}
