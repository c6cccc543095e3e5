import { Controller, UseFilters, applyDecorators } from '@nestjs/common';
import { MessageBusExceptionFilter } from './message-bus.exception-filter';

/**
 * `@Controller()` for the bus transporter's handlers: the class holds `@MessagePattern` and
 * `@EventPattern` methods, and `MessageBusExceptionFilter` hands their errors to the bus as they
 * were thrown. Without the filter, Nest's default RPC filter would answer every error that is
 * not an `RpcException` as a generic 500, so a validation failure would no longer be a 400.
 */
export function MessageBusController(): ClassDecorator {
  return applyDecorators(Controller(), UseFilters(new MessageBusExceptionFilter()));
}
