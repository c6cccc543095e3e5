import { randomUUID } from 'node:crypto';
import type { EventTopic, EventTopicMap, MessageEnvelope, RpcTopic, RpcTopicMap } from '@ringfence/contracts';

/**
 * The bus never looks inside payloads, so its tests carry a small marker instead of a real
 * customer or transaction; the casts keep the topic-typed API of the bus.
 */
export interface TestPayload {
  marker: string;
}

export function testEnvelope(overrides: Partial<MessageEnvelope<TestPayload>> = {}): MessageEnvelope<TestPayload> {
  return {
    eventId: randomUUID(),
    accountId: 'acct_bus_test',
    environment: 'test',
    subjectId: 'cust_1',
    acceptedAt: Date.now(),
    traceId: randomUUID(),
    payload: { marker: 'marker' },
    ...overrides,
  };
}

export function eventEnvelope<T extends EventTopic>(
  _topic: T,
  overrides: Partial<MessageEnvelope<TestPayload>> = {},
): MessageEnvelope<EventTopicMap[T]> {
  return testEnvelope(overrides) as unknown as MessageEnvelope<EventTopicMap[T]>;
}

export function requestEnvelope<T extends RpcTopic>(
  _topic: T,
  overrides: Partial<MessageEnvelope<TestPayload>> = {},
): MessageEnvelope<RpcTopicMap[T]['request']> {
  return testEnvelope(overrides) as unknown as MessageEnvelope<RpcTopicMap[T]['request']>;
}

export function markerOf(message: MessageEnvelope<unknown>): string {
  return (message.payload as TestPayload).marker;
}

/** Collects what handlers received and lets a test wait for a count, with a useful failure. */
export class Inbox<T> {
  readonly items: T[] = [];
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];

  push(item: T): void {
    this.items.push(item);
    for (const waiter of [...this.waiters]) {
      if (this.items.length >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }

  async waitFor(count: number, timeoutMs: number): Promise<T[]> {
    if (this.items.length < count) {
      let timer: NodeJS.Timeout | undefined;
      try {
        await new Promise<void>((resolve, reject) => {
          this.waiters.push({ count, resolve });
          timer = setTimeout(() => reject(new Error(`expected ${count} deliveries within ${timeoutMs} ms, got ${this.items.length}`)), timeoutMs);
        });
      } finally {
        clearTimeout(timer);
      }
    }
    return this.items;
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A BusLogger that keeps its lines, so tests can check what the bus reported. */
export class RecordingBusLogger {
  readonly lines: Array<{ level: 'error' | 'warn' | 'info' | 'debug'; message: string; fields: Record<string, unknown> }> = [];
  readonly error = (fields: Record<string, unknown>, message: string): void => void this.lines.push({ level: 'error', message, fields });
  readonly warn = (fields: Record<string, unknown>, message: string): void => void this.lines.push({ level: 'warn', message, fields });
  readonly info = (fields: Record<string, unknown>, message: string): void => void this.lines.push({ level: 'info', message, fields });
  readonly debug = (fields: Record<string, unknown>, message: string): void => void this.lines.push({ level: 'debug', message, fields });
}
