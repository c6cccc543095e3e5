import { ClientProxy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import type { EventTopic, MessageEnvelope, RpcTopic } from '@ringfence/contracts';
import { newEventId } from '@ringfence/platform';
import type { MessageBus } from '../message-bus';

export interface MessageBusClientOptions {
  /** How long `send` waits for the reply before it fails with `BusTimeoutError` (request-reply never hangs). */
  timeoutMs: number;
}

/** An envelope as a caller builds it: the client gives it a new `eventId` when it has none. */
export type OutgoingEnvelope<T> = Omit<MessageEnvelope<T>, 'eventId'> & { eventId?: string };

function topicOf(pattern: unknown): string {
  if (typeof pattern !== 'string') throw new Error(`a bus pattern is a topic name, not ${JSON.stringify(pattern)}`);
  return pattern;
}

function withEventId<T>(data: OutgoingEnvelope<T>): MessageEnvelope<T> {
  return data.eventId === undefined ? { ...data, eventId: newEventId() } : (data as MessageEnvelope<T>);
}

/**
 * The `MessageBus` as a NestJS `ClientProxy`: `send(topic, envelope)` is `bus.request` with this
 * client's timeout, and `emit(topic, envelope)` is `bus.publish` (the Observable completes once
 * the event is durable). Both take the message envelope and give it a fresh `eventId` when it
 * has none, as the gateway does for every message it sends. Errors are the bus's
 * (`BusTimeoutError`, `BusRemoteError`, `BusUnavailableError`), unchanged.
 *
 * The bus is started and stopped by the transporter's server (`MessageBusServer`), not by this
 * client: `connect` and `close` do nothing, so a client can be created at any time and shared.
 */
export class MessageBusClient extends ClientProxy {
  constructor(
    private readonly bus: MessageBus,
    private readonly options: MessageBusClientOptions,
  ) {
    super();
  }

  /** The same client with another request timeout (checkpoints wait less than labels). */
  withTimeout(timeoutMs: number): MessageBusClient {
    return new MessageBusClient(this.bus, { ...this.options, timeoutMs });
  }

  async connect(): Promise<void> {
    // The bus's lifecycle belongs to the transporter's server.
  }

  close(): void {
    // Nothing of its own to release: the bus is shared.
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  protected publish(packet: ReadPacket<OutgoingEnvelope<unknown>>, callback: (packet: WritePacket) => void): () => void {
    let subscribed = true;
    let request: Promise<unknown>;
    try {
      request = this.bus.request(topicOf(packet.pattern) as RpcTopic, withEventId(packet.data) as never, { timeoutMs: this.options.timeoutMs });
    } catch (error) {
      request = Promise.reject(error);
    }
    request.then(
      (response) => subscribed && callback({ response, isDisposed: true }),
      (err: unknown) => subscribed && callback({ err }),
    );
    // An unsubscribed caller no longer hears the reply; the bus still times the request out.
    return () => {
      subscribed = false;
    };
  }

  protected dispatchEvent<T = void>(packet: ReadPacket<OutgoingEnvelope<unknown>>): Promise<T> {
    return this.bus.publish(topicOf(packet.pattern) as EventTopic, withEventId(packet.data) as never) as Promise<T>;
  }
}
