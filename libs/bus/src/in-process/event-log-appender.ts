import type { MessageEnvelope } from '@ringfence/contracts';
import type { EventLogStore } from '../event-log';

/** Events appended in one batch at most; a burst larger than this takes several batches. */
const MAX_APPEND_BATCH = 256;

interface QueuedAppend {
  topic: string;
  key: string;
  envelope: MessageEnvelope<unknown>;
  resolve: (sequence: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Makes published events durable in the `EventLogStore`, by group commit: appends wait in a
 * queue while one batch is in flight, and the next batch takes them all in one `appendBatch`
 * (on LMDB, one transaction and one flush to disk).
 * Sequences are handed out in the order events reached the queue, and callers are answered in
 * that order, so events reach the lanes in sequence order and a lane can drop anything at or
 * below its position as already handled. One append at a time would make every publish wait for
 * a flush of its own.
 */
export class EventLogAppender {
  private tail: Promise<unknown> = Promise.resolve();
  private inFlight = false;
  private readonly queue: QueuedAppend[] = [];

  constructor(private readonly eventLog: EventLogStore) {}

  /** The event's sequence once the log has it. */
  append(topic: string, key: string, envelope: MessageEnvelope<unknown>): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ topic, key, envelope, resolve, reject });
      if (!this.inFlight) this.tail = this.flush();
    });
  }

  /** Resolves once the appends under way are answered. */
  async drained(): Promise<void> {
    await this.tail;
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
