import { BaseRpcContext } from '@nestjs/microservices';
import type { RpcContext } from '../message-bus';

/** An event has no requester to wait for it: its signal never aborts. */
const NEVER_ABORTED = new AbortController().signal;

/**
 * What a `@MessagePattern`/`@EventPattern` handler of the bus transporter gets with `@Ctx()`:
 * the topic the message came on (one handler may be declared for several topics, a route table
 * of ingest topics), and for a request the signal that aborts once nobody waits for the answer
 * (`RpcContext.signal`).
 */
export class MessageBusContext extends BaseRpcContext<[topic: string, request?: RpcContext]> {
  getTopic(): string {
    return this.args[0];
  }

  /** Aborted once nobody waits for the request's answer; a handler doing long work stops on it. */
  getSignal(): AbortSignal {
    return this.args[1]?.signal ?? NEVER_ABORTED;
  }
}
