import { type INestMicroservice, Module, type ModuleMetadata, type Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, NestFactory } from '@nestjs/core';
import type { CustomStrategy } from '@nestjs/microservices';
import type { MessageBus } from '../message-bus';
import { type ConnectMessageBusOptions, createMessageBusServer } from './connect-message-bus';

const GLOBAL_ENHANCERS: readonly string[] = [APP_GUARD, APP_PIPE, APP_INTERCEPTOR, APP_FILTER];

/** A global enhancer would run in Nest's pipeline and be invisible to the direct dispatch. */
function refuseGlobalEnhancers(providers: readonly Provider[]): void {
  const global = providers.find((provider) => typeof provider === 'object' && GLOBAL_ENHANCERS.includes(String(provider.provide)));
  if (global !== undefined) throw new Error(`${String((global as { provide: unknown }).provide)} would not run on the direct dispatch; start the controllers with { dispatch: 'nest' }`);
}

/**
 * For services' tests: the given controllers and providers as a Nest microservice on `bus`,
 * listening (every `@MessagePattern`/`@EventPattern` registered, the bus started), so a test
 * goes through the same declarations, dispatch and error handling as the app: like
 * `connectMessageBus`, the direct call on an in-process bus, Nest's pipeline on any other (a
 * recording double), unless `options.dispatch` says. Close it after.
 */
export async function startBusControllers(
  bus: MessageBus,
  metadata: Pick<ModuleMetadata, 'controllers' | 'providers'>,
  options: ConnectMessageBusOptions = {},
): Promise<INestMicroservice> {
  @Module(metadata)
  class BusControllersModule {}
  const strategy = createMessageBusServer(bus, () => microservice, options);
  if (strategy.dispatchesDirectly) refuseGlobalEnhancers(metadata.providers ?? []);
  const microservice: INestMicroservice = await NestFactory.createMicroservice<CustomStrategy>(BusControllersModule, { strategy, logger: false });
  await microservice.listen();
  return microservice;
}
