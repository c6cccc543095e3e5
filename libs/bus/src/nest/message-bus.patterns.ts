import type { InjectionToken } from '@nestjs/common';
import type { ReadDependency } from '../message-bus';

/** Identifies the bus transporter, for a pattern meant for it alone (`@EventPattern(topic, MESSAGE_BUS_TRANSPORT, extras)`). */
export const MESSAGE_BUS_TRANSPORT = Symbol('MessageBusTransport');

/**
 * A provider that writes behind: it applies events to memory and keeps their durable writes
 * until `flush`. A provider without `flush` (a repository that writes through) needs no hook.
 */
export interface WriteBehind {
  flush?(): Promise<void>;
}

/** The extras of `@EventPattern(topic, extras)`: how the bus subscribes the handler. */
export interface EventPatternExtras {
  /** The consumer group (`SubscribeOptions.group`). */
  group: string;
  /**
   * The provider (its injection token) whose `flush()` the bus awaits before it commits the
   * handled offsets (`SubscribeOptions.beforeCommit`). A token rather than a function, because
   * decorator arguments are evaluated with the class, before any instance exists.
   */
  beforeCommit?: InjectionToken;
}

/** The extras of `@MessagePattern(topic, extras)`: how the bus registers the responder. */
export interface MessagePatternExtras {
  /** The responder group (`RespondOptions.group`). */
  group: string;
  /** Read your writes: the consumer groups whose state the handler reads (`RespondOptions.consistentWith`). */
  consistentWith?: readonly ReadDependency[];
  /** The state the handler's own requests read (`RespondOptions.readsThrough`). */
  readsThrough?: readonly ReadDependency[];
}
