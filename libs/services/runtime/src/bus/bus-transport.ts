import type { INestApplication } from '@nestjs/common';
import { type MessageBus, connectMessageBus } from '@ringfence/bus';
import { MESSAGE_BUS } from '../tokens';

/**
 * Connects the app's bus as a NestJS transporter (a hybrid app): the service modules'
 * `@MessagePattern` and `@EventPattern` controllers become the bus's responders and consumers.
 * `app.startAllMicroservices()` registers them and starts the bus, `app.close()` stops it.
 */
export function connectBusTransport(app: INestApplication): void {
  connectMessageBus(app, app.get<MessageBus>(MESSAGE_BUS));
}
