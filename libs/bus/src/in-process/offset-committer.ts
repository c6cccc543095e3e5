import { exponentialBackoffMs } from '@ringfence/platform';
import type { BusLogger } from '../bus-logger';
import type { EventLogStore } from '../event-log';

/** Longest wait before a commit that failed is tried again without new progress. */
export const MAX_RETRY_DELAY_MS = 5_000;

/** What the committer reads and writes of one group's consumption of one topic. */
export interface CommittableLane {
  readonly group: string;
  readonly topic: string;
  /** The last sequence up to which every event has been handled. */
  readonly handledUpTo: number;
  /** The last sequence committed; the committer advances it. */
  committedUpTo: number;
  /** The subscription's write-behind flush, awaited before its offsets are committed. */
  readonly beforeCommit: (() => Promise<void>) | undefined;
}

/**
 * Commits the offsets of every lane of the in-process bus together: at most once per
 * `intervalMs`, each write-behind flush once, then every lane's offset in one statement. Lanes
 * committing on their own cost a flush and a statement per lane and interval (about twenty lanes
 * in the standalone app), all queued on the embedded database's one session.
 *
 * A flush that fails leaves its lanes' offsets uncommitted; a crash meanwhile only redelivers
 * events to idempotent handlers. It is tried again with the lanes' next progress, and on its own
 * after a backoff (the interval, doubling up to `MAX_RETRY_DELAY_MS`): in an idle system a row
 * its writer refuses must still use up its attempts and be set aside (ADR-0016), not wait
 * for the next event.
 */
export class OffsetCommitter {
  private readonly lanes: CommittableLane[] = [];
  private pending: Promise<void> | undefined;
  private lastCommitAt = 0;
  private stopping = false;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Commit rounds that failed since the last one that caught up; the backoff grows with them. */
  private failedRounds = 0;

  constructor(
    private readonly eventLog: EventLogStore,
    private readonly intervalMs: number,
    private readonly logger: BusLogger,
  ) {}

  register(lane: CommittableLane): void {
    this.lanes.push(lane);
  }

  /** A lane handled more events: they go with the next commit. */
  progressed(): void {
    this.pending ??= this.commitUntilCaughtUp().finally(() => (this.pending = undefined));
  }

  /** Commits what every lane has handled, without waiting out the interval. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.pending;
    await this.commitOnce();
  }

  private async commitUntilCaughtUp(): Promise<void> {
    while (this.lanes.some(behind)) {
      const wait = this.lastCommitAt + this.intervalMs - Date.now();
      if (wait > 0 && !this.stopping) await new Promise((resolve) => setTimeout(resolve, wait));
      this.lastCommitAt = Date.now();
      if (!(await this.commitOnce())) {
        this.retryLater();
        return;
      }
    }
    this.failedRounds = 0;
  }

  private retryLater(): void {
    if (this.stopping || this.retryTimer !== undefined) return;
    this.failedRounds += 1;
    // No jitter: one committer per process, so there are no retries of others to spread out.
    const retryInMs = exponentialBackoffMs(this.failedRounds, { initialDelayMs: Math.max(this.intervalMs, 1), maxDelayMs: MAX_RETRY_DELAY_MS, jitter: 0 });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.progressed();
    }, retryInMs).unref();
  }

  /** False when some lane could not be committed (tried again later, with the next progress, or at the stop). */
  private async commitOnce(): Promise<boolean> {
    const due = this.lanes.filter(behind).map((lane) => ({ lane, sequence: lane.handledUpTo }));
    if (due.length === 0) return true;
    const flushed = new Map<() => Promise<void>, Promise<boolean>>();
    const flush = (hook: () => Promise<void>) => {
      let outcome = flushed.get(hook);
      if (outcome === undefined) {
        outcome = hook().then(
          () => true,
          (error: unknown) => {
            this.logger.warn({ err: error }, 'a write-behind flush failed; its offsets stay uncommitted');
            return false;
          },
        );
        flushed.set(hook, outcome);
      }
      return outcome;
    };
    const ready = await Promise.all(due.map(async (entry) => (entry.lane.beforeCommit === undefined || (await flush(entry.lane.beforeCommit)) ? entry : undefined)));
    const committable = ready.filter((entry) => entry !== undefined);
    if (committable.length === 0) return false;
    try {
      await this.eventLog.commitOffsets(committable.map(({ lane, sequence }) => ({ group: lane.group, topic: lane.topic, sequence })));
    } catch (error) {
      this.logger.warn({ lanes: committable.length, err: error }, 'could not commit the consumer offsets');
      return false;
    }
    for (const { lane, sequence } of committable) lane.committedUpTo = sequence;
    return committable.length === due.length;
  }
}

const behind = (lane: CommittableLane): boolean => lane.committedUpTo < lane.handledUpTo;
