import type { INestApplication, INestApplicationContext, InjectionToken } from '@nestjs/common';
import { DiscoveryService, ModulesContainer } from '@nestjs/core';
import type { CustomStrategy } from '@nestjs/microservices';
import { InProcessMessageBus } from '../in-process/in-process-message-bus';
import type { MessageBus } from '../message-bus';
import { MessageBusServer } from './message-bus.server';

export interface ConnectMessageBusOptions {
  /**
   * How a message reaches its handler. `direct`: a call of the controller's method, with no Nest
   * pipeline per message (`MessageBusServer`'s `directDispatch`). `nest`: through Nest's RPC
   * pipeline. Default: `direct` on the in-process bus (the embedded mode, where that pipeline
   * was a measured part of every checkpoint's main-thread time), `nest` on any other bus, so
   * the Kafka path stays as it was.
   */
  dispatch?: 'direct' | 'nest';
}

/**
 * Connects the bus transporter to an HTTP app (a hybrid app). Nest registers the controllers'
 * patterns with the server at once; `app.startAllMicroservices()` then subscribes them on the
 * bus and starts it, and `app.close()` stops it. Call it after the app is created (the
 * controllers exist) and start the microservices after `app.init()`, so every module's
 * `onModuleInit` and `onApplicationBootstrap` have run before the first delivery, and before
 * the HTTP server listens, so requests meet a started bus.
 *
 * It returns nothing: an enhancer registered on the microservice (`useGlobalGuards` and the
 * like) would be one the direct dispatch cannot see, so none can be. The app's own global
 * pipes, filters and guards never applied to the bus handlers (a hybrid app's microservice has
 * its own configuration).
 */
export function connectMessageBus(app: INestApplication, bus: MessageBus, options: ConnectMessageBusOptions = {}): void {
  app.connectMicroservice<CustomStrategy>({ strategy: createMessageBusServer(bus, () => app, options) });
}

/**
 * The transporter's server for the app (or microservice) that `context` gives once it exists:
 * `beforeCommit` providers are resolved from it, and with the direct dispatch its controllers
 * are listed when the transporter starts (every module is loaded by then).
 */
export function createMessageBusServer(bus: MessageBus, context: () => INestApplicationContext, options: ConnectMessageBusOptions = {}): MessageBusServer {
  const dispatch = options.dispatch ?? (bus instanceof InProcessMessageBus ? 'direct' : 'nest');
  const resolve = (token: InjectionToken) => context().get(token, { strict: false });
  if (dispatch === 'nest') return new MessageBusServer(bus, { resolve });
  const controllers = () => new DiscoveryService(context().get(ModulesContainer)).getControllers();
  return new MessageBusServer(bus, { resolve, directDispatch: { controllers } });
}
