import type { EventTopic, EventTopicMap, MessageEnvelope, RpcTopic, RpcTopicMap } from '@ringfence/contracts';
import { messageKey, withoutAccountFacts } from '@ringfence/contracts';
import { BusUnavailableError } from '../bus-errors';
import { BusLifecycle } from '../bus-lifecycle';
import { type BusLogger, SILENT_BUS_LOGGER } from '../bus-logger';
import type { EventLogStore, LoggedEvent } from '../event-log';
import { DEFAULT_HANDLER_RETRY, type HandlerRetryOptions } from '../handler-retry';
import type { EventHandler, MessageBus, RequestOptions, RespondOptions, RpcContext, RpcHandler, SubscribeOptions } from '../message-bus';
import { ConsumerLane, type LaneSettings } from './consumer-lane';
import { EventLogAppender } from './event-log-appender';
import { InProcessResponders } from './in-process-responders';
import { OffsetCommitter } from './offset-committer';
import { TenantReadBarrier } from './tenant-read-barrier';

export interface InProcessMessageBusOptions {
  /** The durable log every publish is appended to before it resolves. */
  eventLog: EventLogStore;
  logger?: BusLogger;
  /** Backoff of a throwing event handler; defaults to `DEFAULT_HANDLER_RETRY`. */
  handlerRetry?: Partial<HandlerRetryOptions>;
  /** Events read per query while a group catches up from the log. */
  replayPageSize?: number;
  /**
   * Live events a group may hold in memory while it is busy. Beyond that it drops them and
   * reads from the log instead, so a stuck handler cannot exhaust memory.
   */
  maxBufferedEvents?: number;
  /**
   * Least time between two offset commits (each commits every group and topic in one statement,
   * after each write-behind flush). Longer batches more per statement; a crash redelivers at
   * most this much to idempotent handlers. Default 200 ms.
   */
  commitIntervalMs?: number;
  /**
   * Events of different keys a group handles at once on one topic, like a Kafka consumer's
   * partitions: events of one key always go to the same one, in order. Default 8.
   */
  partitionsPerLane?: number;
}

/**
 * The bus of the embedded mode: one process, no broker, the same semantics as the Kafka bus; a
 * facade over its parts. A publish is durable once `EventLogAppender` has it in the
 * `EventLogStore`; delivery to each group is asynchronous through its `ConsumerLane` per topic,
 * in order per key, at least once, and survives a restart because each lane resumes after the
 * offset `OffsetCommitter` committed. `InProcessResponders` calls a request's handler directly
 * (no serialisation, only a timer for the timeout, so a caller must not mutate a message it sent
 * nor a handler the message it got), after `TenantReadBarrier` for a consistent responder.
 */
export class InProcessMessageBus implements MessageBus {
  private readonly laneSettings: LaneSettings;
  private readonly committer: OffsetCommitter;
  private readonly appender: EventLogAppender;
  private readonly readBarrier: TenantReadBarrier;
  private readonly responders: InProcessResponders;
  private readonly lanes: ConsumerLane[] = [];
  private readonly lanesByTopic = new Map<string, ConsumerLane[]>();
  private readonly lifecycle = new BusLifecycle();
  private abort = new AbortController();

  constructor(options: InProcessMessageBusOptions) {
    const logger: BusLogger = options.logger ?? SILENT_BUS_LOGGER;
    this.committer = new OffsetCommitter(options.eventLog, options.commitIntervalMs ?? 200, logger);
    this.laneSettings = {
      eventLog: options.eventLog,
      logger,
      retry: { ...DEFAULT_HANDLER_RETRY, ...options.handlerRetry },
      replayPageSize: options.replayPageSize ?? 500,
      maxBufferedEvents: options.maxBufferedEvents ?? 10_000,
      partitionsPerLane: options.partitionsPerLane ?? 8,
      committer: this.committer,
    };
    this.appender = new EventLogAppender(options.eventLog);
    this.readBarrier = new TenantReadBarrier((group, topic) => this.lanesByTopic.get(topic)?.find((lane) => lane.group === group));
    this.responders = new InProcessResponders(this.readBarrier, logger);
  }

  /** Requests waiting for their handler, for metrics and for tests that check the cleanup. */
  get inFlightRequests(): number {
    return this.responders.inFlight;
  }

  subscribe<T extends EventTopic>(topic: T, options: SubscribeOptions, handler: EventHandler<T>): void {
    this.lifecycle.assertRegistering();
    const lanes = this.lanesByTopic.get(topic) ?? [];
    if (lanes.some((lane) => lane.group === options.group)) {
      throw new Error(`group ${options.group} already consumes ${topic}`);
    }
    const lane = new ConsumerLane(options.group, topic, handler as (message: MessageEnvelope<unknown>) => Promise<void>, this.laneSettings, options.beforeCommit);
    lanes.push(lane);
    this.lanesByTopic.set(topic, lanes);
    this.lanes.push(lane);
    this.committer.register(lane);
  }

  handle<T extends RpcTopic>(topic: T, options: RespondOptions, handler: RpcHandler<T>): void {
    this.lifecycle.assertRegistering();
    this.responders.handle(topic, options, handler as (message: MessageEnvelope<unknown>, context: RpcContext) => Promise<unknown>);
  }

  async publish<T extends EventTopic>(topic: T, published: MessageEnvelope<EventTopicMap[T]>): Promise<void> {
    this.lifecycle.assertCanPublish();
    const message = withoutAccountFacts(published);
    const key = messageKey(message);
    let sequence: number;
    try {
      sequence = await this.appender.append(topic, key, message);
    } catch (error) {
      throw new BusUnavailableError(`the event log did not take the event on ${topic}`, error);
    }
    this.readBarrier.recordWrite(message, topic, sequence);
    const event: LoggedEvent = { sequence, topic, key, envelope: message };
    for (const lane of this.lanesByTopic.get(topic) ?? []) lane.push(event);
  }

  request<T extends RpcTopic>(
    topic: T,
    message: MessageEnvelope<RpcTopicMap[T]['request']>,
    options: RequestOptions,
  ): Promise<RpcTopicMap[T]['reply']> {
    const refusal = this.lifecycle.requestRefusal();
    if (refusal) return Promise.reject(refusal);
    return this.responders.request(topic, message, options) as Promise<RpcTopicMap[T]['reply']>;
  }

  start(): Promise<void> {
    return this.lifecycle.start(() => this.startLanes());
  }

  whenStarted(): Promise<boolean> {
    return this.lifecycle.whenStarted();
  }

  stop(): Promise<void> {
    return this.lifecycle.stop((wasRunning) => this.stopLanes(wasRunning));
  }

  async isReady(): Promise<boolean> {
    return this.lifecycle.state === 'started';
  }

  private async startLanes(): Promise<void> {
    try {
      await Promise.all(this.lanes.map((lane) => lane.loadOffset()));
    } catch (error) {
      throw new BusUnavailableError('could not read the consumer offsets from the event log', error);
    }
    this.abort = new AbortController();
    for (const lane of this.lanes) lane.start(this.abort.signal);
  }

  private async stopLanes(wasRunning: boolean): Promise<void> {
    this.responders.rejectPending();
    this.abort.abort();
    for (const lane of this.lanes) lane.releaseWaiters();
    if (wasRunning) {
      for (const lane of this.lanes) lane.wakeUp();
      await Promise.all([...this.lanes.map((lane) => lane.stopped()), ...this.responders.runningHandlers()]);
      await this.committer.stop();
    }
    await this.appender.drained();
  }
}
