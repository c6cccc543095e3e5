import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyBaseLogger } from 'fastify';
import { type Logger, type RingfenceConfig, newTraceId } from '@ringfence/platform';
import { NestPinoLogger } from '../logging/nest-pino-logger';
import { RequestLogController } from '../logging/request-log.controller';
import { registerBodyDeadline } from './client-deadlines';
import { EnvelopeExceptionFilter } from './envelope-exception.filter';
import { registerBodyGuards } from './hooks/body-guards.hook';
import { registerInFlightBudgets } from './hooks/in-flight-budgets.hook';
import { registerJsonOnly } from './hooks/json-only.hook';
import { registerClientRoutes } from './hooks/client-routes.hook';
import { registerRequestMetrics } from './hooks/request-metrics.hook';
import { MAX_PATH_PARAMETER_LENGTH, answerRouterRefusal } from './hooks/router-refusals.hook';
import { registerRouteTable } from './hooks/route-table.hook';
import { registerTraceIdHeader } from './hooks/trace-id.hook';
import { HttpServers } from './http-servers';
import { StrictValidationPipe } from './strict-validation.pipe';
import type { TlsMaterial } from './tls-certificate';

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

/**
 * One way to build every app's HTTP side: Fastify with the body limit, JSON logging with a
 * traceId per request (also sent as `x-trace-id`), the error envelope, strict validation,
 * 405 detection and request metrics; deadlines for slow clients and the in-flight budgets of
 * authenticated and unauthenticated requests (ADR-0016). Each hook is its own module
 * (`hooks/`), registered here in the order requests meet them.
 */
export async function createHttpApp(module: unknown, options: HttpAppOptions): Promise<HttpApp> {
  const { config, logger, tls } = options;
  const servers = new HttpServers(config, tls);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => newTraceId(),
    // request.ip: the connection's address, or, from a proxy of TRUSTED_PROXIES, the client
    // address its X-Forwarded-For gives (never the header of anyone else).
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    requestIdHeader: false,
    // A request's lines name its trace id as a field (RequestLogController), so it gets the root
    // logger rather than a pino child per request: a child re-applies the logger's redaction,
    // about 15 KB allocated on every request (issue 35's allocation profile).
    childLoggerFactory: (root: FastifyBaseLogger) => root,
    logController: new RequestLogController(),
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    frameworkErrors: answerRouterRefusal,
    serverFactory: servers.serverFactory,
  });
  const fastify = adapter.getInstance();
  const routes = registerRouteTable(fastify);
  registerJsonOnly(fastify);
  registerClientRoutes(fastify);
  registerTraceIdHeader(fastify);
  registerBodyDeadline(fastify, config.bodyTimeoutMs);
  const authenticateWith = registerInFlightBudgets(fastify, config);
  registerBodyGuards(fastify);
  registerRequestMetrics(fastify);

  const app = await NestFactory.create<NestFastifyApplication>(module as never, adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
    // Nest's parsers would add application/x-www-form-urlencoded; Fastify's JSON parser is the only one.
    bodyParser: false,
  });
  authenticateWith(app);
  app.useGlobalFilters(new EnvelopeExceptionFilter(logger, routes, config.bodyLimitBytes));
  app.useGlobalPipes(new StrictValidationPipe());
  // Stop signals are the app's main's (`stopOnSignals` in graceful-stop.ts): it logs the stop and
  // exits 0, where Nest's shutdown hooks end the process by the signal again (status 143).
  return { app, listen: () => servers.listen(app, logger) };
}
