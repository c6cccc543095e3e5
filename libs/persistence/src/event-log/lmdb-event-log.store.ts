import type { EventLogStaging, EventLogStore, EventToAppend, LoggedEvent, StagedAppend } from '@ringfence/bus';
import { envelopeText, type MessageEnvelope } from '@ringfence/contracts';
import { type Database, type RootDatabase, open } from 'lmdb';

/** An event's place: its topic, then its sequence, so one topic's events are one ordered range. */
type EventKey = [topic: string, sequence: number];
/** What is kept of an event: its message key and its envelope's JSON, as written. */
type StoredEvent = [messageKey: string, envelope: string];
type EventIdKey = [topic: string, eventId: string];

/** Where the consumers' offsets are kept: beside the projections they describe. */
export type ConsumerOffsets = Pick<EventLogStore, 'committedOffset' | 'commitOffsets'>;

const LAST_SEQUENCE = 'lastSequence';
const SQL_LOG_IMPORTED = 'sqlEventLogImported';

/** One event as the SQL event log held it, for `importEvents`. */
export interface ImportedEvent {
  sequence: number;
  topic: string;
  key: string;
  eventId: string;
  envelope: string;
}

/**
 * The embedded mode's event log on LMDB (the `lmdb` package), under `<dataDir>/event-log`: one
 * durable append per publish, made for it (ADR-0010, docs/architecture.md "The embedded event log").
 *
 * Appends are asynchronous `put`s: LMDB's write thread takes every write queued meanwhile into
 * one transaction, committed and then flushed (`fdatasync`) off the main thread, with no call
 * back into JavaScript on the way (an asynchronous `transaction` would need the busy main thread
 * twice). `appendBatch` is answered once its writes are flushed (`root.flushed`), so a `kill -9`,
 * or the machine's crash, loses nothing acknowledged; `stageBatch` answers the sequences at once
 * and the flush as a promise (`EventLogStaging`). Reads are synchronous lookups in a memory map,
 * which sees every committed transaction.
 *
 * The consumer groups' offsets are not kept here but with the tables the consumers write
 * (`offsets`, the relational database's `consumer_offsets`): an offset then never outlives the
 * projection writes it counts. The embedded database does not fsync (docs/architecture.md), so
 * after a power loss it may lose its last writes; its offsets go back with them, and the
 * consumers replay those events from this log, which kept them.
 *
 * Appends are idempotent per topic and `envelope.eventId`, as the SQL log's were: an event
 * appended again gets the sequence it got the first time, also while that first append is still
 * being written. Sequences are handed out when a batch is staged, so they increase in the
 * order of the calls and of the events within one, and the transactions commit in that order:
 * a reader never sees a later sequence of a topic before an earlier one.
 */
export class LmdbEventLogStore implements EventLogStore, EventLogStaging {
  private readonly root: RootDatabase;
  private readonly events: Database<StoredEvent, EventKey>;
  private readonly sequencesByEventId: Database<number, EventIdKey>;
  private readonly meta: Database<number | boolean, string>;
  private lastSequence: number;
  private durableSequence: number;
  /** Sequences of events handed out but not yet committed, by `idOf`: a repeated append answers the same. */
  private readonly unwritten = new Map<string, number>();
  /** The store stages its own appends (`EventLogStaging`). */
  readonly staging: EventLogStaging = this;

  constructor(
    path: string,
    private readonly offsets: ConsumerOffsets,
  ) {
    this.root = open({ path, compression: false });
    this.events = this.root.openDB({ name: 'events', encoding: 'msgpack' });
    this.sequencesByEventId = this.root.openDB({ name: 'event-ids', encoding: 'msgpack' });
    this.meta = this.root.openDB({ name: 'meta', encoding: 'msgpack' });
    this.lastSequence = Number(this.meta.get(LAST_SEQUENCE) ?? 0);
    this.durableSequence = this.lastSequence;
  }

  append(topic: string, key: string, envelope: MessageEnvelope<unknown>): Promise<number> {
    return this.appendBatch([{ topic, key, envelope }]).then(([sequence]) => sequence);
  }

  async appendBatch(events: readonly EventToAppend[]): Promise<number[]> {
    const { sequences, durable } = this.stageBatch(events);
    await durable;
    return sequences;
  }

  /**
   * Queues the batch's writes on LMDB's write thread (asynchronous `put`s: all of one event
   * turn go in one transaction, with the last sequence) and answers its sequences at once.
   */
  stageBatch(events: readonly EventToAppend[]): StagedAppend {
    const sequences: number[] = [];
    const writes: Array<Promise<boolean>> = [];
    const ids: string[] = [];
    const forget = () => ids.forEach((id) => this.unwritten.delete(id));
    try {
      for (const { topic, key, envelope } of events) {
        const id = idOf(topic, envelope.eventId);
        const known = this.unwritten.get(id) ?? this.sequencesByEventId.get([topic, envelope.eventId]);
        if (known !== undefined) {
          sequences.push(known);
          continue;
        }
        const sequence = (this.lastSequence += 1);
        this.unwritten.set(id, sequence);
        ids.push(id);
        sequences.push(sequence);
        writes.push(this.events.put([topic, sequence], [key, envelopeText(envelope)]), this.sequencesByEventId.put([topic, envelope.eventId], sequence));
      }
      if (writes.length > 0) writes.push(this.meta.put(LAST_SEQUENCE, this.lastSequence));
    } catch (error) {
      // A closed database refuses the `put` itself; the sequences handed out stay unused.
      forget();
      return { sequences, durable: Promise.reject(error) };
    }
    const highest = this.lastSequence;
    const durable = this.durably(writes, highest, forget);
    return { sequences, durable };
  }

  readable(): Promise<void> {
    return Promise.resolve(this.root.committed).then(() => undefined);
  }

  get durableUpTo(): number {
    return this.durableSequence;
  }

  readAfter(topic: string, afterSequence: number, limit: number): Promise<LoggedEvent[]> {
    const read: LoggedEvent[] = [];
    const range = this.events.getRange({ start: [topic, afterSequence + 1], end: [topic, Number.MAX_SAFE_INTEGER], limit });
    for (const { key, value } of range) {
      read.push({ sequence: key[1], topic, key: value[0], envelope: JSON.parse(value[1]) as MessageEnvelope<unknown> });
    }
    return Promise.resolve(read);
  }

  committedOffset(group: string, topic: string): Promise<number> {
    return this.offsets.committedOffset(group, topic);
  }

  commitOffsets(offsets: ReadonlyArray<{ group: string; topic: string; sequence: number }>): Promise<void> {
    return this.offsets.commitOffsets(offsets);
  }

  /** Whether the SQL event log of an earlier version was copied here (`importSqlEventLog`). */
  get importedSqlLog(): boolean {
    return this.meta.get(SQL_LOG_IMPORTED) === true;
  }

  /** Copies events of the SQL event log with their sequences; the next append follows the last. */
  async importEvents(events: readonly ImportedEvent[]): Promise<void> {
    const writes: Array<Promise<boolean>> = [];
    for (const { sequence, topic, key, eventId, envelope } of events) {
      writes.push(this.events.put([topic, sequence], [key, envelope]), this.sequencesByEventId.put([topic, eventId], sequence));
    }
    this.lastSequence = Math.max(this.lastSequence, ...events.map((event) => event.sequence));
    writes.push(this.meta.put(LAST_SEQUENCE, this.lastSequence));
    await this.durably(writes, this.lastSequence, () => undefined);
  }

  /** Marks the SQL event log as copied. */
  async finishSqlImport(): Promise<void> {
    await this.durably([this.meta.put(SQL_LOG_IMPORTED, true)], this.durableSequence, () => undefined);
  }

  async close(): Promise<void> {
    await this.root.close();
  }

  /**
   * Resolves once `writes` are committed and flushed to disk, and `durableUpTo` with them. With
   * no writes it still waits for the flush of what is under way, which holds any earlier append
   * of an event the batch only repeated. `settled` runs once the outcome is known.
   */
  private async durably(writes: ReadonlyArray<Promise<boolean>>, highest: number, settled: () => void): Promise<void> {
    try {
      await Promise.all(writes);
      await this.root.flushed;
      // LMDB commits and flushes transactions in the order they were queued: every sequence up
      // to `highest` is on disk now.
      this.durableSequence = Math.max(this.durableSequence, highest);
    } finally {
      settled();
    }
  }
}

function idOf(topic: string, eventId: string): string {
  return `${topic}\u0000${eventId}`;
}
