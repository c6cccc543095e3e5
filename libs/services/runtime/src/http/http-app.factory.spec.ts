import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { type Logger, loadConfig } from '@ringfence/platform';
import pino from 'pino';
import { generate } from 'selfsigned';
import { createHttpApp } from './http-app.factory';
import type { TlsMaterial } from './tls-certificate';

@Module({})
class EmptyModule {}

interface LogLine {
  msg: string;
  port?: number;
  https?: boolean;
  httpPort?: number;
  urls?: string[];
}

function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink) as unknown as Logger, lines };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function selfSigned(): Promise<TlsMaterial> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048, algorithm: 'sha256' });
  return { cert: pems.cert, key: pems.private };
}

describe('the start-up log', () => {
  let app: INestApplication | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function start(env: Record<string, string>, tls?: TlsMaterial): Promise<LogLine[]> {
    const { logger, lines } = capturingLogger();
    const config = loadConfig({ PORT: '0', LOG_LEVEL: 'info', ...env }, { port: 8443 });
    const http = await createHttpApp(EmptyModule, { config, logger, tls });
    app = http.app;
    await http.listen();
    return lines;
  }

  it('names https:// for the TLS port and http:// for HTTP_PORT, in its own line and in Fastify\'s', async () => {
    const httpPort = await freePort();
    const lines = await start({ HTTP_PORT: String(httpPort) }, await selfSigned());

    const listening = lines.find((line) => line.msg === 'listening');
    const port = (app!.getHttpServer().address() as { port: number }).port;
    expect(listening).toMatchObject({ port, https: true, httpPort, urls: [`https://0.0.0.0:${port}`, `http://0.0.0.0:${httpPort}`] });
    const fastifyLines = lines.filter((line) => line.msg.startsWith('Server listening at '));
    expect(fastifyLines.length).toBeGreaterThan(0);
    for (const line of fastifyLines) expect(line.msg).toMatch(new RegExp(`^Server listening at https://[^ ]+:${port}$`));
  }, 30_000);

  it('binds the address HOST gives, and names it', async () => {
    const lines = await start({ HOST: '127.0.0.1' });

    const address = app!.getHttpServer().address() as { address: string; port: number };
    expect(address.address).toBe('127.0.0.1');
    expect(lines.find((line) => line.msg === 'listening')).toMatchObject({ host: '127.0.0.1', urls: [`http://127.0.0.1:${address.port}`] });
  });

  it('names http:// when it serves plain HTTP, and no HTTP_PORT it does not serve', async () => {
    const lines = await start({ HTTP_PORT: String(await freePort()) });

    const listening = lines.find((line) => line.msg === 'listening');
    const port = (app!.getHttpServer().address() as { port: number }).port;
    expect(listening).toEqual(expect.objectContaining({ port, https: false, urls: [`http://0.0.0.0:${port}`] }));
    expect(listening).not.toHaveProperty('httpPort');
    for (const line of lines.filter((candidate) => candidate.msg.startsWith('Server listening at '))) {
      expect(line.msg).toMatch(/^Server listening at http:\/\//);
    }
  });
});

describe('shutdown signals', () => {
  it('leaves every signal to the app\'s main (stopOnSignals): the factory listens to none', async () => {
    const signals = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGUSR2'] as const;
    const listeners = () => signals.map((signal) => process.listenerCount(signal));
    const before = listeners();
    const { logger } = capturingLogger();
    const http = await createHttpApp(EmptyModule, { config: loadConfig({ PORT: '0', LOG_LEVEL: 'info' }, { port: 8443 }), logger });
    try {
      expect(listeners()).toEqual(before);
    } finally {
      await http.app.close();
    }
  });
});
