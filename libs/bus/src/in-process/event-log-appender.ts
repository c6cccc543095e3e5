import type { MessageEnvelope } from '@ringfence/contracts';
import type { EventLogStore } from '../event-log';

/** Events appended in one batch at most; a burst larger than this takes several batches. */
const MAX_APPEND_BATCH = 256;

/** An event the log has taken: its sequence, and whether it survives a crash yet. */
export interface AppendedEvent {
  sequence: number;
  /** Resolves once the event is durable; rejects when its write failed. */
  durable: Promise<void>;
}

const DURABLE = Promise.resolve();

interface QueuedAppend {
  topic: string;
  key: string;
  envelope: MessageEnvelope<unknown>;
  resolve: (sequence: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Hands published events to the `EventLogStore`, in the order they were published.
 *
 * A log that stages (`EventLogStaging`, the LMDB log) gets each event at once: the sequence comes
 * back at once, the durability as a promise, and the log batches the writes by itself.
 * Any other log gets them by group commit: appends wait in a queue while one batch is in
 * flight, and the next batch takes them all in one `appendBatch`; the sequence comes back once
 * the event is durable. One append at a time would make every publish wait for a write of its own.
 *
 * Either way sequences are handed out in the order events reached the appender, and callers are
 * answered in that order, so events reach the lanes in sequence order and a lane can drop
 * anything at or below its position as already handled.
 */
export class EventLogAppender {
  private tail: Promise<unknown> = DURABLE;
  private inFlight = false;
  private readonly queue: QueuedAppend[] = [];

  constructor(private readonly eventLog: EventLogStore) {}

  /** The event's sequence once the log has it (staged or durable) and its durability. */
  append(topic: string, key: string, envelope: MessageEnvelope<unknown>): Promise<AppendedEvent> {
    const staging = this.eventLog.staging;
    if (staging !== undefined) {
      const { sequences, durable } = staging.stageBatch([{ topic, key, envelope }]);
      // A log that stages makes its batches durable in the order they were staged.
      this.tail = durable.catch(() => undefined);
      return Promise.resolve({ sequence: sequences[0], durable });
    }
    return this.enqueue(topic, key, envelope).then((sequence) => ({ sequence, durable: DURABLE }));
  }

  /** Resolves once the appends under way are answered (and, staged, durable or failed). */
  async drained(): Promise<void> {
    await this.tail;
  }

  private enqueue(topic: string, key: string, envelope: MessageEnvelope<unknown>): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ topic, key, envelope, resolve, reject });
      if (!this.inFlight) this.tail = this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.inFlight = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_APPEND_BATCH);
        try {
          const sequences = await this.eventLog.appendBatch(batch);
          batch.forEach((entry, index) => entry.resolve(sequences[index]));
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      this.inFlight = false;
    }
  }
}
