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
/** An event to append: the topic, the message key (its order), the envelope. */
export interface EventToAppend {
  topic: string;
  key: string;
  envelope: MessageEnvelope<unknown>;
}

/** A batch handed to the log without waiting for it (`EventLogStaging.stageBatch`). */
export interface StagedAppend {
  /** The events' sequences, in the batch's order, handed out when the batch was staged. */
  sequences: number[];
  /** Resolves once every event of the batch survives a crash; rejects when its write failed. */
  durable: Promise<void>;
}

/**
 * What a log that takes appends without waiting for them offers (the embedded LMDB log): the
 * bus hands a staged event to its consumers at once and its publisher waits for `durable` only
 * before answering, so a checkpoint waits for the disk once, not once per event it publishes.
 */
export interface EventLogStaging {
  /**
   * Hands out the batch's sequences at once (in call order, as `appendBatch` does) and starts
   * writing it; each event idempotent like `append`. Batches become durable in the order they
   * were staged.
   */
  stageBatch(events: readonly EventToAppend[]): StagedAppend;
  /**
   * The last sequence known to survive a crash. A consumer may handle a staged event before
   * then, but no offset is committed past it: after a crash, sequences above it may be handed
   * out again, to other events.
   */
  readonly durableUpTo: number;
  /** Resolves once every event staged so far can be read by `readAfter`. */
  readable(): Promise<void>;
}

export interface EventLogStore {
  append(topic: string, key: string, envelope: MessageEnvelope<unknown>): Promise<number>;
  /**
   * Appends several events in one round trip, in the given order (their sequences increase in
   * that order), each idempotent like `append`; answers their sequences in the same order.
   */
  appendBatch(events: readonly EventToAppend[]): Promise<number[]>;
  /** Events of `topic` after `afterSequence`, oldest first, at most `limit`. */
  readAfter(topic: string, afterSequence: number, limit: number): Promise<LoggedEvent[]>;
  /** The last sequence `group` handled on `topic`, 0 when none. */
  committedOffset(group: string, topic: string): Promise<number>;
  /** Sets each group's offset on each topic exactly (a group may rewind), in one round trip. */
  commitOffsets(offsets: ReadonlyArray<{ group: string; topic: string; sequence: number }>): Promise<void>;
  /** Present when the log can take appends without waiting for them (`EventLogStaging`). */
  readonly staging?: EventLogStaging;
}

export const EVENT_LOG_STORE = Symbol('EventLogStore');
