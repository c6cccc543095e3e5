import type { KafkaConfig } from 'kafkajs';
import type { BusLogger } from '../bus-logger';
import type { HandlerRetryOptions } from '../handler-retry';

export interface KafkaConsumerTuning {
  /** The broker drops a member it has not heard from for this long. Kafka's minimum is 6 s. */
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** How long the coordinator waits for every member to rejoin during a rebalance. */
  rebalanceTimeoutMs: number;
  /**
   * Longest a fetch waits for data. A real broker answers as soon as data arrives, so this only
   * sets the idle polling rate; librdkafka's mock answers after the full wait, so tests on it
   * keep this to a few milliseconds.
   */
  maxWaitTimeInMs: number;
  /** Partitions a consumer handles at once; order holds within each partition. */
  partitionsConsumedConcurrently: number;
  /**
   * Event consumers commit at the end of every fetched batch, and within a batch once this long
   * has passed since the last commit: a request waiting (read your writes) on a group in
   * another process sees an event as soon as it is committed, so without this it would wait for
   * the rest of the batch under load.
   */
  commitIntervalMs: number;
}

export interface KafkaClientRetry {
  retries: number;
  initialRetryTimeMs: number;
  maxRetryTimeMs: number;
}

export interface KafkaMessageBusOptions {
  brokers: string[];
  clientId: string;
  /**
   * Names this process in reply routing; unique per running instance (default: host, pid and
   * a random suffix). Replies to other instances are read and dropped.
   */
  instanceId?: string;
  /** Prefix of every consumer group id, so the bus's groups are easy to find on the broker. */
  groupIdPrefix?: string;
  /** TCP connect timeout per broker. */
  connectionTimeoutMs?: number;
  /** Timeout of one Kafka request, and the broker's wait for replicas to acknowledge. */
  requestTimeoutMs?: number;
  /** Upper bound of one publish, retries included; past it the publish is unavailable. */
  publishTimeoutMs?: number;
  /** Upper bound of `start()`: connecting, joining every group and positioning every consumer. */
  startTimeoutMs?: number;
  /** kafkajs's retry of failed broker requests; small, so an outage surfaces in a few seconds. */
  retry?: Partial<KafkaClientRetry>;
  consumer?: Partial<KafkaConsumerTuning>;
  /** Backoff of a throwing event handler; defaults to `DEFAULT_HANDLER_RETRY`. */
  handlerRetry?: Partial<HandlerRetryOptions>;
  /**
   * Whether this instance sends requests. A requester reads the whole reply topic with its own
   * group; services that only publish and consume set this to false to save that traffic.
   */
  consumeReplies?: boolean;
  ssl?: KafkaConfig['ssl'];
  sasl?: KafkaConfig['sasl'];
  logger?: BusLogger;
}

export const DEFAULT_KAFKA_CONSUMER_TUNING: KafkaConsumerTuning = {
  sessionTimeoutMs: 10_000,
  heartbeatIntervalMs: 1_000,
  rebalanceTimeoutMs: 10_000,
  maxWaitTimeInMs: 100,
  partitionsConsumedConcurrently: 4,
  commitIntervalMs: 20,
};

export const DEFAULT_KAFKA_CLIENT_RETRY: KafkaClientRetry = { retries: 2, initialRetryTimeMs: 100, maxRetryTimeMs: 1_000 };

/** kafkajs's retry settings, given to the client and to each producer, consumer and admin. */
export function kafkaRetry(retry: KafkaClientRetry): NonNullable<KafkaConfig['retry']> {
  return { retries: retry.retries, initialRetryTime: retry.initialRetryTimeMs, maxRetryTime: retry.maxRetryTimeMs };
}
