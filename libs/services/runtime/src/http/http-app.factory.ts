import { createServer as createHttpServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { ShutdownSignal } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_IDENTIFIER_LENGTH } from '@ringfence/contracts';
import { AppError, type Logger, type RingfenceConfig, errorEnvelope, newTraceId } from '@ringfence/platform';
import { NestPinoLogger } from '../logging/nest-pino-logger';
import { MAX_JSON_DEPTH, exceedsJsonDepth } from './json-depth';
import { RequestLogController } from '../logging/request-log.controller';
import { httpRequestDuration } from '../metrics/metrics';
import { EnvelopeExceptionFilter, UNSUPPORTED_MEDIA_TYPE_MESSAGE } from './envelope-exception.filter';
import { clientDeadlineOptions, registerBodyDeadline } from './client-deadlines';
import { type IsAuthenticated, registerLoadShedding } from './load-shedding';
import { RequestCredentials } from './request-credentials';
import { RouteTable } from './route-table';
import { reservedKeyProblems } from './reserved-keys';
import { unstorableTextProblems } from './storable-text';
import { StrictValidationPipe } from './strict-validation.pipe';
import type { TlsMaterial } from './tls-certificate';

/** The signals on which the app closes its modules (and the bus commits what it handled) before exiting. */
const GRACEFUL_SHUTDOWN_SIGNALS = [ShutdownSignal.SIGTERM, ShutdownSignal.SIGINT, ShutdownSignal.SIGHUP];

export interface HttpAppOptions {
  config: RingfenceConfig;
  logger: Logger;
  /** Serve HTTPS with this material on `config.port`; without it the app serves plain HTTP. */
  tls?: TlsMaterial;
}

export interface HttpApp {
  app: NestFastifyApplication;
  /** Starts listening (HTTPS or HTTP on PORT, plus plain HTTP on HTTP_PORT when set). */
  listen(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function providedCredentials(app: NestFastifyApplication): RequestCredentials | undefined {
  try {
    return app.get(RequestCredentials, { strict: false });
  } catch {
    return undefined;
  }
}

function boundPort(server: { address(): unknown }, configured: number): number {
  const address = server.address();
  return typeof address === 'object' && address !== null && 'port' in address ? Number(address.port) : configured;
}

/**
 * One way to build every app's HTTP side: Fastify with the body limit, JSON logging with a
 * traceId per request (also sent as `x-trace-id`), the error envelope, strict validation,
 * 405 detection and request metrics; deadlines for slow clients and the in-flight budgets of
 * authenticated and unauthenticated requests (decisions §16).
 */
export async function createHttpApp(module: unknown, options: HttpAppOptions): Promise<HttpApp> {
  const { config, logger, tls } = options;
  let plainServer: HttpServer | undefined;
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => newTraceId(),
    requestIdHeader: false,
    logController: new RequestLogController(),
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    // Path identifiers (`/v2/customer/:customerId/labels`) may be 300 characters, which the
    // route DTOs check on the decoded value (400 naming the parameter). The router's own limit
    // (default 100, then 414) counts UTF-16 units, so it sits well above 300 characters of any
    // script; beyond it 414 is the right answer.
    routerOptions: { maxParamLength: MAX_IDENTIFIER_LENGTH * 4 },
    // The router's own refusals (a malformed percent-encoding, a parameter over that limit)
    // happen before Nest sees the request, so its filter cannot shape them: answer the
    // envelope here.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      const message = status === 414 ? 'path: a parameter is too long' : 'path: is not a valid percent-encoded URL';
      void reply
        .status(status)
        .header('x-trace-id', request.id)
        .type('application/json; charset=utf-8')
        .send(errorEnvelope(status, message, String(request.id)));
    },
    serverFactory: (handler: Handler) => {
      const deadlines = clientDeadlineOptions({ headersTimeoutMs: config.headersTimeoutMs, bodyTimeoutMs: config.bodyTimeoutMs });
      if (tls && config.httpPort !== undefined) plainServer = createHttpServer(deadlines, handler);
      return tls ? createHttpsServer({ ...deadlines, cert: tls.cert, key: tls.key }, handler) : createHttpServer(deadlines, handler);
    },
  });
  const fastify = adapter.getInstance();
  const routes = new RouteTable();
  fastify.addHook('onRoute', (route) => routes.add(route.url, route.method));
  // JSON only: every other body is a 415. Fastify's own JSON parser reads `application/json`
  // (with any parameters, such as `charset=utf-8`); its text/plain parser is removed, Nest's
  // form-urlencoded one is never registered (`bodyParser: false` below), and the catch-all
  // refuses every other type, and a body sent without a Content-Type. A request without a body
  // may carry any Content-Type (a DELETE sent with one by habit), and an unknown path stays a 404.
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser('*', (request, _payload, done) => {
    const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
    if (request.is404 || (chunked === undefined && (length === undefined || length === '0'))) done(null, undefined);
    else done(new AppError('UNSUPPORTED_MEDIA_TYPE', UNSUPPORTED_MEDIA_TYPE_MESSAGE), undefined);
  });
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-trace-id', request.id);
  });
  registerBodyDeadline(fastify, config.bodyTimeoutMs);
  // The in-flight budgets tell authenticated requests from the rest with the access guard's own
  // credential reader, which the app's module provides (created below, before any request).
  let isAuthenticated: IsAuthenticated = async () => false;
  registerLoadShedding(
    fastify,
    {
      maxInFlight: config.maxInFlightRequests,
      maxUnauthenticatedInFlight: config.maxUnauthenticatedInFlightRequests,
      maxUnauthenticatedInFlightPerAddress: config.maxUnauthenticatedInFlightPerAddress,
      maxEventLoopDelayMs: config.maxEventLoopDelayMs,
    },
    (request) => isAuthenticated(request),
  );
  // Refused before anything walks the body: validation and transformation recurse, and a body
  // nested thousands of levels deep inside an open object would exhaust the stack (a 500).
  // Then text that PostgreSQL cannot store (a NUL, a lone surrogate) in any path parameter, query
  // parameter or body string, keys included, at any depth, of every route, and keys named
  // `constructor` (reserved-keys.ts): one 400 naming each place, instead of a 500 or a database
  // error later.
  fastify.addHook('preValidation', async (request, reply) => {
    const refuse = (message: string) => reply.status(400).type('application/json; charset=utf-8').send(errorEnvelope(400, message, String(request.id)));
    if (request.body !== undefined && exceedsJsonDepth(request.body)) {
      await refuse(`body: must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
      return;
    }
    const problems = [...unstorableTextProblems(request), ...reservedKeyProblems(request.body)];
    if (problems.length > 0) await refuse(problems.join('; '));
  });
  fastify.addHook('onResponse', async (request, reply) => {
    httpRequestDuration
      .labels(request.method, request.routeOptions.url ?? 'unmatched', String(reply.statusCode))
      .observe(reply.elapsedTime / 1000);
  });

  const app = await NestFactory.create<NestFastifyApplication>(module as never, adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
    // Nest's parsers would add application/x-www-form-urlencoded; Fastify's JSON parser is the only one.
    bodyParser: false,
  });
  const credentials = providedCredentials(app);
  // Without the runtime module (a test of one controller) no route takes a credential.
  if (credentials) isAuthenticated = (request) => credentials.isAuthenticated(request);
  app.useGlobalFilters(new EnvelopeExceptionFilter(logger, routes, config.bodyLimitBytes));
  app.useGlobalPipes(new StrictValidationPipe());
  // Only the signals that ask a process to stop. Nest's default list also takes SIGUSR2, which
  // Node's --heapsnapshot-signal and other diagnostic tools use: a heap snapshot must not stop
  // the server.
  app.enableShutdownHooks(GRACEFUL_SHUTDOWN_SIGNALS);

  return {
    app,
    async listen() {
      const scheme = tls ? 'https' : 'http';
      // The server comes from serverFactory, so Fastify cannot tell that it serves TLS: its own
      // "Server listening at" lines (one per interface) take the scheme from here.
      const listenTextResolver = (address: string) => `Server listening at ${address.replace(/^https?:/, `${scheme}:`)}`;
      await app.listen({ port: config.port, host: '0.0.0.0', listenTextResolver });
      const plain = plainServer;
      let httpPort: number | undefined;
      if (plain && config.httpPort !== undefined) {
        await new Promise<void>((resolve) => plain.listen(config.httpPort, '0.0.0.0', resolve));
        app.getHttpServer().on('close', () => plain.close());
        httpPort = boundPort(plain, config.httpPort);
      }
      const port = boundPort(app.getHttpServer(), config.port);
      const urls = [`${scheme}://0.0.0.0:${port}`, ...(httpPort === undefined ? [] : [`http://0.0.0.0:${httpPort}`])];
      logger.info({ port, https: Boolean(tls), httpPort, urls }, 'listening');
    },
  };
}
