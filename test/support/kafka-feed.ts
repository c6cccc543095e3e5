import { Kafka, logLevel } from 'kafkajs';

export interface KafkaFeedMessage {
  topic: string;
  partition: number;
  offset: string;
  /** The record's value, parsed as JSON (the string itself when it is not JSON). */
  value: unknown;
}

/**
 * Reads every record of `topics` from the beginning up to the end they had when the call
 * started (their high watermarks), as a warehouse consumer would, in a consumer group of its
 * own. For checking what the distributed mode published; not for production use.
 */
export async function readKafkaTopics(brokers: string[], topics: readonly string[], timeoutMs = 60_000): Promise<KafkaFeedMessage[]> {
  const kafka = new Kafka({ clientId: 'ringfence-feed-check', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const remaining = new Map<string, bigint>();
  try {
    for (const topic of topics) {
      for (const { partition, high, low } of await admin.fetchTopicOffsets(topic)) {
        if (BigInt(high) > BigInt(low)) remaining.set(`${topic}/${partition}`, BigInt(high));
      }
    }
  } finally {
    await admin.disconnect();
  }
  const messages: KafkaFeedMessage[] = [];
  if (remaining.size === 0) return messages;
  const consumer = kafka.consumer({ groupId: `ringfence-feed-check-${process.pid}-${Date.now()}`, maxWaitTimeInMs: 50 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [...topics], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${messages.length} records, but ${[...remaining.keys()].join(', ')} did not reach their end in ${timeoutMs} ms`)), timeoutMs);
      consumer
        .run({
          eachMessage: async ({ topic, partition, message }) => {
            const key = `${topic}/${partition}`;
            const end = remaining.get(key);
            if (end === undefined || BigInt(message.offset) >= end) return;
            const text = message.value?.toString('utf8') ?? '';
            let value: unknown = text;
            try {
              value = JSON.parse(text);
            } catch {
              // kept as text: the schema check reports it
            }
            messages.push({ topic, partition, offset: message.offset, value });
            if (BigInt(message.offset) + 1n >= end) remaining.delete(key);
            if (remaining.size === 0) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch((error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        });
    });
  } finally {
    await consumer.disconnect();
  }
  return messages;
}
