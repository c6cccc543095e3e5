import type { INestApplication } from '@nestjs/common';
import { InProcessMessageBus, type MessageBus, connectMessageBus } from '@ringfence/bus';
import { MESSAGE_BUS } from '../tokens';

/**
 * Connects the app's bus as a NestJS transporter (a hybrid app): the service modules'
 * `@MessagePattern` and `@EventPattern` controllers become the bus's responders and consumers.
 * `app.startAllMicroservices()` registers them and starts the bus, `app.close()` stops it.
 *
 * In the embedded mode each message is a direct call of the controller's method; with Kafka it
 * goes through Nest's RPC pipeline, as it always has. The direct call keeps the handlers'
 * behaviour (`@ringfence/bus`'s README, "Direct dispatch") and saves that pipeline's time and
 * allocations on every hop of a checkpoint inside the one process.
 */
export function connectBusTransport(app: INestApplication): void {
  const bus = app.get<MessageBus>(MESSAGE_BUS);
  connectMessageBus(app, bus, { dispatch: bus instanceof InProcessMessageBus ? 'direct' : 'nest' });
}
