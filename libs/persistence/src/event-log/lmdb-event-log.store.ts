import type { EventLogStore, LoggedEvent } from '@ringfence/bus';
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
 * LMDB batches every write queued while its write thread is busy into one transaction, committed
 * and then flushed (`fdatasync`) off the main thread; an append is answered once its
 * transaction is flushed (`root.flushed`), so a `kill -9`, or the machine's crash, loses nothing
 * acknowledged. Reads are synchronous lookups in a memory map, which sees every committed
 * transaction.
 *
 * The consumer groups' offsets are not kept here but with the tables the consumers write
 * (`offsets`, the relational database's `consumer_offsets`): an offset then never outlives the
 * projection writes it counts. The embedded database does not fsync (docs/architecture.md), so
 * after a power loss it may lose its last writes; its offsets go back with them, and the
 * consumers replay those events from this log, which kept them.
 *
 * Appends are idempotent per topic and `envelope.eventId`, as the SQL log's were: an event
 * appended again gets the sequence it got the first time, also while that first append is still
 * being written. Sequences are handed out when `appendBatch` is called, so they increase in the
 * order of the calls and of the events within one, and the transactions commit in that order:
 * a reader never sees a later sequence of a topic before an earlier one.
 */
export class LmdbEventLogStore implements EventLogStore {
  private readonly root: RootDatabase;
  private readonly events: Database<StoredEvent, EventKey>;
  private readonly sequencesByEventId: Database<number, EventIdKey>;
  private readonly meta: Database<number | boolean, string>;
  private lastSequence: number;
  /** Sequences of events handed out but not yet committed, by `idOf`: a repeated append answers the same. */
  private readonly unwritten = new Map<string, number>();

  constructor(
    path: string,
    private readonly offsets: ConsumerOffsets,
  ) {
    this.root = open({ path, compression: false });
    this.events = this.root.openDB({ name: 'events', encoding: 'msgpack' });
    this.sequencesByEventId = this.root.openDB({ name: 'event-ids', encoding: 'msgpack' });
    this.meta = this.root.openDB({ name: 'meta', encoding: 'msgpack' });
    this.lastSequence = Number(this.meta.get(LAST_SEQUENCE) ?? 0);
  }

  append(topic: string, key: string, envelope: MessageEnvelope<unknown>): Promise<number> {
    return this.appendBatch([{ topic, key, envelope }]).then(([sequence]) => sequence);
  }

  async appendBatch(events: ReadonlyArray<{ topic: string; key: string; envelope: MessageEnvelope<unknown> }>): Promise<number[]> {
    const sequences: number[] = [];
    const fresh: Array<{ id: string; write: Write }> = [];
    for (const { topic, key, envelope } of events) {
      const id = idOf(topic, envelope.eventId);
      const known = this.unwritten.get(id) ?? this.sequencesByEventId.get([topic, envelope.eventId]);
      if (known !== undefined) {
        sequences.push(known);
        continue;
      }
      const sequence = (this.lastSequence += 1);
      const stored: StoredEvent = [key, envelopeText(envelope)];
      this.unwritten.set(id, sequence);
      sequences.push(sequence);
      fresh.push({
        id,
        write: () => [this.events.put([topic, sequence], stored), this.sequencesByEventId.put([topic, envelope.eventId], sequence)],
      });
    }
    await this.durably(fresh.map((event) => event.write), () => fresh.forEach((event) => this.unwritten.delete(event.id)));
    return sequences;
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
    const writes = events.map(({ sequence, topic, key, eventId, envelope }): Write => () => [this.events.put([topic, sequence], [key, envelope]), this.sequencesByEventId.put([topic, eventId], sequence)]);
    this.lastSequence = Math.max(this.lastSequence, ...events.map((event) => event.sequence));
    await this.durably(writes, () => undefined);
  }

  /** Marks the SQL event log as copied. */
  async finishSqlImport(): Promise<void> {
    await this.durably([() => [this.meta.put(SQL_LOG_IMPORTED, true)]], () => undefined);
  }

  async close(): Promise<void> {
    await this.root.close();
  }

  /**
   * Queues `writes` with the last sequence, and resolves once they are committed and flushed to
   * disk. With no writes it still waits for the flush of what is under way, which holds any
   * earlier append of an event this batch only repeated. `settled` runs once the outcome is known.
   *
   * Asynchronous puts, not a `transaction` callback: lmdb-js writes puts queued in one event-loop
   * turn in one transaction, entirely on its write thread, whereas a callback must wait for the
   * main thread while holding the write lock. Under load the main thread is busy, and that wait
   * was most of an append's time (docs/performance.md). Every put here is queued in one turn, and
   * this store makes no synchronous write (which would split a batch), so the events and the last
   * sequence are committed together.
   */
  private async durably(writes: readonly Write[], settled: () => void): Promise<void> {
    try {
      if (writes.length > 0) {
        const puts = writes.flatMap((write) => write());
        puts.push(this.meta.put(LAST_SEQUENCE, this.lastSequence));
        await Promise.all(puts);
      }
      await this.root.flushed;
    } finally {
      settled();
    }
  }
}

/** Queues an event's puts (the event and its id's sequence), answering their commits. */
type Write = () => Array<Promise<boolean>>;

function idOf(topic: string, eventId: string): string {
  return `${topic}\u0000${eventId}`;
}
