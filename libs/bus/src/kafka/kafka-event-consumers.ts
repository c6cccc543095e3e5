import type { MessageEnvelope } from '@ringfence/contracts';
import { type EachMessagePayload, KafkaJSError } from 'kafkajs';
import type { BusLogger } from '../bus-logger';
import { deliverUntilHandled, type HandlerRetryOptions } from '../handler-retry';
import type { SubscribeOptions } from '../message-bus';
import type { ConsumerSpec } from './kafka-consumer-runner';
import { isEnvelope, parsedValue } from './kafka-records';

type AnyEventHandler = (message: MessageEnvelope<unknown>) => Promise<void>;

export interface KafkaEventConsumersSettings {
  groupIdPrefix: string;
  /** Commit within a fetched batch once this long has passed since the last commit. */
  commitIntervalMs: number;
  handlerRetry: HandlerRetryOptions;
  logger: BusLogger;
  /** Called once an event's handler has returned, before its write-behind flush (read your writes). */
  onHandled: (group: string, topic: string, partition: number, offset: string) => void;
}

/**
 * The event subscriptions: one kafkajs consumer per group (`<prefix><group>`), reading every
 * topic the group subscribed to from the beginning for a new group. A throwing handler gets the
 * same event again after a backoff, so a key's order survives a failure.
 */
export class KafkaEventConsumers {
  private readonly groups = new Map<string, Map<string, AnyEventHandler>>();
  /** Per group and topic, what makes handled events durable before kafkajs commits them. */
  private readonly beforeCommits = new Map<string, () => Promise<void>>();

  constructor(private readonly settings: KafkaEventConsumersSettings) {}

  subscribe(topic: string, options: SubscribeOptions, handler: AnyEventHandler): void {
    const handlers = this.groups.get(options.group) ?? new Map<string, AnyEventHandler>();
    if (handlers.has(topic)) throw new Error(`group ${options.group} already consumes ${topic}`);
    handlers.set(topic, handler);
    this.groups.set(options.group, handlers);
    if (options.beforeCommit) this.beforeCommits.set(`${options.group}\u0000${topic}`, options.beforeCommit);
  }

  /** A consumer per group; `signal` aborts when the bus stops, which abandons a retry. */
  specs(signal: AbortSignal): ConsumerSpec[] {
    return [...this.groups].map(([group, handlers]) => ({
      groupId: `${this.settings.groupIdPrefix}${group}`,
      topics: [...handlers.keys()],
      fromBeginning: true,
      autoCommit: true,
      autoCommitIntervalMs: this.settings.commitIntervalMs,
      eachMessage: (payload) => this.consume(group, handlers, payload, signal),
    }));
  }

  private async consume(group: string, handlers: Map<string, AnyEventHandler>, payload: EachMessagePayload, signal: AbortSignal): Promise<void> {
    const { topic, partition, message } = payload;
    const handler = handlers.get(topic);
    if (handler === undefined) return;
    const envelope = parsedValue(message.value);
    const { logger } = this.settings;
    if (!isEnvelope(envelope)) {
      // Redelivering cannot repair a record that is not an envelope; it would block the partition for good.
      logger.error({ group, topic, partition, offset: message.offset }, 'skipped a record that is not a message envelope');
      return;
    }
    const beforeCommit = this.beforeCommits.get(`${group}\u0000${topic}`);
    const handled = await deliverUntilHandled({
      // kafkajs commits once eachMessage resolves, so a write-behind handler is made durable here, per event.
      handle: async () => {
        await handler(envelope);
        // This process's readers see the event now (as on the in-process bus, which counts an
        // event handled before its write-behind flush); other processes once it is committed.
        this.settings.onHandled(group, topic, partition, message.offset);
        await beforeCommit?.();
      },
      retry: this.settings.handlerRetry,
      signal,
      onFailure: (error, attempt, retryInMs) =>
        logger.warn(
          { group, topic, partition, offset: message.offset, eventId: envelope.eventId, traceId: envelope.traceId, attempt, retryInMs, err: error },
          'event handler failed; retrying the same event',
        ),
      // Keeps the session alive during long backoffs; throws when the group rebalances, which
      // hands the uncommitted event to the partition's next owner.
      beforeRetry: () => payload.heartbeat(),
    });
    if (!handled) {
      // Throwing keeps kafkajs from committing the event; a KafkaJSError is not logged as a crash.
      throw new KafkaJSError('the bus stopped before the event was handled', { retriable: true });
    }
  }
}
