import { BaseRpcContext } from '@nestjs/microservices';

/**
 * What a `@MessagePattern`/`@EventPattern` handler of the bus transporter gets with `@Ctx()`:
 * the topic the message came on. One handler may be declared for several topics (a route table
 * of ingest topics), and this tells it which one it is handling.
 */
export class MessageBusContext extends BaseRpcContext<[topic: string]> {
  getTopic(): string {
    return this.args[0];
  }
}
