import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { ROOT_LOGGER } from '@ringfence/service-runtime';
import type { EmbeddedService } from './embedded-service';

/** Every line an embedded service logs from now on, at trace level, as one growing text. */
export interface CapturedLogs {
  readonly text: string;
}

/**
 * Captures what `service` logs from here on. It starts silent (no start-up noise in the test
 * output); the root logger is then set to trace and given a stream of its own, which the child
 * loggers (Fastify's per request, the bus's) share through their prototype.
 */
export function captureLogs(service: EmbeddedService): CapturedLogs {
  const captured = { text: '' };
  const logger = service.app.get<Logger>(ROOT_LOGGER);
  logger.level = 'trace';
  (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] = new Writable({
    write(chunk: Buffer, _encoding, done) {
      captured.text += chunk.toString();
      done();
    },
  });
  return captured;
}
