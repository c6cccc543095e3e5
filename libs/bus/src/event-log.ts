import type { MessageEnvelope } from '@ringfence/contracts';

export interface LoggedEvent {
  /** Position in the log, increasing; consumers remember the last one they handled. */
  sequence: number;
  topic: string;
  key: string;
  envelope: MessageEnvelope<unknown>;
}

/**
 * The durable, append-only event log of the embedded mode: what Kafka is in the distributed
 * mode. The in-process bus appends before it acknowledges a publish, and replays from each
 * consumer group's committed offset on start. It is also the embedded warehouse feed.
 */
export interface EventLogStore {
  append(topic: string, key: string, envelope: MessageEnvelope<unknown>): Promise<number>;
  /**
   * Appends several events in one round trip, in the given order (their sequences increase in
   * that order), each idempotent like `append`; answers their sequences in the same order.
   */
  appendBatch(events: ReadonlyArray<{ topic: string; key: string; envelope: MessageEnvelope<unknown> }>): Promise<number[]>;
  /** Events of `topic` after `afterSequence`, oldest first, at most `limit`. */
  readAfter(topic: string, afterSequence: number, limit: number): Promise<LoggedEvent[]>;
  /** The last sequence `group` handled on `topic`, 0 when none. */
  committedOffset(group: string, topic: string): Promise<number>;
  /** Sets each group's offset on each topic exactly (a group may rewind), in one round trip. */
  commitOffsets(offsets: ReadonlyArray<{ group: string; topic: string; sequence: number }>): Promise<void>;
}

export const EVENT_LOG_STORE = Symbol('EventLogStore');
