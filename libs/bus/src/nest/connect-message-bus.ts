import type { INestApplication, INestMicroservice } from '@nestjs/common';
import type { CustomStrategy } from '@nestjs/microservices';
import type { MessageBus } from '../message-bus';
import { MessageBusServer } from './message-bus.server';

/**
 * Connects the bus transporter to an HTTP app (a hybrid app). Nest registers the controllers'
 * patterns with the server at once; `app.startAllMicroservices()` then subscribes them on the
 * bus and starts it, and `app.close()` stops it. Call it after the app is created (the
 * controllers exist) and start the microservices after `app.init()`, so every module's
 * `onModuleInit` and `onApplicationBootstrap` have run before the first delivery, and before
 * the HTTP server listens, so requests meet a started bus.
 */
export function connectMessageBus(app: INestApplication, bus: MessageBus): INestMicroservice {
  const strategy = new MessageBusServer(bus, { resolve: (token) => app.get(token, { strict: false }) });
  return app.connectMicroservice<CustomStrategy>({ strategy });
}
