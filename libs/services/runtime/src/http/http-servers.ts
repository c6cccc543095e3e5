import { createServer as createHttpServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger, RingfenceConfig } from '@ringfence/platform';
import { clientDeadlineOptions } from './client-deadlines';
import type { TlsMaterial } from './tls-certificate';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The app's servers: HTTPS with `tls` on PORT (plain HTTP without it), and with TLS a plain HTTP
 * server on HTTP_PORT too when it is set; each on the address HOST gives, with the deadlines for
 * slow clients.
 */
export class HttpServers {
  private plain: HttpServer | undefined;

  constructor(
    private readonly config: RingfenceConfig,
    private readonly tls: TlsMaterial | undefined,
  ) {}

  /** Fastify's `serverFactory`: the main server, every request handled by `handler`. */
  readonly serverFactory = (handler: Handler): HttpServer => {
    const { config, tls } = this;
    const deadlines = clientDeadlineOptions({ headersTimeoutMs: config.headersTimeoutMs, bodyTimeoutMs: config.bodyTimeoutMs });
    if (tls && config.httpPort !== undefined) this.plain = createHttpServer(deadlines, handler);
    return tls ? createHttpsServer({ ...deadlines, cert: tls.cert, key: tls.key }, handler) : createHttpServer(deadlines, handler);
  };

  /** Starts listening (HTTPS or HTTP on PORT, plus plain HTTP on HTTP_PORT when set) and logs where. */
  async listen(app: NestFastifyApplication, logger: Logger): Promise<void> {
    const { config, tls } = this;
    const scheme = tls ? 'https' : 'http';
    // The server comes from serverFactory, so Fastify cannot tell that it serves TLS: its own
    // "Server listening at" lines (one per interface) take the scheme from here.
    const listenTextResolver = (address: string) => `Server listening at ${address.replace(/^https?:/, `${scheme}:`)}`;
    await app.listen({ port: config.port, host: config.host, listenTextResolver });
    const plain = this.plain;
    let httpPort: number | undefined;
    if (plain && config.httpPort !== undefined) {
      await new Promise<void>((resolve) => plain.listen(config.httpPort, config.host, resolve));
      app.getHttpServer().on('close', () => plain.close());
      httpPort = boundPort(plain, config.httpPort);
    }
    const port = boundPort(app.getHttpServer(), config.port);
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const urls = [`${scheme}://${host}:${port}`, ...(httpPort === undefined ? [] : [`http://${host}:${httpPort}`])];
    logger.info({ host: config.host, port, https: Boolean(tls), httpPort, urls }, 'listening');
  }
}

function boundPort(server: { address(): unknown }, configured: number): number {
  const address = server.address();
  return typeof address === 'object' && address !== null && 'port' in address ? Number(address.port) : configured;
}
