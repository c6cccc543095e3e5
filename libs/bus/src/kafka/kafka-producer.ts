import { envelopeText, type MessageEnvelope, messageKey, withoutAccountFacts } from '@ringfence/contracts';
import { type Kafka, Partitioners, type Producer } from 'kafkajs';
import { BusMessageRefusedError, BusUnavailableError } from '../bus-errors';
import type { BusLogger } from '../bus-logger';
import { type KafkaClientRetry, kafkaRetry } from './kafka-message-bus-options';
import { kafkaMessageRefusal } from './kafka-message-refusal';
import { KAFKA_HEADERS, withTimeout } from './kafka-records';

export interface KafkaProducerSettings {
  clientRetry: KafkaClientRetry;
  /** The broker's wait for replicas on each produce request. */
  requestTimeoutMs: number;
  /** Upper bound of one send, retries included. */
  publishTimeoutMs: number;
  logger: BusLogger;
  /** The bus's state, named in the error of a send while no producer is connected. */
  busState: () => string;
}

/**
 * Everything the bus writes to Kafka goes through here: events, requests and replies. A send
 * resolves once every in-sync replica has the record (`acks: -1`).
 */
export class KafkaProducer {
  private producer: Producer | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly settings: KafkaProducerSettings,
  ) {}

  async connect(): Promise<void> {
    const producer = this.kafka.producer({
      allowAutoTopicCreation: false,
      // The librdkafka mock cannot serve the idempotent producer; ordering relies on awaiting each send.
      idempotent: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: kafkaRetry(this.settings.clientRetry),
    });
    this.producer = producer;
    await producer.connect();
  }

  /** An event, keyed by `messageKey` so a key's events share a partition and stay in order. */
  async publish(topic: string, published: MessageEnvelope<unknown>): Promise<void> {
    const message = withoutAccountFacts(published);
    await this.send(topic, messageKey(message), envelopeText(message), { [KAFKA_HEADERS.eventId]: message.eventId });
  }

  /**
   * Resolves once every in-sync replica has the record. A record Kafka refuses for what it is
   * (too large, invalid) is `BusMessageRefusedError`: sending it again would not help. Anything
   * else is `BusUnavailableError`.
   */
  async send(topic: string, key: string, value: string, headers: Record<string, string>): Promise<void> {
    const producer = this.producer;
    if (producer === undefined) throw new BusUnavailableError(`the bus is ${this.settings.busState()}`);
    const { requestTimeoutMs, publishTimeoutMs } = this.settings;
    try {
      await withTimeout(
        producer.send({ topic, acks: -1, timeout: requestTimeoutMs, messages: [{ key, value, headers }] }),
        publishTimeoutMs,
        `no acknowledgement within ${publishTimeoutMs} ms`,
      );
    } catch (error) {
      const refusal = kafkaMessageRefusal(error);
      if (refusal !== undefined) throw new BusMessageRefusedError(topic, refusal, error);
      throw new BusUnavailableError(`Kafka did not accept the message on ${topic}`, error);
    }
  }

  async disconnect(): Promise<void> {
    await this.producer?.disconnect().catch((error: unknown) => this.settings.logger.warn({ err: error }, 'producer did not disconnect cleanly'));
    this.producer = undefined;
  }
}
