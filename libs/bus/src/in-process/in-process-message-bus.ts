import Denque from 'denque';
import {
  type EventTopic,
  type EventTopicMap,
  type MessageEnvelope,
  messageKey,
  type RpcReply,
  type RpcTopic,
  type RpcTopicMap,
  withoutAccountFacts,
} from '@ringfence/contracts';
import { BusTimeoutError, BusUnavailableError } from '../bus-errors';
import { BusLifecycle } from '../bus-lifecycle';
import { type BusLogger, SILENT_BUS_LOGGER } from '../bus-logger';
import type { EventLogStore, LoggedEvent } from '../event-log';
import { DEFAULT_HANDLER_RETRY, deliverUntilHandled, type HandlerRetryOptions, handlerRetryDelayMs, sleep } from '../handler-retry';
import type { EventHandler, MessageBus, ReadDependency, RequestOptions, RespondOptions, RpcContext, RpcHandler, SubscribeOptions } from '../message-bus';
import { RequestAbandonment } from '../request-abandonment';
import { ABANDONED_REQUEST, answerRequest, remoteErrorFrom } from '../rpc-failure';
import { type CommittableLane, OffsetCommitter } from './offset-committer';

/** Events appended in one statement at most; a burst larger than this takes several round trips. */
const MAX_APPEND_BATCH = 256;

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

type AnyEventHandler = (message: MessageEnvelope<unknown>) => Promise<void>;
type AnyRpcHandler = (message: MessageEnvelope<unknown>, context: RpcContext) => Promise<unknown>;

interface Responder {
  handler: AnyRpcHandler;
  consistentWith: readonly ReadDependency[];
}

interface PendingRequest {
  topic: string;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

interface LaneSettings {
  eventLog: EventLogStore;
  logger: BusLogger;
  retry: HandlerRetryOptions;
  replayPageSize: number;
  maxBufferedEvents: number;
  partitionsPerLane: number;
  committer: OffsetCommitter;
}

/** Events dispatched to a lane's partitions and not yet all handled, at most; beyond, the lane waits. */
const MAX_EVENTS_IN_FLIGHT = 1_024;

/** An event handed to a partition, and whether its handler has finished. */
interface InFlight {
  event: LoggedEvent;
  done: boolean;
}

/**
 * One group's consumption of one topic: the in-process equivalent of a Kafka consumer of all
 * its partitions. Events are handed, in log order, to `partitionsPerLane` partitions by key, each
 * handling one event at a time, so events of a key stay in order while different keys proceed
 * side by side. It first catches up from the log after its committed offset, then takes live
 * events from memory; whenever it falls too far behind it goes back to the log.
 *
 * `dispatched` is the last sequence handed to a partition (later copies of events read again
 * from the log are dropped by it); `position` is the last sequence up to which every event has
 * been handled: what commits, read-your-writes waiters and restarts go by.
 */
class ConsumerLane implements CommittableLane {
  private position = 0;
  committedUpTo = 0;
  private dispatched = 0;
  /**
   * Dispatched events in sequence order, from the oldest not yet handled. A deque, not an array
   * with a head index: a handled event must not stay reachable from here (it holds its payload).
   */
  private readonly inFlight = new Denque<InFlight>();
  private partitions: InFlight[][] = [];
  private readonly partitionRuns = new Set<Promise<void>>();
  private progress: (() => void) | undefined;
  private signal: AbortSignal | undefined;
  private readonly buffer = new Denque<LoggedEvent>();
  private catchingUp = true;
  private overflowed = false;
  private wake: (() => void) | undefined;
  /** Requests waiting for this lane to reach a sequence (read your writes), oldest target first. */
  private waiters: Array<{ sequence: number; resolve: () => void }> = [];
  /**
   * Resolves once the lane has read the log to its end after a start. Until then it may lag
   * behind events published before the start, which no tenant's recorded writes cover.
   */
  private startCaughtUp!: Promise<void>;
  private markStartCaughtUp: () => void = () => undefined;
  private startCatchUpDone = false;
  private loop: Promise<void> | undefined;

  constructor(
    readonly group: string,
    readonly topic: string,
    private readonly handler: AnyEventHandler,
    private readonly settings: LaneSettings,
    readonly beforeCommit: (() => Promise<void>) | undefined,
  ) {}

  get handledUpTo(): number {
    return this.position;
  }

  async loadOffset(): Promise<void> {
    this.position = await this.settings.eventLog.committedOffset(this.group, this.topic);
    this.committedUpTo = this.position;
    this.dispatched = this.position;
    this.inFlight.clear();
    this.partitions = Array.from({ length: this.settings.partitionsPerLane }, () => []);
    this.catchingUp = true;
    this.startCatchUpDone = false;
    this.startCaughtUp = new Promise<void>((resolve) => (this.markStartCaughtUp = resolve));
  }

  /** Undefined once the lane has caught up with the log after its start (the usual case). */
  caughtUpSinceStart(): Promise<void> | undefined {
    return this.startCatchUpDone ? undefined : this.startCaughtUp;
  }

  start(signal: AbortSignal): void {
    this.signal = signal;
    this.loop = this.run(signal);
  }

  /**
   * Resolves once every event up to `sequence` has been handled; undefined when that is already
   * so, which spares the common case a promise.
   */
  handled(sequence: number): Promise<void> | undefined {
    if (this.position >= sequence) return undefined;
    return new Promise<void>((resolve) => {
      this.waiters.push({ sequence, resolve });
    });
  }

  /** Lets every waiter go (the bus is stopping; their requests have already been rejected). */
  releaseWaiters(): void {
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
    this.markStartCaughtUp();
    this.wakeProgress();
  }

  push(event: LoggedEvent): void {
    if (this.buffer.length >= this.settings.maxBufferedEvents) {
      // Every event is in the log: forgetting the buffer loses nothing, the lane re-reads it.
      this.buffer.clear();
      this.catchingUp = true;
      this.overflowed = true;
    } else {
      this.buffer.push(event);
    }
    this.wakeUp();
  }

  wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Resolves once the in-flight handlers have finished (the bus then commits every lane). */
  async stopped(): Promise<void> {
    await this.loop;
    await Promise.all(this.partitionRuns);
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (this.catchingUp) {
        await this.catchUp(signal);
        continue;
      }
      if (this.inFlight.length >= MAX_EVENTS_IN_FLIGHT) {
        await this.nextProgress();
        continue;
      }
      const event = this.buffer.shift();
      if (event === undefined) {
        await new Promise<void>((resolve) => (this.wake = resolve));
      } else if (event.sequence > this.dispatched) {
        this.dispatch(event);
      }
    }
  }

  /** Hands the event to its key's partition, which handles it after the key's earlier events. */
  private dispatch(event: LoggedEvent): void {
    this.dispatched = event.sequence;
    const entry: InFlight = { event, done: false };
    this.inFlight.push(entry);
    const partition = partitionOf(event.key, this.partitions.length);
    const queue = this.partitions[partition];
    queue.push(entry);
    if (queue.length === 1) {
      const run = this.runPartition(queue);
      this.partitionRuns.add(run);
      void run.finally(() => this.partitionRuns.delete(run));
    }
  }

  private async runPartition(queue: InFlight[]): Promise<void> {
    const signal = this.signal as AbortSignal;
    while (queue.length > 0 && !signal.aborted) {
      const entry = queue[0];
      // Not handled (the bus stopped): the event stays uncommitted and comes again after a start.
      if (!(await this.deliver(entry.event, signal))) return;
      queue.shift();
      entry.done = true;
      this.advance();
    }
  }

  /** Moves `position` over every event handled without a gap before it. */
  private advance(): void {
    const before = this.position;
    for (let oldest = this.inFlight.peekFront(); oldest?.done; oldest = this.inFlight.peekFront()) {
      this.position = oldest.event.sequence;
      this.inFlight.shift();
    }
    if (this.position === before) return;
    this.resolveWaiters();
    this.settings.committer.progressed();
    this.wakeProgress();
  }

  private nextProgress(): Promise<void> {
    return new Promise<void>((resolve) => (this.progress = resolve));
  }

  private wakeProgress(): void {
    const progress = this.progress;
    this.progress = undefined;
    progress?.();
  }

  private async catchUp(signal: AbortSignal): Promise<void> {
    let failedReads = 0;
    while (!signal.aborted) {
      // An overflow while the page is read may drop events the page does not have yet.
      this.overflowed = false;
      let page: LoggedEvent[];
      try {
        page = await this.settings.eventLog.readAfter(this.topic, this.dispatched, this.settings.replayPageSize);
        failedReads = 0;
      } catch (error) {
        failedReads += 1;
        const retryInMs = handlerRetryDelayMs(failedReads, this.settings.retry);
        this.settings.logger.error({ group: this.group, topic: this.topic, retryInMs, err: error }, 'could not read the event log; retrying');
        await sleep(retryInMs, signal);
        continue;
      }
      for (const event of page) {
        while (this.inFlight.length >= MAX_EVENTS_IN_FLIGHT && !signal.aborted) await this.nextProgress();
        if (signal.aborted) return;
        if (event.sequence > this.dispatched) this.dispatch(event);
      }
      if (page.length < this.settings.replayPageSize && !this.overflowed) {
        this.catchingUp = false;
        if (!this.startCatchUpDone) this.whenHandled(this.dispatched, () => {
          this.startCatchUpDone = true;
          this.markStartCaughtUp();
        });
        return;
      }
    }
  }

  private async deliver(event: LoggedEvent, signal: AbortSignal): Promise<boolean> {
    const { group, topic } = this;
    const handled = await deliverUntilHandled({
      handle: () => this.handler(event.envelope),
      retry: this.settings.retry,
      signal,
      onFailure: (error, attempt, retryInMs) =>
        this.settings.logger.warn(
          { group, topic, sequence: event.sequence, eventId: event.envelope.eventId, traceId: event.envelope.traceId, attempt, retryInMs, err: error },
          'event handler failed; retrying the same event',
        ),
    });
    return handled;
  }

  private whenHandled(sequence: number, then: () => void): void {
    const wait = this.handled(sequence);
    if (wait === undefined) then();
    else void wait.then(then);
  }

  private resolveWaiters(): void {
    if (this.waiters.length === 0) return;
    const stillWaiting = [];
    for (const waiter of this.waiters) {
      if (waiter.sequence <= this.position) waiter.resolve();
      else stillWaiting.push(waiter);
    }
    this.waiters = stillWaiting;
  }

}

/**
 * The bus of the embedded mode: one process, no broker, the same semantics as the Kafka bus.
 * A publish is durable once `EventLogStore.append` has returned; delivery to each group is
 * asynchronous, in order per topic, at least once, and survives a restart because each group
 * resumes after its committed offset. Requests call the registered handler directly: no
 * serialisation, only a timer for the timeout, so a caller must not mutate a message it sent
 * nor a handler the message it got.
 */
export class InProcessMessageBus implements MessageBus {
  private readonly eventLog: EventLogStore;
  private readonly logger: BusLogger;
  private readonly laneSettings: LaneSettings;
  private readonly committer: OffsetCommitter;
  private readonly lanes: ConsumerLane[] = [];
  private readonly lanesByTopic = new Map<string, ConsumerLane[]>();
  private readonly responders = new Map<string, Responder>();
  /**
   * The last sequence each tenant (account and data set) published on each topic: what a
   * consistent responder waits for its groups to have handled. Tenants × topics entries.
   */
  private readonly tenantWrites = new Map<string, Map<string, number>>();
  private readonly pending = new Set<PendingRequest>();
  private readonly runningRequestHandlers = new Set<Promise<RpcReply<unknown>>>();
  private readonly lifecycle = new BusLifecycle();
  private abort = new AbortController();
  private appendTail: Promise<unknown> = Promise.resolve();
  private appendInFlight = false;
  private readonly appendQueue: Array<{
    topic: string;
    key: string;
    envelope: MessageEnvelope<unknown>;
    resolve: (sequence: number) => void;
    reject: (error: unknown) => void;
  }> = [];

  constructor(options: InProcessMessageBusOptions) {
    this.eventLog = options.eventLog;
    this.logger = options.logger ?? SILENT_BUS_LOGGER;
    this.committer = new OffsetCommitter(options.eventLog, options.commitIntervalMs ?? 200, this.logger);
    this.laneSettings = {
      eventLog: options.eventLog,
      logger: this.logger,
      retry: { ...DEFAULT_HANDLER_RETRY, ...options.handlerRetry },
      replayPageSize: options.replayPageSize ?? 500,
      maxBufferedEvents: options.maxBufferedEvents ?? 10_000,
      partitionsPerLane: options.partitionsPerLane ?? 8,
      committer: this.committer,
    };
  }

  /** Requests waiting for their handler, for metrics and for tests that check the cleanup. */
  get inFlightRequests(): number {
    return this.pending.size;
  }

  subscribe<T extends EventTopic>(topic: T, options: SubscribeOptions, handler: EventHandler<T>): void {
    this.lifecycle.assertRegistering();
    const lanes = this.lanesByTopic.get(topic) ?? [];
    if (lanes.some((lane) => lane.group === options.group)) {
      throw new Error(`group ${options.group} already consumes ${topic}`);
    }
    const lane = new ConsumerLane(options.group, topic, handler as AnyEventHandler, this.laneSettings, options.beforeCommit);
    lanes.push(lane);
    this.lanesByTopic.set(topic, lanes);
    this.lanes.push(lane);
    this.committer.register(lane);
  }

  handle<T extends RpcTopic>(topic: T, options: RespondOptions, handler: RpcHandler<T>): void {
    this.lifecycle.assertRegistering();
    if (this.responders.has(topic)) throw new Error(`${topic} already has a responder`);
    this.responders.set(topic, { handler: handler as AnyRpcHandler, consistentWith: options.consistentWith ?? [] });
  }

  async publish<T extends EventTopic>(topic: T, published: MessageEnvelope<EventTopicMap[T]>): Promise<void> {
    this.lifecycle.assertCanPublish();
    const message = withoutAccountFacts(published);
    const key = messageKey(message);
    let sequence: number;
    try {
      sequence = await this.appendInOrder(topic, key, message);
    } catch (error) {
      throw new BusUnavailableError(`the event log did not take the event on ${topic}`, error);
    }
    this.recordWrite(message, topic, sequence);
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
    const responder = this.responders.get(topic);
    if (responder === undefined) {
      // In one process a missing responder is a wiring mistake; waiting for the timeout hides it.
      return Promise.reject(new BusUnavailableError(`no module in this process answers ${topic}`));
    }
    // Taken now: the writes answered before this request, not those that race with it.
    const caughtUp = this.readBarrier(responder.consistentWith, message);
    return new Promise<RpcTopicMap[T]['reply']>((resolve, reject) => {
      // The responder's signal: aborted once nobody waits for the answer, at the timeout or when the requester aborts.
      const abandonment = new RequestAbandonment();
      const requesterAborted = () => abandonment.abandon();
      options.signal?.addEventListener('abort', requesterAborted, { once: true });
      if (options.signal?.aborted === true) abandonment.abandon();
      const entry: PendingRequest = {
        topic,
        reject,
        timer: setTimeout(() => {
          this.pending.delete(entry);
          abandonment.abandon();
          reject(new BusTimeoutError(topic, options.timeoutMs));
        }, options.timeoutMs),
      };
      this.pending.add(entry);
      const answer = () => answerRequest(topic, responder.handler, message, this.logger, abandonment);
      const answering =
        caughtUp === undefined
          ? answer()
          : caughtUp.then((): Promise<RpcReply<unknown>> | RpcReply<unknown> =>
              // A request that timed out while it waited must leave no trace: its handler never runs.
              this.pending.has(entry) ? answer() : { ok: false, error: ABANDONED_REQUEST },
            );
      this.runningRequestHandlers.add(answering);
      void answering.then((reply) => {
        this.runningRequestHandlers.delete(answering);
        clearTimeout(entry.timer);
        options.signal?.removeEventListener('abort', requesterAborted);
        // Gone when the request already timed out or the bus stopped: the answer is dropped.
        if (!this.pending.delete(entry)) return;
        if (reply.ok) resolve(reply.value as RpcTopicMap[T]['reply']);
        else reject(remoteErrorFrom(topic, reply.error));
      });
    });
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

  private recordWrite(message: MessageEnvelope<unknown>, topic: string, sequence: number): void {
    const tenant = tenantOf(message);
    let writes = this.tenantWrites.get(tenant);
    if (writes === undefined) {
      writes = new Map();
      this.tenantWrites.set(tenant, writes);
    }
    writes.set(topic, Math.max(writes.get(topic) ?? 0, sequence));
  }

  /**
   * What a consistent responder waits for: each named group's lane of each named topic must
   * have read the log to its end since the start, and reach the tenant's last sequence there.
   * Undefined when nothing is pending.
   */
  private readBarrier(dependencies: readonly ReadDependency[], message: MessageEnvelope<unknown>): Promise<void> | undefined {
    if (dependencies.length === 0) return undefined;
    const writes = this.tenantWrites.get(tenantOf(message));
    const waits: Array<Promise<void>> = [];
    for (const { group, topics } of dependencies) {
      for (const topic of topics) {
        const lane = this.lanesByTopic.get(topic)?.find((candidate) => candidate.group === group);
        if (lane === undefined) continue;
        // Writes answered before this process started are not in `tenantWrites`: they are
        // covered by the lane reading the log to its end first.
        const restart = lane.caughtUpSinceStart();
        if (restart !== undefined) waits.push(restart);
        const sequence = writes?.get(topic);
        const wait = sequence === undefined ? undefined : lane.handled(sequence);
        if (wait !== undefined) waits.push(wait);
      }
    }
    return waits.length === 0 ? undefined : Promise.all(waits).then(() => undefined);
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
    for (const entry of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(new BusUnavailableError(`the bus stopped before ${entry.topic} answered`));
    }
    this.pending.clear();
    this.abort.abort();
    for (const lane of this.lanes) lane.releaseWaiters();
    if (wasRunning) {
      for (const lane of this.lanes) lane.wakeUp();
      await Promise.all([
        ...this.lanes.map((lane) => lane.stopped()),
        ...this.runningRequestHandlers,
      ]);
      await this.committer.stop();
    }
    await this.appendTail;
  }

  /**
   * Group commit: appends wait in a queue while one batch is in flight, and the next batch takes
   * them all in one statement. Sequences are handed out in the order events reached the queue,
   * and callers are answered in that order, so events reach the lanes in sequence order and a
   * lane can drop anything at or below its position as already handled. One append at a time,
   * as before, made every publish wait behind every statement queued on the embedded database.
   */
  private appendInOrder(topic: string, key: string, message: MessageEnvelope<unknown>): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.appendQueue.push({ topic, key, envelope: message, resolve, reject });
      if (!this.appendInFlight) this.appendTail = this.flushAppends();
    });
  }

  private async flushAppends(): Promise<void> {
    this.appendInFlight = true;
    try {
      while (this.appendQueue.length > 0) {
        const batch = this.appendQueue.splice(0, MAX_APPEND_BATCH);
        try {
          const sequences = await this.eventLog.appendBatch(batch);
          batch.forEach((entry, index) => entry.resolve(sequences[index]));
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      this.appendInFlight = false;
    }
  }
}

/** A key's partition: FNV-1a of the key, so one key always lands in the same one. */
function partitionOf(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}

// JSON of the pair: no separator character can make two tenants collide.
const tenantOf = (message: Pick<MessageEnvelope<unknown>, 'accountId' | 'environment'>): string =>
  JSON.stringify([message.accountId, message.environment]);
