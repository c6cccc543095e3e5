import type { MessageEnvelope } from '@ringfence/contracts';
import type { EventLogStore, LoggedEvent } from '../event-log';

/**
 * The embedded event log in memory, for unit tests. Like the database store it is idempotent
 * per topic and event id (appending an event again returns its first sequence) and sequences
 * are global across topics, so tests meet the same gaps the real log has.
 */
export class InMemoryEventLogStore implements EventLogStore {
  readonly events: LoggedEvent[] = [];
  readonly offsets = new Map<string, number>();
  /** Every commit in order, to check that offsets only move after handling. */
  readonly commits: Array<{ group: string; topic: string; sequence: number }> = [];
  private readonly sequencesByEvent = new Map<string, number>();
  private nextSequence = 1;
  private failures: Partial<Record<keyof EventLogStore, Error>> = {};

  /** Makes every later call of `operation` fail with `error` until `recover` is called. */
  failWith(operation: keyof EventLogStore, error: Error): void {
    this.failures[operation] = error;
  }

  recover(): void {
    this.failures = {};
  }

  async append(topic: string, key: string, envelope: MessageEnvelope<unknown>): Promise<number> {
    this.throwIfFailing('append');
    const eventKey = `${topic}\u0000${envelope.eventId}`;
    const existing = this.sequencesByEvent.get(eventKey);
    if (existing !== undefined) return existing;
    // The database stores JSON, so what comes back on replay is a copy, not the caller's object.
    const stored = JSON.parse(JSON.stringify(envelope)) as MessageEnvelope<unknown>;
    const sequence = this.nextSequence++;
    this.sequencesByEvent.set(eventKey, sequence);
    this.events.push({ sequence, topic, key, envelope: stored });
    return sequence;
  }

  async appendBatch(events: ReadonlyArray<{ topic: string; key: string; envelope: MessageEnvelope<unknown> }>): Promise<number[]> {
    this.throwIfFailing('appendBatch');
    const sequences: number[] = [];
    for (const { topic, key, envelope } of events) sequences.push(await this.append(topic, key, envelope));
    return sequences;
  }

  async readAfter(topic: string, afterSequence: number, limit: number): Promise<LoggedEvent[]> {
    this.throwIfFailing('readAfter');
    return this.events.filter((event) => event.topic === topic && event.sequence > afterSequence).slice(0, limit);
  }

  async committedOffset(group: string, topic: string): Promise<number> {
    this.throwIfFailing('committedOffset');
    return this.offsets.get(`${group}\u0000${topic}`) ?? 0;
  }

  async commitOffsets(offsets: ReadonlyArray<{ group: string; topic: string; sequence: number }>): Promise<void> {
    this.throwIfFailing('commitOffsets');
    for (const { group, topic, sequence } of offsets) {
      this.offsets.set(`${group}\u0000${topic}`, sequence);
      this.commits.push({ group, topic, sequence });
    }
  }

  private throwIfFailing(operation: keyof EventLogStore): void {
    const failure = this.failures[operation];
    if (failure) throw failure;
  }
}
