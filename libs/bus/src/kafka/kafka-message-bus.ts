import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  envelopeText,
  type EventTopic,
  type EventTopicMap,
  type MessageEnvelope,
  messageKey,
  RPC_REPLY_TOPIC,
  type RpcReply,
  type RpcTopic,
  type RpcTopicMap,
  withoutAccountFacts,
} from '@ringfence/contracts';
import { INTERNAL_ERROR_MESSAGE } from '@ringfence/platform';
import {
  type Admin,
  type Consumer,
  type EachMessagePayload,
  type IHeaders,
  Kafka,
  type KafkaConfig,
  KafkaJSError,
  logLevel,
  Partitioners,
  type Producer,
} from 'kafkajs';
import { BusMessageRefusedError, BusTimeoutError, BusUnavailableError } from '../bus-errors';
import { BusLifecycle } from '../bus-lifecycle';
import { type BusLogger, SILENT_BUS_LOGGER } from '../bus-logger';
import { DEFAULT_HANDLER_RETRY, deliverUntilHandled, type HandlerRetryOptions } from '../handler-retry';
import type { EventHandler, MessageBus, ReadDependency, RequestOptions, RespondOptions, RpcContext, RpcHandler, SubscribeOptions } from '../message-bus';
import { RequestAbandonment } from '../request-abandonment';
import { answerRequest, remoteErrorFrom } from '../rpc-failure';
import { kafkaLogCreator } from './kafka-log-creator';
import { kafkaMessageRefusal } from './kafka-message-refusal';
import { KafkaOffsetReader, type PartitionOffset } from './kafka-offset-reader';
import { KafkaReadBarrier } from './kafka-read-barrier';

/** The headers the bus puts on Kafka records; other tools (and the warehouse) may read them. */
export const KAFKA_HEADERS = {
  eventId: 'event-id',
  correlationId: 'correlation-id',
  replyTo: 'reply-to',
  replyInstance: 'reply-instance',
  /** Epoch milliseconds after which the requester has given up; responders skip the request. */
  deadline: 'request-deadline',
  /**
   * On a request sent while answering another: the end offsets that answer's read barrier waited
   * for, as JSON `{topic: {partition: offset}}`. The responder waits for these instead of reading
   * the broker again (`KafkaReadBarrier.caughtUp`'s `known`).
   */
  readPositions: 'read-positions',
} as const;

/**
 * Connections (admin clients) a responder reads end and committed offsets on. A read of many
 * topics is shared out over them (kafkajs asks one topic at a time, and librdkafka's mock stalls
 * requests pipelined on one connection): on the mock, a checkpoint's 13 topics took 55 ms on one
 * connection and 40 ms on four (`test/e2e/distributed-kafka.int-spec.ts`).
 */
const OFFSET_READ_CONNECTIONS = 4;

export interface KafkaConsumerTuning {
  /** The broker drops a member it has not heard from for this long. Kafka's minimum is 6 s. */
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** How long the coordinator waits for every member to rejoin during a rebalance. */
  rebalanceTimeoutMs: number;
  /**
   * Longest a fetch waits for data. A real broker answers as soon as data arrives, so this only
   * sets the idle polling rate; librdkafka's mock answers after the full wait, so tests on it
   * keep this to a few milliseconds.
   */
  maxWaitTimeInMs: number;
  /** Partitions a consumer handles at once; order holds within each partition. */
  partitionsConsumedConcurrently: number;
  /**
   * Event consumers commit at the end of every fetched batch, and within a batch once this long
   * has passed since the last commit: a request waiting (read your writes) on a group in
   * another process sees an event as soon as it is committed, so without this it would wait for
   * the rest of the batch under load.
   */
  commitIntervalMs: number;
}

export interface KafkaClientRetry {
  retries: number;
  initialRetryTimeMs: number;
  maxRetryTimeMs: number;
}

export interface KafkaMessageBusOptions {
  brokers: string[];
  clientId: string;
  /**
   * Names this process in reply routing; unique per running instance (default: host, pid and
   * a random suffix). Replies to other instances are read and dropped.
   */
  instanceId?: string;
  /** Prefix of every consumer group id, so the bus's groups are easy to find on the broker. */
  groupIdPrefix?: string;
  /** TCP connect timeout per broker. */
  connectionTimeoutMs?: number;
  /** Timeout of one Kafka request, and the broker's wait for replicas to acknowledge. */
  requestTimeoutMs?: number;
  /** Upper bound of one publish, retries included; past it the publish is unavailable. */
  publishTimeoutMs?: number;
  /** Upper bound of `start()`: connecting, joining every group and positioning every consumer. */
  startTimeoutMs?: number;
  /** kafkajs's retry of failed broker requests; small, so an outage surfaces in a few seconds. */
  retry?: Partial<KafkaClientRetry>;
  consumer?: Partial<KafkaConsumerTuning>;
  /** Backoff of a throwing event handler; defaults to `DEFAULT_HANDLER_RETRY`. */
  handlerRetry?: Partial<HandlerRetryOptions>;
  /**
   * Whether this instance sends requests. A requester reads the whole reply topic with its own
   * group; services that only publish and consume set this to false to save that traffic.
   */
  consumeReplies?: boolean;
  ssl?: KafkaConfig['ssl'];
  sasl?: KafkaConfig['sasl'];
  logger?: BusLogger;
}

export const DEFAULT_KAFKA_CONSUMER_TUNING: KafkaConsumerTuning = {
  sessionTimeoutMs: 10_000,
  heartbeatIntervalMs: 1_000,
  rebalanceTimeoutMs: 10_000,
  maxWaitTimeInMs: 100,
  partitionsConsumedConcurrently: 4,
  commitIntervalMs: 20,
};

const DEFAULT_CLIENT_RETRY: KafkaClientRetry = { retries: 2, initialRetryTimeMs: 100, maxRetryTimeMs: 1_000 };

type AnyEventHandler = (message: MessageEnvelope<unknown>) => Promise<void>;
type AnyRpcHandler = (message: MessageEnvelope<unknown>, context: RpcContext) => Promise<unknown>;

interface PendingRequest {
  topic: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

interface RunningConsumer {
  groupId: string;
  consumer: Consumer;
  /** False after a crash until kafkajs has rejoined the group. */
  healthy: boolean;
}

interface ConsumerSpec {
  groupId: string;
  topics: string[];
  /** A new group reads events from the start (as the embedded log does); requests and replies only from now. */
  fromBeginning: boolean;
  autoCommit: boolean;
  /** Commit within a batch too, once this long has passed since the last commit (else at its end). */
  autoCommitIntervalMs?: number;
  eachMessage: (payload: EachMessagePayload) => Promise<void>;
}

function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const single = Array.isArray(value) ? value[0] : value;
  return single === undefined ? undefined : single.toString();
}

function encodeReadPositions(positions: readonly PartitionOffset[]): string {
  const byTopic: Record<string, Record<string, number>> = {};
  for (const { topic, partition, offset } of positions) (byTopic[topic] ??= {})[partition] = offset;
  return JSON.stringify(byTopic);
}

/** The positions of a `read-positions` header; none when it is absent or not exactly that shape. */
function decodeReadPositions(text: string | undefined): PartitionOffset[] {
  if (text === undefined) return [];
  try {
    const byTopic: unknown = JSON.parse(text);
    if (typeof byTopic !== 'object' || byTopic === null || Array.isArray(byTopic)) return [];
    const positions: PartitionOffset[] = [];
    for (const [topic, partitions] of Object.entries(byTopic)) {
      if (typeof partitions !== 'object' || partitions === null || Array.isArray(partitions)) return [];
      for (const [partition, offset] of Object.entries(partitions)) {
        if (!/^\d+$/.test(partition) || !Number.isSafeInteger(offset) || (offset as number) < 0) return [];
        positions.push({ topic, partition: Number(partition), offset: offset as number });
      }
    }
    return positions;
  } catch {
    return [];
  }
}

function parseJson(value: Buffer | null): unknown {
  if (value === null) throw new SyntaxError('the record has no value');
  return JSON.parse(value.toString('utf8'));
}

function isEnvelope(value: unknown): value is MessageEnvelope<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { eventId?: unknown }).eventId === 'string';
}

function isRpcReply(value: unknown): value is RpcReply<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as { ok?: unknown; error?: { code?: unknown; status?: unknown; message?: unknown } };
  if (reply.ok === true) return true;
  return (
    reply.ok === false &&
    typeof reply.error?.code === 'string' &&
    typeof reply.error.status === 'number' &&
    typeof reply.error.message === 'string'
  );
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The bus of the distributed mode, on kafkajs. Events are JSON records keyed by
 * `messageKey(envelope)`, so one customer's events share a partition and stay in order. Each
 * subscribing group is one kafkajs consumer; each responding group is another, so a handler
 * retrying an event never delays requests. Requests go to the request topic with a correlation
 * id; every requester instance reads the reply topic with a group of its own and keeps only
 * the replies addressed to it.
 */
export class KafkaMessageBus implements MessageBus {
  readonly instanceId: string;
  private readonly kafka: Kafka;
  private readonly logger: BusLogger;
  private readonly groupIdPrefix: string;
  private readonly tuning: KafkaConsumerTuning;
  private readonly clientRetry: KafkaClientRetry;
  private readonly handlerRetry: HandlerRetryOptions;
  private readonly requestTimeoutMs: number;
  private readonly publishTimeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly consumeReplies: boolean;
  private readonly eventGroups = new Map<string, Map<string, AnyEventHandler>>();
  private readonly responderGroups = new Map<string, Map<string, AnyRpcHandler>>();
  private readonly respondedTopics = new Set<string>();
  /** Per request topic, the groups whose state its responder reads (read your writes). */
  private readonly consistentWith = new Map<string, readonly ReadDependency[]>();
  /** Per request topic: the topics whose end offsets its answers pass on (`RespondOptions.readsThrough`). */
  private readonly readsThrough = new Map<string, readonly string[]>();
  /** Per group and topic, what makes handled events durable before kafkajs commits them. */
  private readonly beforeCommits = new Map<string, () => Promise<void>>();
  private readonly readBarrier: KafkaReadBarrier;
  /**
   * While a request is answered: the end offsets its read barrier waited for, passed on to the
   * requests its handler sends (the `read-positions` header), so each later hop of the same
   * checkpoint waits for them without reading the broker's end offsets again. They are a lower
   * bound for requests made on behalf of this answer only: work a handler starts that later
   * sends requests for others (a shared batch, a cache filled on the way) must leave this
   * context (`AsyncLocalStorage.exit`), or those requests would wait for too little.
   */
  private readonly answering = new AsyncLocalStorage<readonly PartitionOffset[]>();
  /** Answers being worked out; a request never holds its partition while it waits or runs. */
  private readonly runningAnswers = new Set<Promise<void>>();
  private readonly pending = new Map<string, PendingRequest>();
  private consumers: RunningConsumer[] = [];
  private producer: Producer | undefined;
  private admin: Admin | undefined;
  /** The offset reader's other admin clients (connections), beside `admin`. */
  private offsetAdmins: Admin[] = [];
  /** Reads end and committed offsets for the read barrier; connected only when some responder uses it. */
  private offsetReader: KafkaOffsetReader | undefined;
  private readonly lifecycle = new BusLifecycle();
  private abort = new AbortController();

  constructor(options: KafkaMessageBusOptions) {
    this.instanceId = options.instanceId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    this.logger = options.logger ?? SILENT_BUS_LOGGER;
    this.groupIdPrefix = options.groupIdPrefix ?? 'ringfence.';
    this.tuning = { ...DEFAULT_KAFKA_CONSUMER_TUNING, ...options.consumer };
    this.clientRetry = { ...DEFAULT_CLIENT_RETRY, ...options.retry };
    this.handlerRetry = { ...DEFAULT_HANDLER_RETRY, ...options.handlerRetry };
    this.requestTimeoutMs = options.requestTimeoutMs ?? 5_000;
    this.publishTimeoutMs = options.publishTimeoutMs ?? 5_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.consumeReplies = options.consumeReplies ?? true;
    this.readBarrier = new KafkaReadBarrier({
      readEnds: (topics) => this.connected(this.offsetReader).readEnds(topics),
      readCommitted: (groupId, topics) => this.connected(this.offsetReader).readCommitted(groupId, topics),
      groupIdOf: (group) => `${this.groupIdPrefix}${group}`,
    });
    this.kafka = new Kafka({
      brokers: options.brokers,
      clientId: options.clientId,
      ssl: options.ssl,
      sasl: options.sasl,
      connectionTimeout: options.connectionTimeoutMs ?? 1_000,
      requestTimeout: this.requestTimeoutMs,
      retry: this.kafkaRetry(),
      logLevel: logLevel.INFO,
      logCreator: kafkaLogCreator(this.logger),
    });
  }

  /** Requests waiting for their reply, for metrics and for tests that check the cleanup. */
  get inFlightRequests(): number {
    return this.pending.size;
  }

  subscribe<T extends EventTopic>(topic: T, options: SubscribeOptions, handler: EventHandler<T>): void {
    this.lifecycle.assertRegistering();
    const handlers = this.eventGroups.get(options.group) ?? new Map<string, AnyEventHandler>();
    if (handlers.has(topic)) throw new Error(`group ${options.group} already consumes ${topic}`);
    handlers.set(topic, handler as AnyEventHandler);
    this.eventGroups.set(options.group, handlers);
    if (options.beforeCommit) this.beforeCommits.set(`${options.group}\u0000${topic}`, options.beforeCommit);
  }

  handle<T extends RpcTopic>(topic: T, options: RespondOptions, handler: RpcHandler<T>): void {
    this.lifecycle.assertRegistering();
    if (this.respondedTopics.has(topic)) throw new Error(`${topic} already has a responder`);
    this.respondedTopics.add(topic);
    if (options.consistentWith?.length) this.consistentWith.set(topic, options.consistentWith);
    if (options.readsThrough?.length) this.readsThrough.set(topic, [...new Set(options.readsThrough.flatMap(({ topics }) => topics))]);
    const handlers = this.responderGroups.get(options.group) ?? new Map<string, AnyRpcHandler>();
    handlers.set(topic, handler as AnyRpcHandler);
    this.responderGroups.set(options.group, handlers);
  }

  async publish<T extends EventTopic>(topic: T, published: MessageEnvelope<EventTopicMap[T]>): Promise<void> {
    this.lifecycle.assertCanPublish();
    const message = withoutAccountFacts(published);
    await this.send(topic, messageKey(message), envelopeText(message), { [KAFKA_HEADERS.eventId]: message.eventId });
  }

  request<T extends RpcTopic>(
    topic: T,
    message: MessageEnvelope<RpcTopicMap[T]['request']>,
    options: RequestOptions,
  ): Promise<RpcTopicMap[T]['reply']> {
    const refusal = this.lifecycle.requestRefusal();
    if (refusal) return Promise.reject(refusal);
    if (!this.consumeReplies) {
      return Promise.reject(new BusUnavailableError('this bus was created with consumeReplies: false and cannot send requests'));
    }
    const correlationId = randomUUID();
    const readPositions = this.answering.getStore();
    const headers = {
      [KAFKA_HEADERS.eventId]: message.eventId,
      [KAFKA_HEADERS.correlationId]: correlationId,
      [KAFKA_HEADERS.replyTo]: RPC_REPLY_TOPIC,
      [KAFKA_HEADERS.replyInstance]: this.instanceId,
      [KAFKA_HEADERS.deadline]: String(Date.now() + options.timeoutMs),
      ...(readPositions === undefined || readPositions.length === 0 ? {} : { [KAFKA_HEADERS.readPositions]: encodeReadPositions(readPositions) }),
    };
    return new Promise<RpcTopicMap[T]['reply']>((resolve, reject) => {
      const entry: PendingRequest = {
        topic,
        resolve: resolve as (value: unknown) => void,
        reject,
        timer: setTimeout(() => {
          if (this.pending.delete(correlationId)) reject(new BusTimeoutError(topic, options.timeoutMs));
        }, options.timeoutMs),
      };
      this.pending.set(correlationId, entry);
      this.send(topic, messageKey(message), envelopeText(message), headers).catch((error: unknown) => {
        if (!this.pending.delete(correlationId)) return;
        clearTimeout(entry.timer);
        reject(error as Error);
      });
    });
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
    if (this.consumers.some((running) => !running.healthy)) return false;
    try {
      await withTimeout(this.admin.describeCluster(), this.requestTimeoutMs, 'the cluster did not describe itself in time');
      return true;
    } catch {
      return false;
    }
  }

  private async connect(): Promise<void> {
    this.abort = new AbortController();
    const producer = this.kafka.producer({
      allowAutoTopicCreation: false,
      // The librdkafka mock cannot serve the idempotent producer; ordering relies on awaiting each send.
      idempotent: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: this.kafkaRetry(),
    });
    this.producer = producer;
    this.admin = this.kafka.admin({ retry: this.kafkaRetry() });
    const readsOffsets = this.consistentWith.size > 0 || this.readsThrough.size > 0;
    this.offsetAdmins = readsOffsets ? Array.from({ length: OFFSET_READ_CONNECTIONS - 1 }, () => this.kafka.admin({ retry: this.kafkaRetry() })) : [];
    try {
      await withTimeout(this.connectAll(producer, this.admin), this.startTimeoutMs, `the bus did not start within ${this.startTimeoutMs} ms`);
    } catch (error) {
      this.abort.abort();
      await this.disconnectAll();
      throw error instanceof BusUnavailableError ? error : new BusUnavailableError('could not connect to Kafka', error);
    }
  }

  private async connectAll(producer: Producer, admin: Admin): Promise<void> {
    await producer.connect();
    await admin.connect();
    if (this.consistentWith.size > 0 || this.readsThrough.size > 0) {
      await Promise.all(this.offsetAdmins.map((reader) => reader.connect()));
      this.offsetReader = new KafkaOffsetReader([admin, ...this.offsetAdmins]);
    }
    // start() gave up meanwhile and has already disconnected what existed.
    if (this.abort.signal.aborted) return;
    const specs: ConsumerSpec[] = [];
    for (const [group, handlers] of this.eventGroups) {
      specs.push({
        groupId: `${this.groupIdPrefix}${group}`,
        topics: [...handlers.keys()],
        fromBeginning: true,
        autoCommit: true,
        autoCommitIntervalMs: this.tuning.commitIntervalMs,
        eachMessage: (payload) => this.consumeEvent(group, handlers, payload),
      });
    }
    for (const [group, handlers] of this.responderGroups) {
      specs.push({
        // A group of its own: kafkajs fetches again only when every partition of the last
        // fetch is done, so an event handler in retry would otherwise hold requests back.
        groupId: `${this.groupIdPrefix}${group}.rpc`,
        topics: [...handlers.keys()],
        fromBeginning: false,
        autoCommit: true,
        eachMessage: (payload) => this.answerRequest(handlers, payload),
      });
    }
    if (this.consumeReplies) {
      specs.push({
        groupId: `${this.groupIdPrefix}rpc-reply.${this.instanceId}`,
        topics: [RPC_REPLY_TOPIC],
        fromBeginning: false,
        // Replies are worthless after a restart, so nothing is committed for this throwaway group.
        autoCommit: false,
        eachMessage: (payload) => this.receiveReply(payload),
      });
    }
    await Promise.all(specs.map((spec) => this.startConsumer(spec)));
  }

  /**
   * Resolves once the consumer has joined its group and fetched once: kafkajs positions a new
   * group's consumer (at the end, for requests and replies) just before its first fetch, so a
   * reply produced before that would be skipped.
   */
  private async startConsumer(spec: ConsumerSpec): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: spec.groupId,
      sessionTimeout: this.tuning.sessionTimeoutMs,
      rebalanceTimeout: this.tuning.rebalanceTimeoutMs,
      heartbeatInterval: this.tuning.heartbeatIntervalMs,
      maxWaitTimeInMs: this.tuning.maxWaitTimeInMs,
      allowAutoTopicCreation: false,
      retry: { ...this.kafkaRetry(), restartOnFailure: async () => !this.abort.signal.aborted },
    });
    const running: RunningConsumer = { groupId: spec.groupId, consumer, healthy: false };
    this.consumers.push(running);

    let joined = false;
    let removeFetchListener: () => void = () => undefined;
    const positioned = new Promise<void>((resolve, reject) => {
      consumer.on(consumer.events.GROUP_JOIN, () => {
        joined = true;
        running.healthy = true;
      });
      removeFetchListener = consumer.on(consumer.events.FETCH, () => {
        if (joined) resolve();
      });
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        running.healthy = false;
        this.logger.error({ groupId: spec.groupId, restart: payload.restart, err: payload.error }, 'Kafka consumer crashed');
        if (!payload.restart) reject(new BusUnavailableError(`the consumer of ${spec.groupId} crashed`, payload.error));
      });
    });
    // A crash during run() would otherwise be an unhandled rejection until it is awaited below.
    positioned.catch(() => undefined);

    await consumer.connect();
    await consumer.subscribe({ topics: spec.topics, fromBeginning: spec.fromBeginning });
    await consumer.run({
      autoCommit: spec.autoCommit,
      // kafkajs's default (null) commits only when a batch is done.
      autoCommitInterval: spec.autoCommitIntervalMs ?? null,
      partitionsConsumedConcurrently: this.tuning.partitionsConsumedConcurrently,
      eachMessage: spec.eachMessage,
    });
    try {
      await positioned;
    } finally {
      removeFetchListener();
    }
  }

  private async consumeEvent(group: string, handlers: Map<string, AnyEventHandler>, payload: EachMessagePayload): Promise<void> {
    const { topic, partition, message } = payload;
    const handler = handlers.get(topic);
    if (handler === undefined) return;
    let envelope: unknown;
    try {
      envelope = parseJson(message.value);
    } catch (error) {
      envelope = error;
    }
    if (!isEnvelope(envelope)) {
      // Redelivering cannot repair a record that is not an envelope; it would block the partition for good.
      this.logger.error({ group, topic, partition, offset: message.offset }, 'skipped a record that is not a message envelope');
      return;
    }
    const beforeCommit = this.beforeCommits.get(`${group}\u0000${topic}`);
    const handled = await deliverUntilHandled({
      // kafkajs commits once eachMessage resolves, so a write-behind handler is made durable here, per event.
      handle: async () => {
        await handler(envelope);
        // This process's readers see the event now (as on the in-process bus, which counts an
        // event handled before its write-behind flush); other processes once it is committed.
        this.readBarrier.recordHandled(group, topic, partition, message.offset);
        await beforeCommit?.();
      },
      retry: this.handlerRetry,
      signal: this.abort.signal,
      onFailure: (error, attempt, retryInMs) =>
        this.logger.warn(
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

  /**
   * Requests are answered beside the consumer loop: one waiting for its read barrier, or a slow
   * handler, must not hold back the requests behind it on the partition. Requests are never
   * replayed (a new responder group starts at the end), so committing one before it is answered
   * loses nothing a restart could have recovered.
   */
  private async answerRequest(handlers: Map<string, AnyRpcHandler>, payload: EachMessagePayload): Promise<void> {
    const answering = this.answer(handlers, payload).catch((error: unknown) =>
      this.logger.error({ topic: payload.topic, offset: payload.message.offset, err: error }, 'could not answer a request'),
    );
    this.runningAnswers.add(answering);
    void answering.finally(() => this.runningAnswers.delete(answering));
  }

  private async answer(handlers: Map<string, AnyRpcHandler>, payload: EachMessagePayload): Promise<void> {
    const { topic, message } = payload;
    const correlationId = headerText(message.headers, KAFKA_HEADERS.correlationId);
    const replyTo = headerText(message.headers, KAFKA_HEADERS.replyTo);
    const replyInstance = headerText(message.headers, KAFKA_HEADERS.replyInstance);
    const deadline = Number(headerText(message.headers, KAFKA_HEADERS.deadline));
    // Only the reply topic of the contracts: a header must not be able to write into the event feed.
    if (correlationId === undefined || replyInstance === undefined || replyTo !== RPC_REPLY_TOPIC) {
      this.logger.warn({ topic, offset: message.offset, replyTo }, 'dropped a request without valid reply headers');
      return;
    }
    if (Number.isFinite(deadline) && Date.now() > deadline) {
      this.logger.debug({ topic, correlationId }, 'skipped a request whose requester has already given up');
      return;
    }
    const dependencies = this.consistentWith.get(topic);
    const readAhead = this.readsThrough.get(topic);
    let readPositions = decodeReadPositions(headerText(message.headers, KAFKA_HEADERS.readPositions));
    if (dependencies !== undefined || readAhead !== undefined) {
      const waitUntil = Number.isFinite(deadline) ? deadline : Date.now() + this.requestTimeoutMs;
      const waitedFor = await this.readBarrier.caughtUp(dependencies ?? [], waitUntil, readPositions, readAhead);
      if (waitedFor === null) {
        // Answering from state that lacks the requester's writes would be a wrong answer; timing out is an honest one.
        this.logger.warn({ topic, correlationId }, 'dropped a request: the state it reads did not catch up before its deadline');
        return;
      }
      readPositions = waitedFor;
    }
    // A Kafka request carries its deadline, not a cancellation: the responder's signal aborts at the deadline.
    const abandonment = new RequestAbandonment(Number.isFinite(deadline) ? deadline : Date.now() + this.requestTimeoutMs);
    const reply = await this.answering.run(readPositions, () => this.replyTo(topic, handlers.get(topic), message.value, abandonment));
    try {
      await this.send(RPC_REPLY_TOPIC, replyInstance, JSON.stringify(reply), {
        [KAFKA_HEADERS.correlationId]: correlationId,
        [KAFKA_HEADERS.replyInstance]: replyInstance,
      });
    } catch (error) {
      this.logger.warn({ topic, correlationId, err: error }, 'could not send a reply; the requester will time out');
    }
  }

  private async replyTo(topic: string, handler: AnyRpcHandler | undefined, value: Buffer | null, context: RpcContext): Promise<RpcReply<unknown>> {
    let envelope: unknown;
    try {
      envelope = parseJson(value);
    } catch {
      envelope = undefined;
    }
    if (handler === undefined || !isEnvelope(envelope)) {
      return { ok: false, error: { code: 'VALIDATION_FAILED', status: 400, message: 'the request is not a message envelope' } };
    }
    return answerRequest(topic, handler, envelope, this.logger, context);
  }

  private async receiveReply({ message }: EachMessagePayload): Promise<void> {
    if (headerText(message.headers, KAFKA_HEADERS.replyInstance) !== this.instanceId) return;
    const correlationId = headerText(message.headers, KAFKA_HEADERS.correlationId);
    const entry = correlationId === undefined ? undefined : this.pending.get(correlationId);
    if (correlationId === undefined || entry === undefined) return;
    this.pending.delete(correlationId);
    clearTimeout(entry.timer);
    let reply: unknown;
    try {
      reply = parseJson(message.value);
    } catch {
      reply = undefined;
    }
    if (!isRpcReply(reply)) {
      this.logger.error({ topic: entry.topic, correlationId }, 'received a reply that is not an RpcReply');
      entry.reject(remoteErrorFrom(entry.topic, { code: 'INTERNAL', status: 500, message: INTERNAL_ERROR_MESSAGE }));
    } else if (reply.ok) {
      entry.resolve(reply.value);
    } else {
      entry.reject(remoteErrorFrom(entry.topic, reply.error));
    }
  }

  /**
   * Resolves once every in-sync replica has the record. A record Kafka refuses for what it is
   * (too large, invalid) is `BusMessageRefusedError`: sending it again would not help. Anything
   * else is `BusUnavailableError`.
   */
  private async send(topic: string, key: string, value: string, headers: Record<string, string>): Promise<void> {
    const producer = this.producer;
    if (producer === undefined) throw new BusUnavailableError(`the bus is ${this.lifecycle.state}`);
    try {
      await withTimeout(
        producer.send({ topic, acks: -1, timeout: this.requestTimeoutMs, messages: [{ key, value, headers }] }),
        this.publishTimeoutMs,
        `no acknowledgement within ${this.publishTimeoutMs} ms`,
      );
    } catch (error) {
      const refusal = kafkaMessageRefusal(error);
      if (refusal !== undefined) throw new BusMessageRefusedError(topic, refusal, error);
      throw new BusUnavailableError(`Kafka did not accept the message on ${topic}`, error);
    }
  }

  private async shutdown(): Promise<void> {
    for (const [correlationId, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(new BusUnavailableError(`the bus stopped before ${entry.topic} answered (${correlationId})`));
    }
    this.pending.clear();
    await Promise.all(this.runningAnswers);
    const disconnected = this.disconnectAll();
    // Only now that the consumers are stopping, so kafkajs does not fetch an abandoned event again.
    this.abort.abort();
    await disconnected;
  }

  /** Consumers first (their in-flight handlers may still publish), then the producer. */
  private async disconnectAll(): Promise<void> {
    const consumers = this.consumers;
    this.consumers = [];
    await Promise.all(consumers.map(({ consumer, groupId }) => consumer.disconnect().catch((error: unknown) => this.logger.warn({ groupId, err: error }, 'consumer did not disconnect cleanly'))));
    await this.producer?.disconnect().catch((error: unknown) => this.logger.warn({ err: error }, 'producer did not disconnect cleanly'));
    await Promise.all(
      [this.admin, ...this.offsetAdmins].map((admin) => admin?.disconnect().catch((error: unknown) => this.logger.warn({ err: error }, 'admin client did not disconnect cleanly'))),
    );
    this.producer = undefined;
    this.admin = undefined;
    this.offsetAdmins = [];
    this.offsetReader = undefined;
  }

  private connected<T>(client: T | undefined): T {
    if (client === undefined) throw new Error('the Kafka admin client is not connected');
    return client;
  }

  private kafkaRetry(): NonNullable<KafkaConfig['retry']> {
    return {
      retries: this.clientRetry.retries,
      initialRetryTime: this.clientRetry.initialRetryTimeMs,
      maxRetryTime: this.clientRetry.maxRetryTimeMs,
    };
  }

}
