import { createServer as createHttpServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Logger, type RingfenceConfig, newTraceId } from '@ringfence/platform';
import { NestPinoLogger } from '../logging/nest-pino-logger';
import { RequestLogController } from '../logging/request-log.controller';
import { httpRequestDuration } from '../metrics/metrics';
import { EnvelopeExceptionFilter } from './envelope-exception.filter';
import { RouteTable } from './route-table';
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

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * One way to build every app's HTTP side: Fastify with the body limit, JSON logging with a
 * traceId per request (also sent as `x-trace-id`), the error envelope, strict validation,
 * 405 detection and request metrics.
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
    serverFactory: (handler: Handler) => {
      if (tls && config.httpPort !== undefined) plainServer = createHttpServer(handler);
      return tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, handler) : createHttpServer(handler);
    },
  });
  const fastify = adapter.getInstance();
  const routes = new RouteTable();
  fastify.addHook('onRoute', (route) => routes.add(route.url, route.method));
  // JSON only: without the text/plain parser, any other Content-Type is a 415.
  fastify.removeContentTypeParser('text/plain');
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-trace-id', request.id);
  });
  fastify.addHook('onResponse', async (request, reply) => {
    httpRequestDuration
      .labels(request.method, request.routeOptions.url ?? 'unmatched', String(reply.statusCode))
      .observe(reply.elapsedTime / 1000);
  });

  const app = await NestFactory.create<NestFastifyApplication>(module as never, adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  app.useGlobalFilters(new EnvelopeExceptionFilter(logger, routes, config.bodyLimitBytes));
  app.useGlobalPipes(new StrictValidationPipe());
  app.enableShutdownHooks();

  return {
    app,
    async listen() {
      await app.listen(config.port, '0.0.0.0');
      const plain = plainServer;
      if (plain && config.httpPort !== undefined) {
        await new Promise<void>((resolve) => plain.listen(config.httpPort, '0.0.0.0', resolve));
        app.getHttpServer().on('close', () => plain.close());
      }
      const address = app.getHttpServer().address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      logger.info({ port, https: Boolean(tls), httpPort: config.httpPort }, 'listening');
    },
  };
}
