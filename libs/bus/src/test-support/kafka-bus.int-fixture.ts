import { ALL_TOPICS, type RpcTopicMap, EventTopics, RpcTopics } from '@ringfence/contracts';
// The mock launcher is repo test tooling, not a library: no Nx project or alias to import it by.
import { until } from '../../../../test/tools/eventually';
import { type KafkaMock, startKafkaMock } from '../../../../test/tools/kafka-mock/kafka-mock';
import { KafkaMessageBus, type KafkaMessageBusOptions } from '../kafka/kafka-message-bus';

/** A stand-in reply: the bus carries any JSON, and these tests only look at the marker. */
export type CheckpointReply = RpcTopicMap[typeof RpcTopics.customerCheckpoint]['reply'];

export const TOPIC = EventTopics.customerUpdated;
export const CHECKPOINT = RpcTopics.customerCheckpoint;

/**
 * Short sessions make the mock's rebalances take about 2 s (it waits session timeout - 1 s);
 * the mock answers a fetch only after maxWaitTimeInMs, so that is a few milliseconds here.
 */
export const MOCK_TUNING: KafkaMessageBusOptions['consumer'] = { sessionTimeoutMs: 3_000, heartbeatIntervalMs: 300, rebalanceTimeoutMs: 3_000, maxWaitTimeInMs: 5 };
export const FAST_RETRY = { initialDelayMs: 20, maxDelayMs: 100 };
export const DELIVERY_TIMEOUT_MS = 20_000;
export const UNAVAILABLE_BOUND_MS = 10_000;
/** Partitions of every topic on the shared mock. */
export const PARTITIONS = 4;

export function checkpointReply(marker: string): CheckpointReply {
  return { marker } as unknown as CheckpointReply;
}

export async function timed<T>(work: () => Promise<T>): Promise<{ outcome: T | unknown; elapsedMs: number }> {
  const startedAt = Date.now();
  const outcome = await work().catch((error: unknown) => error);
  return { outcome, elapsedMs: Date.now() - startedAt };
}

/** Polls `check` until it holds, every 100 ms: delivery through the broker is asynchronous by design. */
export const eventually = (check: () => Promise<boolean>, timeoutMs: number): Promise<void> => until(check, timeoutMs, { intervalMs: 100 });

export interface KafkaBusFixture {
  /** The shared mock's bootstrap addresses. */
  brokers(): string[];
  /** A bus on the shared mock (or `overrides.brokers`), tuned for the mock, stopped after the test. */
  createBus(overrides?: Partial<KafkaMessageBusOptions>): KafkaMessageBus;
}

/**
 * Registers the hooks of a Kafka bus spec file: the shared mock (every topic, `PARTITIONS`
 * partitions) when `sharedMock`, and stopping every bus `createBus` made after each test. Call
 * it at the top of the file's `describe`.
 */
export function useKafkaBuses({ sharedMock }: { sharedMock: boolean }): KafkaBusFixture {
  let mock: KafkaMock | undefined;
  const buses: KafkaMessageBus[] = [];

  function brokers(): string[] {
    if (!mock) throw new Error('the Kafka mock did not start');
    return mock.brokers;
  }

  function createBus(overrides: Partial<KafkaMessageBusOptions> = {}): KafkaMessageBus {
    const bus = new KafkaMessageBus({ clientId: 'bus-int-spec', consumer: MOCK_TUNING, handlerRetry: FAST_RETRY, ...overrides, brokers: overrides.brokers ?? brokers() });
    buses.push(bus);
    return bus;
  }

  if (sharedMock) {
    beforeAll(async () => {
      mock = await startKafkaMock({ topics: ALL_TOPICS, partitions: PARTITIONS });
    });
  }

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.stop()));
  });

  afterAll(async () => {
    await mock?.stop();
  });

  return { brokers, createBus };
}
