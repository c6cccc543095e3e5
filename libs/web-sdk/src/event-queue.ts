import type { DeviceReport } from './device-info';
import { utf8Length } from './bytes';

/** The event types ADR-0015 names; any other name matching EVENT_TYPE_PATTERN is a custom event. */
export const EVENT_TYPES = ['pageview', 'click', 'paste', 'form-submit', 'resize', 'visibility', 'login', 'logout', 'checkout'] as const;
/** The server's `eventType` pattern (libs/contracts validation/patterns.ts). */
export const EVENT_TYPE_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9-_]*$/;
/** The server's limits on one `POST /v2/client/events`. */
export const MAX_EVENTS_PER_BATCH = 100;
export const MAX_BATCH_BYTES = 32 * 1024;
/** Beyond this many unsent events (the server unreachable), the oldest are dropped. */
export const MAX_QUEUED_EVENTS = 1000;
/** A URL or referrer longer than this is cut: one event always fits a batch. */
export const MAX_TEXT_LENGTH = 1024;
/** An element's name or kind longer than this is cut (the server takes 300). */
export const MAX_NAME_LENGTH = 100;
/** The longest event type the server takes. */
export const MAX_EVENT_TYPE_LENGTH = 64;

export interface PageRef {
  url: string;
  referrer?: string;
}

/** Which element an event happened on: its name and kind, never its value. */
export interface ElementRef {
  name?: string;
  kind?: string;
}

export interface SessionEvent {
  type: string;
  /** Milliseconds since the epoch. */
  time: number;
  page?: PageRef;
  element?: ElementRef;
}

/** What every batch carries besides its events. */
export interface BatchEnvelope {
  timestamp: number;
  deviceId: string;
  sessionId: string;
  customerId?: string;
  device?: DeviceReport;
}

export interface Batch {
  /** The JSON body, at most MAX_BATCH_BYTES. */
  body: string;
  events: SessionEvent[];
}

/** Cuts text to `length` (MAX_TEXT_LENGTH by default), so that no single event can outgrow a batch. */
export function clip(text: string, length = MAX_TEXT_LENGTH): string {
  return text.length > length ? text.slice(0, length) : text;
}

/**
 * The events not sent yet, in order. A batch takes as many from the front as fit the server's
 * limits (count and bytes of the whole body); events that failed to send go back to the front.
 */
export class EventQueue {
  private events: SessionEvent[] = [];

  constructor(private readonly capacity = MAX_QUEUED_EVENTS) {}

  get size(): number {
    return this.events.length;
  }

  push(event: SessionEvent): void {
    this.events.push(event);
    this.trim();
  }

  /** Puts a batch that failed back in front of what came since. */
  requeue(events: SessionEvent[]): void {
    this.events = [...events, ...this.events];
    this.trim();
  }

  /** The next batch, or undefined when nothing is queued. */
  take(envelope: BatchEnvelope): Batch | undefined {
    const base = utf8Length(JSON.stringify({ ...envelope, events: [] }));
    const taken: SessionEvent[] = [];
    let bytes = base;
    while (taken.length < MAX_EVENTS_PER_BATCH && taken.length < this.events.length) {
      const event = this.events[taken.length];
      // Each event after the first adds a comma between it and the one before.
      const size = utf8Length(JSON.stringify(event)) + (taken.length > 0 ? 1 : 0);
      if (bytes + size > MAX_BATCH_BYTES) break;
      bytes += size;
      taken.push(event);
    }
    if (taken.length === 0) {
      // Only an envelope too large for any event (never with clipped texts): nothing can be sent.
      this.events = this.events.slice(1);
      return this.events.length > 0 ? this.take(envelope) : undefined;
    }
    this.events = this.events.slice(taken.length);
    return { body: JSON.stringify({ ...envelope, events: taken }), events: taken };
  }

  private trim(): void {
    if (this.events.length > this.capacity) this.events = this.events.slice(this.events.length - this.capacity);
  }
}
