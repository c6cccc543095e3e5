import type { ReadDependency } from '../message-bus';
import type { PartitionOffset } from './kafka-offset-reader';

export interface KafkaReadBarrierOptions {
  /** The end offset (offset after the last record) of every partition of the topics. */
  readEnds: (topics: readonly string[]) => Promise<PartitionOffset[]>;
  /** A broker-side group's committed offsets (the next offset it will consume) on the topics. */
  readCommitted: (groupId: string, topics: readonly string[]) => Promise<PartitionOffset[]>;
  /** The broker-side group id of a bus group name. */
  groupIdOf: (group: string) => string;
  /** How often a group's committed offsets are read while a request waits on it. */
  pollIntervalMs?: number;
}

export const DEFAULT_READ_BARRIER_POLL_INTERVAL_MS = 2;

/** One request waiting for a group: the partitions it still needs, and how it ends. */
interface Waiter {
  behind: PartitionOffset[];
  settle: (caughtUp: boolean) => void;
  fail: (error: unknown) => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Read your writes on Kafka. A write answered before a request was sent is below its topic's
 * end offset when the responder reads the end offsets after receiving the request; so the
 * responder waits until each group it reads from has consumed up to those offsets: the
 * partitions this process consumes by the offsets its handlers have finished, the others (a
 * group that runs in another service) by the group's committed offsets.
 *
 * This waits for every account's earlier events, not only the requester's: the broker does not
 * know which offsets belong to whom, and a writer-side list would miss writes made through
 * other processes (a label published by the labelling service, another gateway replica). Nor
 * can it wait on fewer partitions: records are keyed by account, environment and subject, so
 * one account's events are on every partition.
 *
 * What each request costs the broker is bounded: end-offset reads are coalesced (requests that
 * arrive while one read is in flight share the next), and each group has one poller of its
 * committed offsets, running every `pollIntervalMs` only while some request waits on it,
 * whatever the number of waiting requests. What is known to be consumed (handled here, or seen
 * committed) is remembered, so a request whose end offsets were already reached asks nothing more.
 */
export class KafkaReadBarrier {
  /** Per group, topic and partition: the offset before which every record is known to be consumed. */
  private readonly reached = new Map<string, number>();
  private readonly endReads = new Map<string, CoalescedRead<PartitionOffset[]>>();
  private readonly pollers = new Map<string, CommittedPoller>();
  private readonly pollIntervalMs: number;

  constructor(private readonly options: KafkaReadBarrierOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_READ_BARRIER_POLL_INTERVAL_MS;
  }

  /** Called by the consumer once a handler has finished a record. */
  recordHandled(group: string, topic: string, partition: number, offset: string): void {
    this.advance(group, topic, partition, Number(offset) + 1);
  }

  /**
   * Once every group has consumed what was written before the call: the end offsets it waited
   * for and read ahead (what a request made on behalf of this one may pass on as `known`); null
   * at the deadline.
   *
   * `known` are end offsets read after this call's own request was sent, by the process that
   * sent it (a responder asking another service on behalf of the request it answers): every
   * write the request must see is below them, so a topic they cover is not read again. Every
   * hop after the first thereby waits for the same positions without reading the broker.
   *
   * `readAhead` are topics whose end offsets are read with the dependencies' and only returned:
   * the state the handler's own requests will wait for (`RespondOptions.readsThrough`). Every
   * topic not known is read in one `readEnds` call: reads sent side by side on the admin's one
   * connection stall on librdkafka's mock (about 45 ms for ten; one after the other, about 1 ms
   * each).
   */
  async caughtUp(dependencies: readonly ReadDependency[], deadlineMs: number, known: readonly PartitionOffset[] = [], readAhead: readonly string[] = []): Promise<PartitionOffset[] | null> {
    const outcome = await this.waitFor(dependencies, deadlineMs, known, readAhead);
    return 'behind' in outcome ? null : outcome.waitedFor;
  }

  /** As `caughtUp`; at the deadline, the groups that had not caught up (a responder's failed reply names them). */
  async waitFor(
    dependencies: readonly ReadDependency[],
    deadlineMs: number,
    known: readonly PartitionOffset[] = [],
    readAhead: readonly string[] = [],
  ): Promise<{ waitedFor: PartitionOffset[] } | { behind: string[] }> {
    const knownTopics = new Set(known.map(({ topic }) => topic));
    const unknown = [...new Set([...dependencies.flatMap(({ topics }) => topics), ...readAhead])].filter((topic) => !knownTopics.has(topic));
    const ends = [...known, ...(unknown.length === 0 ? [] : await this.endsOf(unknown))];
    const outcomes = await Promise.all(
      dependencies.map(({ group, topics }) =>
        this.groupCaughtUp(
          group,
          topics,
          ends.filter(({ topic }) => topics.includes(topic)),
          deadlineMs,
        ),
      ),
    );
    if (outcomes.includes(false)) return { behind: dependencies.filter((_, index) => !outcomes[index]).map(({ group }) => group) };
    const waitedFor = new Map<string, PartitionOffset>();
    for (const end of ends) waitedFor.set(`${end.topic}\u0000${end.partition}`, end);
    return { waitedFor: [...waitedFor.values()] };
  }

  private async groupCaughtUp(group: string, topics: readonly string[], ends: readonly PartitionOffset[], deadlineMs: number): Promise<boolean> {
    const behind = this.behind(group, ends);
    if (behind.length === 0) return true;
    if (Date.now() >= deadlineMs) return false;
    const key = JSON.stringify([group, [...topics].sort()]);
    let poller = this.pollers.get(key);
    if (poller === undefined) {
      poller = new CommittedPoller(
        async () => {
          for (const { topic, partition, offset } of await this.options.readCommitted(this.options.groupIdOf(group), topics)) {
            this.advance(group, topic, partition, offset);
          }
        },
        (targets) => this.behind(group, targets),
        this.pollIntervalMs,
      );
      this.pollers.set(key, poller);
    }
    return poller.wait(behind, deadlineMs);
  }

  /** The targets (end offsets) that the group is not known to have reached. */
  private behind(group: string, targets: readonly PartitionOffset[]): PartitionOffset[] {
    return targets.filter((target) => target.offset > 0 && (this.reached.get(positionKey(group, target.topic, target.partition)) ?? 0) < target.offset);
  }

  private advance(group: string, topic: string, partition: number, offset: number): void {
    const key = positionKey(group, topic, partition);
    // Committed offsets only grow (a group reset by hand to re-handle events has already handled them once).
    if (offset > (this.reached.get(key) ?? 0)) this.reached.set(key, offset);
  }

  private endsOf(topics: readonly string[]): Promise<PartitionOffset[]> {
    const key = JSON.stringify([...topics].sort());
    let read = this.endReads.get(key);
    if (read === undefined) {
      read = new CoalescedRead(() => this.options.readEnds(topics));
      this.endReads.set(key, read);
    }
    return read.next();
  }
}

/**
 * Reads one group's committed offsets every `intervalMs` while some request waits on it, and
 * settles each waiter once the group has reached its targets, or at the waiter's deadline. A
 * committed offset only says what was consumed, whenever it was read, so every answer is
 * checked against every waiter, including those that came while it was in flight.
 */
class CommittedPoller {
  private readonly waiters = new Set<Waiter>();
  private running = false;

  constructor(
    private readonly poll: () => Promise<void>,
    private readonly behind: (targets: readonly PartitionOffset[]) => PartitionOffset[],
    private readonly intervalMs: number,
  ) {}

  wait(behind: PartitionOffset[], deadlineMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const waiter: Waiter = {
        behind,
        settle: (caughtUp) => {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          resolve(caughtUp);
        },
        fail: (error) => {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          reject(error);
        },
        timer: undefined,
      };
      waiter.timer = setTimeout(() => waiter.settle(false), Math.max(0, deadlineMs - Date.now()));
      this.waiters.add(waiter);
      if (!this.running) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.waiters.size > 0) {
        try {
          await this.poll();
          for (const waiter of [...this.waiters]) {
            waiter.behind = this.behind(waiter.behind);
            if (waiter.behind.length === 0) waiter.settle(true);
          }
        } catch (error) {
          // As a failed read always did: the requests waiting on it fail (and are logged), not hang.
          for (const waiter of [...this.waiters]) waiter.fail(error);
        }
        if (this.waiters.size > 0) await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
      }
    } finally {
      this.running = false;
    }
  }
}

/**
 * Shares one read among every caller that arrived before it started: a caller that comes while
 * a read is in flight gets the one after it, so its answer is never older than its call.
 */
class CoalescedRead<T> {
  private current: Promise<T> | undefined;
  private queued: Promise<T> | undefined;

  constructor(private readonly read: () => Promise<T>) {}

  next(): Promise<T> {
    if (this.current === undefined) return this.start();
    this.queued ??= this.current.then(
      () => this.startQueued(),
      () => this.startQueued(),
    );
    return this.queued;
  }

  private startQueued(): Promise<T> {
    this.queued = undefined;
    return this.start();
  }

  private start(): Promise<T> {
    const current = this.read().finally(() => {
      if (this.current === current) this.current = undefined;
    });
    this.current = current;
    return current;
  }
}

const positionKey = (group: string, topic: string, partition: number): string => `${group}\u0000${topic}\u0000${partition}`;
