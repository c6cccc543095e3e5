import { AsyncLocalStorage } from 'node:async_hooks';
import { type MessageEnvelope, RPC_REPLY_TOPIC, type RpcReply } from '@ringfence/contracts';
import type { Admin, EachMessagePayload, Kafka, KafkaMessage } from 'kafkajs';
import { OutageLog } from '@ringfence/platform';
import type { BusLogger } from '../bus-logger';
import type { ReadDependency, RespondOptions, RpcContext } from '../message-bus';
import { RequestAbandonment } from '../request-abandonment';
import { answerRequest } from '../rpc-failure';
import { consumerGroupName, replyMarginMs } from '../unanswered';
import type { ConsumerSpec } from './kafka-consumer-runner';
import { type KafkaClientRetry, kafkaRetry } from './kafka-message-bus-options';
import { KafkaOffsetReader, type PartitionOffset } from './kafka-offset-reader';
import type { KafkaProducer } from './kafka-producer';
import { KafkaReadBarrier } from './kafka-read-barrier';
import { decodeReadPositions, headerText, isEnvelope, KAFKA_HEADERS, parsedValue } from './kafka-records';

type AnyRpcHandler = (message: MessageEnvelope<unknown>, context: RpcContext) => Promise<unknown>;

/**
 * Connections (admin clients) a responder reads end and committed offsets on. A read of many
 * topics is shared out over them (kafkajs asks one topic at a time, and librdkafka's mock stalls
 * requests pipelined on one connection): on the mock, a checkpoint's 13 topics took 55 ms on one
 * connection and 40 ms on four (`test/e2e/distributed-kafka.int-spec.ts`).
 */
const OFFSET_READ_CONNECTIONS = 4;

export interface KafkaResponderSettings {
  groupIdPrefix: string;
  /** A request's deadline when it carries none. */
  requestTimeoutMs: number;
  clientRetry: KafkaClientRetry;
  producer: KafkaProducer;
  logger: BusLogger;
}

/** While a request is answered: the end offsets its barrier waited for, and when the requests sent on its behalf give up. */
interface AnswerContext {
  readPositions: readonly PartitionOffset[];
  giveUpAt: number;
}

/** What a valid request's headers say: where the reply goes, and until when anyone waits for it. */
interface RequestHeaders {
  correlationId: string;
  replyInstance: string;
  deadline: number;
  readPositions: PartitionOffset[];
}

/**
 * The answering side of request-reply, with read your writes. Each responding group is a kafkajs
 * consumer of its own (`<prefix><group>.rpc`): kafkajs fetches again only when every partition of
 * the last fetch is done, so in one consumer with events a handler in retry would hold requests
 * back. A request waits for its read barrier (the groups it is consistent with), then its handler
 * runs, and the reply goes to `RPC_REPLY_TOPIC` keyed by the requester's instance id.
 */
export class KafkaResponder {
  private readonly groups = new Map<string, Map<string, AnyRpcHandler>>();
  private readonly respondedTopics = new Set<string>();
  /** Per request topic, the groups whose state its responder reads (read your writes). */
  private readonly consistentWith = new Map<string, readonly ReadDependency[]>();
  /** Per request topic: the topics whose end offsets its answers pass on (`RespondOptions.readsThrough`). */
  private readonly readsThrough = new Map<string, readonly string[]>();
  private readonly readBarrier: KafkaReadBarrier;
  /**
   * While a request is answered: the end offsets its read barrier waited for, passed on to the
   * requests its handler sends (the `read-positions` header), so each later hop of the same
   * checkpoint waits for them without reading the broker's end offsets again. They are a lower
   * bound for requests made on behalf of this answer only: work a handler starts that later
   * sends requests for others (a shared batch, a cache filled on the way) must leave this
   * context (`AsyncLocalStorage.exit`), or those requests would wait for too little.
   */
  private readonly answering = new AsyncLocalStorage<AnswerContext>();
  /** One warning per outage of a consumer group that requests wait for, not one per request. */
  private readonly laggingGroups: OutageLog;
  /** Answers being worked out; a request never holds its partition while it waits or runs. */
  private readonly runningAnswers = new Set<Promise<void>>();
  /** The offset reader's other admin clients (connections), beside the bus's admin. */
  private offsetAdmins: Admin[] = [];
  /** Reads end and committed offsets for the read barrier; connected only when some responder uses it. */
  private offsetReader: KafkaOffsetReader | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly settings: KafkaResponderSettings,
  ) {
    this.readBarrier = new KafkaReadBarrier({
      readEnds: (topics) => this.connectedReader().readEnds(topics),
      readCommitted: (groupId, topics) => this.connectedReader().readCommitted(groupId, topics),
      groupIdOf: (group) => `${settings.groupIdPrefix}${group}`,
    });
    this.laggingGroups = new OutageLog(settings.logger, { effect: 'requests answered DEPENDENCY_UNAVAILABLE (the state they read did not catch up before their deadline)' });
  }

  handle(topic: string, options: RespondOptions, handler: AnyRpcHandler): void {
    if (this.respondedTopics.has(topic)) throw new Error(`${topic} already has a responder`);
    this.respondedTopics.add(topic);
    if (options.consistentWith?.length) this.consistentWith.set(topic, options.consistentWith);
    if (options.readsThrough?.length) this.readsThrough.set(topic, [...new Set(options.readsThrough.flatMap(({ topics }) => topics))]);
    const handlers = this.groups.get(options.group) ?? new Map<string, AnyRpcHandler>();
    handlers.set(topic, handler);
    this.groups.set(options.group, handlers);
  }

  /** An event of `group` was handled in this process: requests waiting on it may see it now. */
  recordHandled(group: string, topic: string, partition: number, offset: string): void {
    this.readBarrier.recordHandled(group, topic, partition, offset);
  }

  /** The end offsets the answer being worked out in this async context waited for, if any. */
  readPositions(): readonly PartitionOffset[] | undefined {
    return this.answering.getStore()?.readPositions;
  }

  /**
   * When the requests sent on behalf of the answer being worked out in this async context give
   * up, if any: its requester's deadline less the time kept for the reply (`replyMarginMs`).
   */
  giveUpAt(): number | undefined {
    return this.answering.getStore()?.giveUpAt;
  }

  /** Whether some responder reads offsets (`consistentWith` or `readsThrough`). */
  private get readsOffsets(): boolean {
    return this.consistentWith.size > 0 || this.readsThrough.size > 0;
  }

  /** Creates the offset reader's own admin clients (`OFFSET_READ_CONNECTIONS - 1`) when some responder reads offsets. */
  openOffsetAdmins(): void {
    this.offsetAdmins = this.readsOffsets
      ? Array.from({ length: OFFSET_READ_CONNECTIONS - 1 }, () => this.kafka.admin({ retry: kafkaRetry(this.settings.clientRetry) }))
      : [];
  }

  /** Connects the offset reader, when some responder reads offsets: `admin` (the bus's, connected) and its own. */
  async connectOffsetReader(admin: Admin): Promise<void> {
    if (!this.readsOffsets) return;
    await Promise.all(this.offsetAdmins.map((reader) => reader.connect()));
    this.offsetReader = new KafkaOffsetReader([admin, ...this.offsetAdmins]);
  }

  async disconnectOffsetReader(): Promise<void> {
    const admins = this.offsetAdmins;
    this.offsetAdmins = [];
    this.offsetReader = undefined;
    await Promise.all(admins.map((admin) => admin.disconnect().catch((error: unknown) => this.settings.logger.warn({ err: error }, 'admin client did not disconnect cleanly'))));
  }

  /** A consumer per responding group, reading requests from now on. */
  specs(): ConsumerSpec[] {
    return [...this.groups].map(([group, handlers]) => ({
      // A group of its own: kafkajs fetches again only when every partition of the last
      // fetch is done, so an event handler in retry would otherwise hold requests back.
      groupId: `${this.settings.groupIdPrefix}${group}.rpc`,
      topics: [...handlers.keys()],
      fromBeginning: false,
      autoCommit: true,
      eachMessage: (payload) => this.answerRequest(handlers, payload),
    }));
  }

  /** Resolves once every answer being worked out has been sent (or given up). */
  async settled(): Promise<void> {
    await Promise.all(this.runningAnswers);
  }

  /**
   * Requests are answered beside the consumer loop: one waiting for its read barrier, or a slow
   * handler, must not hold back the requests behind it on the partition. Requests are never
   * replayed (a new responder group starts at the end), so committing one before it is answered
   * loses nothing a restart could have recovered.
   */
  private async answerRequest(handlers: Map<string, AnyRpcHandler>, payload: EachMessagePayload): Promise<void> {
    const answering = this.answer(handlers, payload).catch((error: unknown) =>
      this.settings.logger.error({ topic: payload.topic, offset: payload.message.offset, err: error }, 'could not answer a request'),
    );
    this.runningAnswers.add(answering);
    void answering.finally(() => this.runningAnswers.delete(answering));
  }

  private async answer(handlers: Map<string, AnyRpcHandler>, { topic, message }: EachMessagePayload): Promise<void> {
    const request = this.requestHeaders(topic, message);
    if (request === undefined) return;
    const { correlationId, replyInstance } = request;
    const deadline = Number.isFinite(request.deadline) ? request.deadline : Date.now() + this.settings.requestTimeoutMs;
    // Time kept for the reply: what the barrier waited for in vain, or a request sent on this one's behalf, is named in time.
    const giveUpAt = deadline - replyMarginMs(deadline - Date.now());
    const caughtUp = await this.caughtUp(topic, request, giveUpAt);
    // A Kafka request carries its deadline, not a cancellation: the responder's signal aborts at the deadline.
    const reply =
      'behind' in caughtUp
        ? behindReply(caughtUp.behind)
        : await this.answering.run({ readPositions: caughtUp.readPositions, giveUpAt }, () => this.replyTo(topic, handlers.get(topic), message.value, new RequestAbandonment(deadline)));
    try {
      await this.settings.producer.send(RPC_REPLY_TOPIC, replyInstance, JSON.stringify(reply), {
        [KAFKA_HEADERS.correlationId]: correlationId,
        [KAFKA_HEADERS.replyInstance]: replyInstance,
      });
    } catch (error) {
      this.settings.logger.warn({ topic, correlationId, err: error }, 'could not send a reply; the requester will time out');
    }
  }

  /** The request's headers; undefined (logged) when it cannot or need not be answered. */
  private requestHeaders(topic: string, message: KafkaMessage): RequestHeaders | undefined {
    const { logger } = this.settings;
    const correlationId = headerText(message.headers, KAFKA_HEADERS.correlationId);
    const replyTo = headerText(message.headers, KAFKA_HEADERS.replyTo);
    const replyInstance = headerText(message.headers, KAFKA_HEADERS.replyInstance);
    const deadline = Number(headerText(message.headers, KAFKA_HEADERS.deadline));
    // Only the reply topic of the contracts: a header must not be able to write into the event feed.
    if (correlationId === undefined || replyInstance === undefined || replyTo !== RPC_REPLY_TOPIC) {
      logger.warn({ topic, offset: message.offset, replyTo }, 'dropped a request without valid reply headers');
      return undefined;
    }
    if (Number.isFinite(deadline) && Date.now() > deadline) {
      logger.debug({ topic, correlationId }, 'skipped a request whose requester has already given up');
      return undefined;
    }
    return { correlationId, replyInstance, deadline, readPositions: decodeReadPositions(headerText(message.headers, KAFKA_HEADERS.readPositions)) };
  }

  /**
   * Waits until the groups the topic's responder reads have caught up (read your writes): the
   * end offsets to pass on to the handler's own requests; or, at `giveUpAt` (before the
   * deadline), the groups that had not (logged once per outage), for a failed reply naming them
   * that reaches the requester in time.
   */
  private async caughtUp(topic: string, { correlationId, readPositions }: RequestHeaders, giveUpAt: number): Promise<{ readPositions: readonly PartitionOffset[] } | { behind: string[] }> {
    const dependencies = this.consistentWith.get(topic);
    const readAhead = this.readsThrough.get(topic);
    if (dependencies === undefined && readAhead === undefined) return { readPositions };
    const outcome = await this.readBarrier.waitFor(dependencies ?? [], giveUpAt, readPositions, readAhead);
    if ('behind' in outcome) {
      // Answering from state that lacks the requester's writes would be a wrong answer; a failure naming what lags is an honest one.
      for (const group of outcome.behind) this.laggingGroups.failed(consumerGroupName(group), { topic, correlationId });
      return outcome;
    }
    this.laggingGroups.answered();
    return { readPositions: outcome.waitedFor };
  }

  private async replyTo(topic: string, handler: AnyRpcHandler | undefined, value: Buffer | null, context: RpcContext): Promise<RpcReply<unknown>> {
    const envelope = parsedValue(value);
    if (handler === undefined || !isEnvelope(envelope)) {
      return { ok: false, error: { code: 'VALIDATION_FAILED', status: 400, message: 'the request is not a message envelope' } };
    }
    return answerRequest(topic, handler, envelope, this.settings.logger, context);
  }

  private connectedReader(): KafkaOffsetReader {
    if (this.offsetReader === undefined) throw new Error('the Kafka admin client is not connected');
    return this.offsetReader;
  }
}

/** The reply to a request whose state did not catch up in time: not an answer from stale state, and what lagged named. */
function behindReply(behind: readonly string[]): RpcReply<unknown> {
  return {
    ok: false,
    error: { code: 'DEPENDENCY_UNAVAILABLE', status: 503, message: 'the state this request reads did not catch up in time; retry', unanswered: behind.map(consumerGroupName) },
  };
}
