import Denque from 'denque';
import type { MessageEnvelope } from '@ringfence/contracts';
import type { BusLogger } from '../bus-logger';
import type { EventLogStore, LoggedEvent } from '../event-log';
import { deliverUntilHandled, type HandlerRetryOptions, handlerRetryDelayMs, sleep } from '../handler-retry';
import type { CommittableLane, OffsetCommitter } from './offset-committer';

type AnyEventHandler = (message: MessageEnvelope<unknown>) => Promise<void>;

export interface LaneSettings {
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
export class ConsumerLane implements CommittableLane {
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

/** A key's partition: FNV-1a of the key, so one key always lands in the same one. */
function partitionOf(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}
