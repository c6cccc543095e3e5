import { type INestMicroservice, Module, type ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { CustomStrategy } from '@nestjs/microservices';
import type { MessageBus } from '../message-bus';
import { MessageBusServer } from './message-bus.server';

/**
 * For services' tests: the given controllers and providers as a Nest microservice on `bus`,
 * listening (every `@MessagePattern`/`@EventPattern` registered, the bus started), so a test
 * goes through the same declarations, pipeline and error filter as the app. Close it after.
 */
export async function startBusControllers(bus: MessageBus, metadata: Pick<ModuleMetadata, 'controllers' | 'providers'>): Promise<INestMicroservice> {
  @Module(metadata)
  class BusControllersModule {}
  const resolve = (token: Parameters<INestMicroservice['get']>[0]) => microservice.get(token, { strict: false });
  const microservice: INestMicroservice = await NestFactory.createMicroservice<CustomStrategy>(BusControllersModule, {
    strategy: new MessageBusServer(bus, { resolve }),
    logger: false,
  });
  await microservice.listen();
  return microservice;
}
