import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin } from 'kafkajs';
import type { ReadDependency } from '../message-bus';

/** One partition a group must reach: `end` is the offset after the last record (Kafka's high watermark). */
interface PartitionTarget {
  topic: string;
  partition: number;
  end: number;
}

export interface KafkaReadBarrierOptions {
  admin: () => Admin | undefined;
  /** The broker-side group id of a bus group name. */
  groupIdOf: (group: string) => string;
  /** How often committed offsets are read again while a group is behind. */
  pollIntervalMs?: number;
}

/**
 * Read your writes on Kafka. A write answered before a request was sent is below its topic's
 * high watermark when the responder reads the watermarks after receiving the request; so the
 * responder waits until each group it reads from has consumed up to those watermarks: the
 * partitions this process consumes by the offsets its handlers have finished, the others (a
 * group that runs in another service) by the group's committed offsets.
 *
 * This waits for every account's earlier events, not only the requester's: the broker does not
 * know which offsets belong to whom, and a writer-side list would miss writes made through
 * other processes (a label published by the labelling service, another gateway replica).
 * Watermark reads are coalesced: requests that arrive while one read is in flight share the next.
 */
export class KafkaReadBarrier {
  private readonly handled = new Map<string, number>();
  private readonly endReads = new Map<string, CoalescedRead<PartitionTarget[]>>();
  private readonly pollIntervalMs: number;

  constructor(private readonly options: KafkaReadBarrierOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 5;
  }

  /** Called by the consumer once a handler has finished a record. */
  recordHandled(group: string, topic: string, partition: number, offset: string): void {
    const key = positionKey(group, topic, partition);
    this.handled.set(key, Math.max(this.handled.get(key) ?? -1, Number(offset)));
  }

  /** True once every group has consumed what was written before the call; false at the deadline. */
  async caughtUp(dependencies: readonly ReadDependency[], deadlineMs: number): Promise<boolean> {
    const outcomes = await Promise.all(dependencies.map(({ group, topics }) => this.groupCaughtUp(group, topics, deadlineMs)));
    return outcomes.every(Boolean);
  }

  private async groupCaughtUp(group: string, topics: readonly string[], deadlineMs: number): Promise<boolean> {
    let behind = (await this.endsOf(group, topics)).filter((target) => target.end > 0);
    for (;;) {
      behind = behind.filter((target) => (this.handled.get(positionKey(group, target.topic, target.partition)) ?? -1) + 1 < target.end);
      if (behind.length === 0) return true;
      const committed = await this.committedOffsets(group, [...new Set(behind.map((target) => target.topic))]);
      behind = behind.filter((target) => (committed.get(`${target.topic}\u0000${target.partition}`) ?? -1) < target.end);
      if (behind.length === 0) return true;
      if (Date.now() + this.pollIntervalMs >= deadlineMs) return false;
      await sleep(this.pollIntervalMs);
    }
  }

  private endsOf(group: string, topics: readonly string[]): Promise<PartitionTarget[]> {
    const key = JSON.stringify([group, topics]);
    let read = this.endReads.get(key);
    if (read === undefined) {
      read = new CoalescedRead(async () => {
        const perTopic = await Promise.all(
          topics.map(async (topic) => (await this.admin().fetchTopicOffsets(topic)).map(({ partition, high }) => ({ topic, partition, end: Number(high) }))),
        );
        return perTopic.flat();
      });
      this.endReads.set(key, read);
    }
    return read.next();
  }

  private async committedOffsets(group: string, topics: string[]): Promise<Map<string, number>> {
    const offsets = await this.admin().fetchOffsets({ groupId: this.options.groupIdOf(group), topics });
    const committed = new Map<string, number>();
    for (const { topic, partitions } of offsets) {
      for (const { partition, offset } of partitions) committed.set(`${topic}\u0000${partition}`, Number(offset));
    }
    return committed;
  }

  private admin(): Admin {
    const admin = this.options.admin();
    if (admin === undefined) throw new Error('the Kafka admin client is not connected');
    return admin;
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
