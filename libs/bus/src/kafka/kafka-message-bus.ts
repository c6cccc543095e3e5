import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { EventTopic, EventTopicMap, MessageEnvelope, RpcTopic, RpcTopicMap } from '@ringfence/contracts';
import { type Admin, Kafka, logLevel } from 'kafkajs';
import { BusUnavailableError } from '../bus-errors';
import { BusLifecycle } from '../bus-lifecycle';
import { type BusLogger, SILENT_BUS_LOGGER } from '../bus-logger';
import { DEFAULT_HANDLER_RETRY } from '../handler-retry';
import type { EventHandler, MessageBus, RequestOptions, RespondOptions, RpcContext, RpcHandler, SubscribeOptions } from '../message-bus';
import { KafkaConsumerRunner } from './kafka-consumer-runner';
import { KafkaEventConsumers } from './kafka-event-consumers';
import { kafkaLogCreator } from './kafka-log-creator';
import { type KafkaClientRetry, DEFAULT_KAFKA_CLIENT_RETRY, DEFAULT_KAFKA_CONSUMER_TUNING, type KafkaMessageBusOptions, kafkaRetry } from './kafka-message-bus-options';
import { KafkaProducer } from './kafka-producer';
import { withTimeout } from './kafka-records';
import { KafkaRequester } from './kafka-requester';
import { KafkaResponder } from './kafka-responder';

export { DEFAULT_KAFKA_CONSUMER_TUNING, type KafkaClientRetry, type KafkaConsumerTuning, type KafkaMessageBusOptions } from './kafka-message-bus-options';
export { KAFKA_HEADERS } from './kafka-records';

/**
 * The bus of the distributed mode, on kafkajs: a facade over its parts. `KafkaProducer` writes
 * every record (events as JSON keyed by `messageKey(envelope)`, so one customer's events share a
 * partition and stay in order); `KafkaEventConsumers` is one kafkajs consumer per subscribing
 * group; `KafkaResponder` another per responding group, so a handler retrying an event never
 * delays requests; `KafkaRequester` sends requests with a correlation id and reads the reply
 * topic with a group of its own, keeping only the replies addressed to it. `KafkaConsumerRunner`
 * starts and stops every consumer.
 */
export class KafkaMessageBus implements MessageBus {
  readonly instanceId: string;
  private readonly kafka: Kafka;
  private readonly logger: BusLogger;
  private readonly clientRetry: KafkaClientRetry;
  private readonly requestTimeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly producer: KafkaProducer;
  private readonly runner: KafkaConsumerRunner;
  private readonly events: KafkaEventConsumers;
  private readonly responder: KafkaResponder;
  private readonly requester: KafkaRequester;
  private admin: Admin | undefined;
  private readonly lifecycle = new BusLifecycle();
  private abort = new AbortController();

  constructor(options: KafkaMessageBusOptions) {
    this.instanceId = options.instanceId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    const logger = (this.logger = options.logger ?? SILENT_BUS_LOGGER);
    const groupIdPrefix = options.groupIdPrefix ?? 'ringfence.';
    const tuning = { ...DEFAULT_KAFKA_CONSUMER_TUNING, ...options.consumer };
    const clientRetry = (this.clientRetry = { ...DEFAULT_KAFKA_CLIENT_RETRY, ...options.retry });
    const requestTimeoutMs = (this.requestTimeoutMs = options.requestTimeoutMs ?? 5_000);
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    const kafka = (this.kafka = new Kafka({
      brokers: options.brokers,
      clientId: options.clientId,
      ssl: options.ssl,
      sasl: options.sasl,
      connectionTimeout: options.connectionTimeoutMs ?? 1_000,
      requestTimeout: requestTimeoutMs,
      retry: kafkaRetry(clientRetry),
      logLevel: logLevel.INFO,
      logCreator: kafkaLogCreator(logger),
    }));
    const producer = (this.producer = new KafkaProducer(kafka, {
      clientRetry,
      requestTimeoutMs,
      publishTimeoutMs: options.publishTimeoutMs ?? 5_000,
      logger,
      busState: () => this.lifecycle.state,
    }));
    this.runner = new KafkaConsumerRunner(kafka, { tuning, clientRetry, logger });
    const responder = (this.responder = new KafkaResponder(kafka, { groupIdPrefix, requestTimeoutMs, clientRetry, producer, logger }));
    this.events = new KafkaEventConsumers({
      groupIdPrefix,
      commitIntervalMs: tuning.commitIntervalMs,
      handlerRetry: { ...DEFAULT_HANDLER_RETRY, ...options.handlerRetry },
      logger,
      onHandled: (group, topic, partition, offset) => responder.recordHandled(group, topic, partition, offset),
    });
    this.requester = new KafkaRequester({
      instanceId: this.instanceId,
      groupIdPrefix,
      consumeReplies: options.consumeReplies ?? true,
      producer,
      readPositions: () => responder.readPositions(),
      giveUpAt: () => responder.giveUpAt(),
      logger,
    });
  }

  /** Requests waiting for their reply, for metrics and for tests that check the cleanup. */
  get inFlightRequests(): number {
    return this.requester.inFlight;
  }

  subscribe<T extends EventTopic>(topic: T, options: SubscribeOptions, handler: EventHandler<T>): void {
    this.lifecycle.assertRegistering();
    this.events.subscribe(topic, options, handler as (message: MessageEnvelope<unknown>) => Promise<void>);
  }

  handle<T extends RpcTopic>(topic: T, options: RespondOptions, handler: RpcHandler<T>): void {
    this.lifecycle.assertRegistering();
    this.responder.handle(topic, options, handler as (message: MessageEnvelope<unknown>, context: RpcContext) => Promise<unknown>);
  }

  async publish<T extends EventTopic>(topic: T, published: MessageEnvelope<EventTopicMap[T]>): Promise<void> {
    this.lifecycle.assertCanPublish();
    await this.producer.publish(topic, published);
  }

  request<T extends RpcTopic>(
    topic: T,
    message: MessageEnvelope<RpcTopicMap[T]['request']>,
    options: RequestOptions,
  ): Promise<RpcTopicMap[T]['reply']> {
    const refusal = this.lifecycle.requestRefusal();
    if (refusal) return Promise.reject(refusal);
    return this.requester.request(topic, message, options.timeoutMs) as Promise<RpcTopicMap[T]['reply']>;
  }

  start(): Promise<void> {
    return this.lifecycle.start(() => this.connect());
  }

  whenStarted(): Promise<boolean> {
    return this.lifecycle.whenStarted();
  }

  stop(): Promise<void> {
    return this.lifecycle.stop(() => this.shutdown());
  }

  /** Started, every consumer in its group, and the cluster answers a metadata request. */
  async isReady(): Promise<boolean> {
    if (this.lifecycle.state !== 'started' || this.admin === undefined) return false;
    if (!this.runner.healthy) return false;
    try {
      await withTimeout(this.admin.describeCluster(), this.requestTimeoutMs, 'the cluster did not describe itself in time');
      return true;
    } catch {
      return false;
    }
  }

  private async connect(): Promise<void> {
    this.abort = new AbortController();
    const admin = (this.admin = this.kafka.admin({ retry: kafkaRetry(this.clientRetry) }));
    this.responder.openOffsetAdmins();
    try {
      await withTimeout(this.connectAll(admin), this.startTimeoutMs, `the bus did not start within ${this.startTimeoutMs} ms`);
    } catch (error) {
      this.abort.abort();
      await this.disconnectAll();
      throw error instanceof BusUnavailableError ? error : new BusUnavailableError('could not connect to Kafka', error);
    }
  }

  /** The producer, the admin clients, then every consumer side by side. */
  private async connectAll(admin: Admin): Promise<void> {
    await this.producer.connect();
    await admin.connect();
    await this.responder.connectOffsetReader(admin);
    // start() gave up meanwhile and has already disconnected what existed.
    if (this.abort.signal.aborted) return;
    const signal = this.abort.signal;
    const replies = this.requester.spec();
    const specs = [...this.events.specs(signal), ...this.responder.specs(), ...(replies === undefined ? [] : [replies])];
    await Promise.all(specs.map((spec) => this.runner.start(spec, signal)));
  }

  private async shutdown(): Promise<void> {
    this.requester.rejectPending();
    await this.responder.settled();
    const disconnected = this.disconnectAll();
    // Only now that the consumers are stopping, so kafkajs does not fetch an abandoned event again.
    this.abort.abort();
    await disconnected;
  }

  /** Consumers first (their in-flight handlers may still publish), then the producer, then the admin clients. */
  private async disconnectAll(): Promise<void> {
    await this.runner.disconnectAll();
    await this.producer.disconnect();
    const admin = this.admin;
    this.admin = undefined;
    await Promise.all([
      admin?.disconnect().catch((error: unknown) => this.logger.warn({ err: error }, 'admin client did not disconnect cleanly')),
      this.responder.disconnectOffsetReader(),
    ]);
  }
}
