import type {
  EventTopic,
  EventTopicMap,
  MessageEnvelope,
  RpcReply,
  RpcTopic,
  RpcTopicMap,
} from '@ringfence/contracts';

/** Handles one delivered event. Throwing makes the bus deliver it again (at-least-once). */
export type EventHandler<T extends EventTopic> = (
  message: MessageEnvelope<EventTopicMap[T]>,
) => Promise<void>;

/** Answers one request. A thrown error goes back to the requester as a failed reply. */
export type RpcHandler<T extends RpcTopic> = (
  message: MessageEnvelope<RpcTopicMap[T]['request']>,
  context: RpcContext,
) => Promise<RpcTopicMap[T]['reply']>;

/** What a responder knows of its request besides the message. */
export interface RpcContext {
  /**
   * Aborted once nobody waits for the answer: the requester's deadline passed (both adapters),
   * or the requester aborted its `RequestOptions.signal` (in-process only: a Kafka request
   * carries its deadline, not a cancellation). A handler doing long work watches it to stop
   * early; throwing `signal.reason` (`signal.throwIfAborted()`) answers the request as
   * abandoned, which nobody logs as a failure.
   */
  signal: AbortSignal;
}

export interface SubscribeOptions {
  /**
   * The consumer group: every group receives every event once; instances of one group share
   * the work (Kafka consumer-group semantics, reproduced by the in-process bus).
   */
  group: string;
  /**
   * For handlers that apply an event to memory and leave its durable write for later (write
   * behind): the bus awaits this before it commits the offsets of handled events, so an
   * offset is never committed for an event whose effects are not yet durable. A throw leaves
   * the offsets uncommitted (tried again later; a crash redelivers).
   */
  beforeCommit?: () => Promise<void>;
}

/** A consumer group whose state a responder reads, and the topics that feed that state. */
export interface ReadDependency {
  group: string;
  topics: readonly string[];
}

export interface RespondOptions extends SubscribeOptions {
  /**
   * Read your writes: the consumer groups whose state the responder reads. Before the handler
   * runs, the bus waits until each of them has handled every event on its topics that was
   * published before the request was sent (once a write is answered, every later request sees
   * it). The wait counts against the request's timeout; a group that cannot catch up in time
   * makes the request time out rather than answer from stale state.
   */
  consistentWith?: readonly ReadDependency[];
  /**
   * The state of other services that the handler asks about on the request's behalf (the
   * `consistentWith` of the responders it calls). A bus that has to read where each topic ends
   * (Kafka) reads these topics with its own dependencies' and passes the positions on with the
   * handler's requests, so those responders wait for the same positions without asking the
   * broker again. Nothing waits for these groups here.
   */
  readsThrough?: readonly ReadDependency[];
}

export interface RequestOptions {
  /** The request fails with a `BusTimeoutError` after this many milliseconds. */
  timeoutMs: number;
  /**
   * Aborted when the requester no longer needs the answer (its client went away). The
   * in-process bus aborts the responder's `RpcContext.signal` with it; the request itself still
   * settles as usual, with the responder's answer or at its timeout. Kafka does not carry it.
   */
  signal?: AbortSignal;
}

/**
 * The message bus every service talks through. Two adapters implement it with the same
 * semantics: the in-process bus of the embedded mode and the Kafka bus of the distributed mode.
 *
 * - `publish` resolves only once the event is durable (broker acknowledged, or written to the
 *   embedded event log), so a caller may answer 200 after it.
 * - Events with the same `key` are delivered to a group in publication order.
 * - `request` never hangs: it resolves with the reply, or rejects with `BusTimeoutError`,
 *   `BusRemoteError` (the handler failed) or `BusUnavailableError`.
 * - A responder registered with `consistentWith` answers only once those consumer groups have
 *   handled what the account published before the request (read your writes).
 */
export interface MessageBus {
  publish<T extends EventTopic>(topic: T, message: MessageEnvelope<EventTopicMap[T]>): Promise<void>;
  request<T extends RpcTopic>(
    topic: T,
    message: MessageEnvelope<RpcTopicMap[T]['request']>,
    options: RequestOptions,
  ): Promise<RpcTopicMap[T]['reply']>;
  /** Registers a consumer; call before `start`. */
  subscribe<T extends EventTopic>(topic: T, options: SubscribeOptions, handler: EventHandler<T>): void;
  /** Registers the responder of a request topic; call before `start`. */
  handle<T extends RpcTopic>(topic: T, options: RespondOptions, handler: RpcHandler<T>): void;
  /** Connects and starts delivering to the registered consumers and responders. */
  start(): Promise<void>;
  /** Stops delivering, lets in-flight handlers finish, and disconnects. */
  stop(): Promise<void>;
  /** True when the bus can accept a publish right now (used by /health/ready). */
  isReady(): Promise<boolean>;
  /**
   * Resolves true once the bus has started (at once if it has), or false if it stops without
   * having started: for work begun at application bootstrap that sends through the bus, since
   * Nest starts the bus (the microservice) only after the bootstrap hooks.
   */
  whenStarted(): Promise<boolean>;
}

export type { RpcReply };
