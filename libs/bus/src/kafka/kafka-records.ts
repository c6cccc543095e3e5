import type { MessageEnvelope, RpcReply } from '@ringfence/contracts';
import type { IHeaders } from 'kafkajs';
import type { PartitionOffset } from './kafka-offset-reader';

/** The headers the bus puts on Kafka records; other tools (and the warehouse) may read them. */
export const KAFKA_HEADERS = {
  eventId: 'event-id',
  correlationId: 'correlation-id',
  replyTo: 'reply-to',
  replyInstance: 'reply-instance',
  /** Epoch milliseconds after which the requester has given up; responders skip the request. */
  deadline: 'request-deadline',
  /**
   * On a request sent while answering another: the end offsets that answer's read barrier waited
   * for, as JSON `{topic: {partition: offset}}`. The responder waits for these instead of reading
   * the broker again (`KafkaReadBarrier.caughtUp`'s `known`).
   */
  readPositions: 'read-positions',
} as const;

export function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const single = Array.isArray(value) ? value[0] : value;
  return single === undefined ? undefined : single.toString();
}

export function encodeReadPositions(positions: readonly PartitionOffset[]): string {
  const byTopic: Record<string, Record<string, number>> = {};
  for (const { topic, partition, offset } of positions) (byTopic[topic] ??= {})[partition] = offset;
  return JSON.stringify(byTopic);
}

/** The positions of a `read-positions` header; none when it is absent or not exactly that shape. */
export function decodeReadPositions(text: string | undefined): PartitionOffset[] {
  if (text === undefined) return [];
  try {
    const byTopic: unknown = JSON.parse(text);
    if (typeof byTopic !== 'object' || byTopic === null || Array.isArray(byTopic)) return [];
    const positions: PartitionOffset[] = [];
    for (const [topic, partitions] of Object.entries(byTopic)) {
      if (typeof partitions !== 'object' || partitions === null || Array.isArray(partitions)) return [];
      for (const [partition, offset] of Object.entries(partitions)) {
        if (!/^\d+$/.test(partition) || !Number.isSafeInteger(offset) || (offset as number) < 0) return [];
        positions.push({ topic, partition: Number(partition), offset: offset as number });
      }
    }
    return positions;
  } catch {
    return [];
  }
}

/** The record's value as JSON; undefined when it has none or it does not parse. */
export function parsedValue(value: Buffer | null): unknown {
  if (value === null) return undefined;
  try {
    return JSON.parse(value.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function isEnvelope(value: unknown): value is MessageEnvelope<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { eventId?: unknown }).eventId === 'string';
}

export function isRpcReply(value: unknown): value is RpcReply<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as { ok?: unknown; error?: { code?: unknown; status?: unknown; message?: unknown } };
  if (reply.ok === true) return true;
  return (
    reply.ok === false &&
    typeof reply.error?.code === 'string' &&
    typeof reply.error.status === 'number' &&
    typeof reply.error.message === 'string'
  );
}

/** `promise`, or a rejection with `message` once `ms` have passed. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
