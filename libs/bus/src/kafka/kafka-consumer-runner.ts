import { type Consumer, type EachMessagePayload, type Kafka } from 'kafkajs';
import { BusUnavailableError } from '../bus-errors';
import type { BusLogger } from '../bus-logger';
import { type KafkaClientRetry, type KafkaConsumerTuning, kafkaRetry } from './kafka-message-bus-options';

/** One kafkajs consumer the bus runs: an event group, a responder group or the reply reader. */
export interface ConsumerSpec {
  groupId: string;
  topics: string[];
  /** A new group reads events from the start (as the embedded log does); requests and replies only from now. */
  fromBeginning: boolean;
  autoCommit: boolean;
  /** Commit within a batch too, once this long has passed since the last commit (else at its end). */
  autoCommitIntervalMs?: number;
  eachMessage: (payload: EachMessagePayload) => Promise<void>;
}

interface RunningConsumer {
  groupId: string;
  consumer: Consumer;
  /** False after a crash until kafkajs has rejoined the group. */
  healthy: boolean;
}

export interface KafkaConsumerRunnerSettings {
  tuning: KafkaConsumerTuning;
  clientRetry: KafkaClientRetry;
  logger: BusLogger;
}

/** Starts the bus's kafkajs consumers, tells whether they are all in their groups, and stops them. */
export class KafkaConsumerRunner {
  private consumers: RunningConsumer[] = [];

  constructor(
    private readonly kafka: Kafka,
    private readonly settings: KafkaConsumerRunnerSettings,
  ) {}

  /** Every consumer is in its group (none crashed without having rejoined). */
  get healthy(): boolean {
    return this.consumers.every((running) => running.healthy);
  }

  /**
   * Resolves once the consumer has joined its group and fetched once: kafkajs positions a new
   * group's consumer (at the end, for requests and replies) just before its first fetch, so a
   * reply produced before that would be skipped. `signal` aborts when the bus stops: kafkajs
   * then no longer restarts a crashed consumer.
   */
  async start(spec: ConsumerSpec, signal: AbortSignal): Promise<void> {
    const { tuning, clientRetry } = this.settings;
    const consumer = this.kafka.consumer({
      groupId: spec.groupId,
      sessionTimeout: tuning.sessionTimeoutMs,
      rebalanceTimeout: tuning.rebalanceTimeoutMs,
      heartbeatInterval: tuning.heartbeatIntervalMs,
      maxWaitTimeInMs: tuning.maxWaitTimeInMs,
      allowAutoTopicCreation: false,
      retry: { ...kafkaRetry(clientRetry), restartOnFailure: async () => !signal.aborted },
    });
    const running: RunningConsumer = { groupId: spec.groupId, consumer, healthy: false };
    this.consumers.push(running);
    const { positioned, stopListening } = this.watch(running);
    // A crash during run() would otherwise be an unhandled rejection until it is awaited below.
    positioned.catch(() => undefined);

    await consumer.connect();
    await consumer.subscribe({ topics: spec.topics, fromBeginning: spec.fromBeginning });
    await consumer.run({
      autoCommit: spec.autoCommit,
      // kafkajs's default (null) commits only when a batch is done.
      autoCommitInterval: spec.autoCommitIntervalMs ?? null,
      partitionsConsumedConcurrently: tuning.partitionsConsumedConcurrently,
      eachMessage: spec.eachMessage,
    });
    try {
      await positioned;
    } finally {
      stopListening();
    }
  }

  /** Consumers disconnect side by side; in-flight handlers finish first. */
  async disconnectAll(): Promise<void> {
    const consumers = this.consumers;
    this.consumers = [];
    await Promise.all(
      consumers.map(({ consumer, groupId }) => consumer.disconnect().catch((error: unknown) => this.settings.logger.warn({ groupId, err: error }, 'consumer did not disconnect cleanly'))),
    );
  }

  /**
   * Follows the consumer's health (joined, crashed) for as long as it runs; `positioned`
   * resolves at its first fetch after joining, and rejects if it crashes for good before.
   */
  private watch(running: RunningConsumer): { positioned: Promise<void>; stopListening: () => void } {
    const { consumer, groupId } = running;
    let joined = false;
    let stopListening: () => void = () => undefined;
    const positioned = new Promise<void>((resolve, reject) => {
      consumer.on(consumer.events.GROUP_JOIN, () => {
        joined = true;
        running.healthy = true;
      });
      stopListening = consumer.on(consumer.events.FETCH, () => {
        if (joined) resolve();
      });
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        running.healthy = false;
        this.settings.logger.error({ groupId, restart: payload.restart, err: payload.error }, 'Kafka consumer crashed');
        if (!payload.restart) reject(new BusUnavailableError(`the consumer of ${groupId} crashed`, payload.error));
      });
    });
    return { positioned, stopListening };
  }
}
