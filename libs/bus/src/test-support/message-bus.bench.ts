/**
 * Measures both adapters; the numbers in libs/bus/README.md come from here. Run with
 *   npx ts-node -P tsconfig.json -r tsconfig-paths/register --transpile-only libs/bus/src/test-support/message-bus.bench.ts
 * (append `in-process` or `kafka` to run one part). It starts its own Kafka mock.
 */
import { ALL_TOPICS, type RpcTopicMap, EventTopics, RpcTopics } from '@ringfence/contracts';
// The mock launcher is repo test tooling, not a library: no Nx project or alias to import it by.
import { startKafkaMock } from '../../../../test/tools/kafka-mock/kafka-mock';
import { InProcessMessageBus } from '../in-process/in-process-message-bus';
import { KafkaMessageBus, type KafkaMessageBusOptions } from '../kafka/kafka-message-bus';
import type { MessageBus } from '../message-bus';
import { InMemoryEventLogStore } from './in-memory-event-log.store';
import { eventEnvelope, markerOf, requestEnvelope } from './message-envelope.factory';

/** A stand-in reply: the bus carries any JSON, and these tests only look at the marker. */
type CheckpointReply = RpcTopicMap[typeof RpcTopics.customerCheckpoint]['reply'];

const CHECKPOINT = RpcTopics.customerCheckpoint;
const TOPIC = EventTopics.customerUpdated;

function percentiles(samples: number[]): string {
  const sorted = [...samples].sort((left, right) => left - right);
  const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))].toFixed(3);
  return `median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${sorted[sorted.length - 1].toFixed(3)} ms (n=${sorted.length})`;
}

async function sample(count: number, work: (n: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let n = 0; n < count; n += 1) {
    const startedAt = process.hrtime.bigint();
    await work(n);
    samples.push(Number(process.hrtime.bigint() - startedAt) / 1e6);
  }
  return samples;
}

function answerWithMarker(bus: MessageBus): void {
  bus.handle(CHECKPOINT, { group: 'scoring' }, async (message) => ({ marker: markerOf(message) }) as unknown as CheckpointReply);
}

async function kafka(maxWaitTimeInMs: number, requests: number): Promise<void> {
  const mock = await startKafkaMock({ topics: ALL_TOPICS, partitions: 3 });
  const options = (instanceId: string): KafkaMessageBusOptions => ({
    brokers: mock.brokers,
    clientId: 'bench',
    instanceId,
    consumer: { maxWaitTimeInMs, sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500 },
  });
  const responder = new KafkaMessageBus({ ...options('responder'), consumeReplies: false });
  const requester = new KafkaMessageBus(options('requester'));
  answerWithMarker(responder);
  try {
    let startedAt = Date.now();
    await responder.start();
    const responderStartMs = Date.now() - startedAt;
    startedAt = Date.now();
    await requester.start();
    const requesterStartMs = Date.now() - startedAt;
    startedAt = Date.now();
    await requester.request(CHECKPOINT, requestEnvelope(CHECKPOINT), { timeoutMs: 10_000 });
    const firstRequestMs = Date.now() - startedAt;
    console.log(`kafka mock, maxWaitTimeInMs=${maxWaitTimeInMs}`);
    console.log(`  start() to ready: responder ${responderStartMs} ms, requester ${requesterStartMs} ms; first request after start ${firstRequestMs} ms`);
    const publishes = await sample(requests, (n) => requester.publish(TOPIC, eventEnvelope(TOPIC, { subjectId: `cust_${n % 50}` })));
    console.log(`  publish ack (acks=-1), sequential: ${percentiles(publishes)}`);
    const roundTrips = await sample(requests, (n) =>
      requester.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { subjectId: `cust_${n % 50}` }), { timeoutMs: 10_000 }),
    );
    console.log(`  request-reply round trip, sequential: ${percentiles(roundTrips)}`);
  } finally {
    await Promise.all([responder.stop(), requester.stop()]);
    await mock.stop();
  }
}

async function inProcess(requests: number): Promise<void> {
  const eventLog = new InMemoryEventLogStore();
  const bus = new InProcessMessageBus({ eventLog });
  answerWithMarker(bus);
  const handler = async (message: { payload: unknown }) => ({ marker: (message.payload as { marker: string }).marker });
  await bus.start();
  try {
    const message = requestEnvelope(CHECKPOINT);
    // Warm-up, so the JIT has compiled both paths before they are compared.
    await sample(10_000, () => bus.request(CHECKPOINT, message, { timeoutMs: 1_000 }));
    await sample(10_000, () => handler(message));
    const viaBus = await sample(requests, () => bus.request(CHECKPOINT, message, { timeoutMs: 1_000 }));
    const direct = await sample(requests, () => handler(message));
    const mean = (samples: number[]) => (samples.reduce((sum, value) => sum + value, 0) / samples.length) * 1_000;
    console.log('in-process');
    console.log(`  request via the bus: ${percentiles(viaBus)}; mean ${mean(viaBus).toFixed(2)} µs`);
    console.log(`  direct handler call: ${percentiles(direct)}; mean ${mean(direct).toFixed(2)} µs`);
    const publishes = await sample(requests, (n) => bus.publish(TOPIC, eventEnvelope(TOPIC, { subjectId: `cust_${n % 50}` })));
    console.log(`  publish to the in-memory log (no subscribers): ${percentiles(publishes)}`);
  } finally {
    await bus.stop();
  }
}

async function main(): Promise<void> {
  const only = process.argv[2];
  if (only === undefined || only === 'in-process') await inProcess(100_000);
  if (only === undefined || only === 'kafka') {
    await kafka(5, 1_000);
    await kafka(100, 200);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
