import { KafkaJSProtocolError } from 'kafkajs';

/**
 * Kafka's answers to a produce request that are about the message itself: sending it again gets
 * the same answer. kafkajs marks each `retriable: false`; other non-retriable answers
 * (`TOPIC_AUTHORIZATION_FAILED`, `INVALID_REQUIRED_ACKS`…) are about the client or the cluster,
 * and every message would get them, so they are outages, not a bad message.
 */
const MESSAGE_REFUSALS = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD', 'INVALID_TIMESTAMP']);

/**
 * The protocol error type when Kafka refused a produce request for the message it carried
 * (kafkajs hands it over as is, or as the cause of its `KafkaJSNonRetriableError`), else
 * undefined.
 */
export function kafkaMessageRefusal(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if (current instanceof KafkaJSProtocolError && !current.retriable && MESSAGE_REFUSALS.has(current.type)) return current.type;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
