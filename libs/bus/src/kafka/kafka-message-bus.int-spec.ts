import { randomUUID } from 'node:crypto';
import { ALL_TOPICS, type RpcTopicMap, EventTopics, messageKey, RPC_REPLY_TOPIC, RpcTopics } from '@ringfence/contracts';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
// The mock launcher is repo test tooling, not a library: no Nx project or alias to import it by.
import { type KafkaMock, startKafkaMock } from '../../../../test/tools/kafka-mock/kafka-mock';
import { BusMessageRefusedError, BusUnavailableError } from '../bus-errors';
import type { RespondOptions } from '../message-bus';
import { describeMessageBusConformance } from '../test-support/message-bus.conformance';
import { delay, eventEnvelope, Inbox, markerOf, RecordingBusLogger, requestEnvelope } from '../test-support/message-envelope.factory';
import { KafkaOffsetReader, type PartitionOffset } from './kafka-offset-reader';
import { KafkaMessageBus, type KafkaMessageBusOptions } from './kafka-message-bus';

/** A stand-in reply: the bus carries any JSON, and these tests only look at the marker. */
type CheckpointReply = RpcTopicMap[typeof RpcTopics.customerCheckpoint]['reply'];

const TOPIC = EventTopics.customerUpdated;
const CHECKPOINT = RpcTopics.customerCheckpoint;

/**
 * Short sessions make the mock's rebalances take about 2 s (it waits session timeout - 1 s);
 * the mock answers a fetch only after maxWaitTimeInMs, so that is a few milliseconds here.
 */
const MOCK_TUNING: KafkaMessageBusOptions['consumer'] = { sessionTimeoutMs: 3_000, heartbeatIntervalMs: 300, rebalanceTimeoutMs: 3_000, maxWaitTimeInMs: 5 };
const FAST_RETRY = { initialDelayMs: 20, maxDelayMs: 100 };
const DELIVERY_TIMEOUT_MS = 20_000;
const UNAVAILABLE_BOUND_MS = 10_000;

// The integration project's testTimeout in jest.config.ts is not applied (jest reads it only
// globally); a group join alone takes 3 s on the mock, so this file sets its own.
jest.setTimeout(60_000);

const PARTITIONS = 4;
const partitioner = Partitioners.DefaultPartitioner();

/** The partition kafkajs's default partitioner gives a reply keyed by this instance id. */
function replyPartitionOf(instanceId: string): number {
  const partitionMetadata = Array.from({ length: PARTITIONS }, (_, partitionId) => ({ partitionId, leader: 1, replicas: [1], isr: [1], partitionErrorCode: 0 }));
  return partitioner({ topic: RPC_REPLY_TOPIC, partitionMetadata, message: { key: instanceId, value: null } });
}

function checkpointReply(marker: string): CheckpointReply {
  return { marker } as unknown as CheckpointReply;
}

async function timed<T>(work: () => Promise<T>): Promise<{ outcome: T | unknown; elapsedMs: number }> {
  const startedAt = Date.now();
  const outcome = await work().catch((error: unknown) => error);
  return { outcome, elapsedMs: Date.now() - startedAt };
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await delay(100);
  }
}

describe(KafkaMessageBus.name, () => {
  let mock: KafkaMock | undefined;
  const buses: KafkaMessageBus[] = [];

  function brokers(): string[] {
    if (!mock) throw new Error('the Kafka mock did not start');
    return mock.brokers;
  }

  function createBus(overrides: Partial<KafkaMessageBusOptions> = {}): KafkaMessageBus {
    const bus = new KafkaMessageBus({ brokers: brokers(), clientId: 'bus-int-spec', consumer: MOCK_TUNING, handlerRetry: FAST_RETRY, ...overrides });
    buses.push(bus);
    return bus;
  }

  beforeAll(async () => {
    mock = await startKafkaMock({ topics: ALL_TOPICS, partitions: PARTITIONS });
  });

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.stop()));
  });

  afterAll(async () => {
    await mock?.stop();
  });

  describe('conformance', () => {
    describeMessageBusConformance(() => ({
      createBus: ({ handlerRetry, logger }) =>
        new KafkaMessageBus({ brokers: brokers(), clientId: 'bus-conformance', consumer: MOCK_TUNING, handlerRetry, logger }),
      deliveryTimeoutMs: DELIVERY_TIMEOUT_MS,
      quietPeriodMs: 500,
    }));
  });

  it('shares the events of a group between its two instances, each event to exactly one of them', async () => {
    const runId = randomUUID();
    const group = `shared-${runId}`;
    const inboxes = [new Inbox<string>(), new Inbox<string>()];
    const instances = inboxes.map((inbox, n) => {
      const bus = createBus({ instanceId: `worker-${n}-${runId}` });
      bus.subscribe(TOPIC, { group }, async (message) => {
        if (message.traceId === runId) inbox.push(message.eventId);
      });
      return bus;
    });
    await instances[0].start();
    await instances[1].start();

    const sent = Array.from({ length: 40 }, (_, n) => eventEnvelope(TOPIC, { traceId: runId, subjectId: `cust_${n}` }));
    for (const message of sent) await instances[0].publish(TOPIC, message);

    await eventually(async () => inboxes[0].items.length + inboxes[1].items.length >= sent.length, DELIVERY_TIMEOUT_MS);
    await delay(500);
    const received = [...inboxes[0].items, ...inboxes[1].items].sort();
    expect(received).toEqual(sent.map((message) => message.eventId).sort());
    expect(inboxes[0].items.length).toBeGreaterThan(0);
    expect(inboxes[1].items.length).toBeGreaterThan(0);
  });

  it('routes every reply to the instance that sent the request, even when two instances share a reply partition', async () => {
    const runId = randomUUID();
    const responder = createBus({ consumeReplies: false });
    responder.handle(CHECKPOINT, { group: `scoring-${runId}` }, async (message) => checkpointReply(markerOf(message)));
    // Replies are keyed by instance id. Two ids on one partition: if requesters shared a group,
    // only one of them would hold that partition and the other's requests would time out.
    const first = `gateway-a-${runId}`;
    let second = '';
    for (let n = 0; second === '' || replyPartitionOf(second) !== replyPartitionOf(first); n += 1) second = `gateway-b-${runId}-${n}`;
    const requesters = [first, second].map((instanceId) => createBus({ instanceId }));
    await Promise.all([responder, ...requesters].map((bus) => bus.start()));

    const calls = requesters.flatMap((requester, n) =>
      Array.from({ length: 10 }, (_, i) => {
        const marker = `${n}-${i}`;
        return requester
          .request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId, subjectId: `cust_${i}`, payload: { marker } }), { timeoutMs: 10_000 })
          .then((reply) => ({ expected: checkpointReply(marker), reply }));
      }),
    );

    for (const { expected, reply } of await Promise.all(calls)) expect(reply).toEqual(expected);
    expect(requesters.map((requester) => requester.inFlightRequests)).toEqual([0, 0]);
  });

  /** A slow consumer of TOPIC in a bus of its own (another process): the state responders read. */
  function slowStateConsumer(runId: string): { consumer: KafkaMessageBus; stateGroup: string; applied: string[] } {
    const stateGroup = `state-${runId}`;
    const applied: string[] = [];
    const consumer = createBus({ consumeReplies: false });
    consumer.subscribe(TOPIC, { group: stateGroup }, async (message) => {
      if (message.traceId !== runId) return;
      await delay(300);
      applied.push(markerOf(message));
    });
    return { consumer, stateGroup, applied };
  }

  it('waits, for read your writes, on a group that runs in another process through its committed offsets', async () => {
    const runId = randomUUID();
    // The consumer lives in one process (bus), the responder in another that does not run the group.
    const { consumer, stateGroup, applied } = slowStateConsumer(runId);
    const responder = createBus({ consumeReplies: false });
    responder.handle(CHECKPOINT, { group: `reader-${runId}`, consistentWith: [{ group: stateGroup, topics: [TOPIC] }] }, async () => checkpointReply([...applied].sort().join(',')));
    const requester = createBus();
    await Promise.all([consumer, responder, requester].map((bus) => bus.start()));

    await requester.publish(TOPIC, eventEnvelope(TOPIC, { traceId: runId, payload: { marker: 'w1' } }));
    const reply = await requester.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId }), { timeoutMs: DELIVERY_TIMEOUT_MS });

    expect(reply).toEqual(checkpointReply('w1'));
  });

  /**
   * A request answered by an outer responder that asks an inner one (another service) reading a
   * slow consumer's state: the reply, and how many end-offset reads of TOPIC it took in all.
   */
  async function askThroughAnotherService(outerOptions: (stateGroup: string) => Omit<RespondOptions, 'group'>): Promise<{ reply: unknown; endReadsOfTopic: number }> {
    const runId = randomUUID();
    const { consumer, stateGroup, applied } = slowStateConsumer(runId);
    const inner = createBus({ consumeReplies: false });
    inner.handle(RpcTopics.graphNetworkFeatures, { group: `inner-${runId}`, consistentWith: [{ group: stateGroup, topics: [TOPIC] }] }, async () => checkpointReply([...applied].sort().join(',')) as never);
    const outer = createBus();
    outer.handle(CHECKPOINT, { group: `outer-${runId}`, ...outerOptions(stateGroup) }, async (message) => {
      const answer = await outer.request(RpcTopics.graphNetworkFeatures, requestEnvelope(RpcTopics.graphNetworkFeatures, { traceId: message.traceId }) as never, { timeoutMs: DELIVERY_TIMEOUT_MS });
      return answer as unknown as CheckpointReply;
    });
    const requester = createBus();
    await Promise.all([consumer, inner, outer, requester].map((bus) => bus.start()));
    const endReads = jest.spyOn(KafkaOffsetReader.prototype, 'readEnds');
    try {
      await requester.publish(TOPIC, eventEnvelope(TOPIC, { traceId: runId, payload: { marker: 'w1' } }));
      const reply = await requester.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { traceId: runId }), { timeoutMs: DELIVERY_TIMEOUT_MS });
      return { reply, endReadsOfTopic: endReads.mock.calls.filter(([topics]) => topics.includes(TOPIC)).length };
    } finally {
      endReads.mockRestore();
    }
  }

  it('passes the end offsets a responder waited for on to the requests it sends, whose responders wait for them without reading them again', async () => {
    // The outer responder reads the same state as the inner one.
    const { reply, endReadsOfTopic } = await askThroughAnotherService((stateGroup) => ({ consistentWith: [{ group: stateGroup, topics: [TOPIC] }] }));

    expect(reply).toEqual(checkpointReply('w1'));
    // The outer responder read the end offsets once; the inner one waited for the same ones.
    expect(endReadsOfTopic).toBe(1);
  });

  it('reads the topics a responder reads through with its own, so the responders it asks wait for them without reading them', async () => {
    // The outer responder reads no state of its own from TOPIC: it only asks the inner one.
    const { reply, endReadsOfTopic } = await askThroughAnotherService((stateGroup) => ({ readsThrough: [{ group: stateGroup, topics: [TOPIC] }] }));

    // The inner responder still waited for the slow consumer: the write is in its answer.
    expect(reply).toEqual(checkpointReply('w1'));
    expect(endReadsOfTopic).toBe(1);
  });

  it('commits within a fetched batch, so a group in another process is seen to reach an event before the rest of its batch is handled', async () => {
    const runId = randomUUID();
    const stateGroup = `batch-${runId}`;
    const kafka = new Kafka({ brokers: brokers(), clientId: 'bus-int-spec-admin', logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    try {
      const endsOf = async () => new Map((await admin.fetchTopicOffsets(TOPIC)).map(({ partition, high }) => [partition, Number(high)]));
      const before = await endsOf();
      // One key, so one partition, and one record batch (the mock hands a consumer a produced
      // batch at a time), produced before the group starts, so its first fetch takes them together.
      const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
      await producer.connect();
      const events = Array.from({ length: 4 }, (_, n) => eventEnvelope(TOPIC, { traceId: runId, payload: { marker: `m${n}` } }));
      await producer.send({ topic: TOPIC, messages: events.map((event) => ({ key: messageKey(event), value: JSON.stringify(event) })) });
      await producer.disconnect();
      const after = await endsOf();
      const [partition] = [...after].find(([id, end]) => end === (before.get(id) ?? 0) + 4) ?? [];
      if (partition === undefined) throw new Error('the four events did not land on one partition');
      const lastOffset = after.get(partition)! - 1;

      let committedAtLast: number | undefined;
      const consumer = createBus({ consumeReplies: false, consumer: { ...MOCK_TUNING, commitIntervalMs: 20 } });
      consumer.subscribe(TOPIC, { group: stateGroup }, async (message) => {
        if (message.traceId !== runId) return;
        if (markerOf(message) === 'm3') {
          const [offsets] = await admin.fetchOffsets({ groupId: `ringfence.${stateGroup}`, topics: [TOPIC] });
          committedAtLast = Number(offsets.partitions.find((entry) => entry.partition === partition)?.offset);
        }
        await delay(100);
      });
      await consumer.start();

      // Polled: delivery to a consumer group is asynchronous by design (no request answers it).
      await eventually(async () => committedAtLast !== undefined, DELIVERY_TIMEOUT_MS);
      // Everything before the last event was committed while the last was still being handled.
      expect(committedAtLast).toBe(lastOffset);
    } finally {
      await admin.disconnect();
    }
  });

  it('reads end offsets of several topics over several connections, and a group\'s committed offsets, as the admin API reads them', async () => {
    const kafka = new Kafka({ brokers: brokers(), clientId: 'bus-int-spec-offsets', logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    const second = kafka.admin();
    await Promise.all([admin.connect(), second.connect()]);
    const reader = new KafkaOffsetReader([admin, second]);
    try {
      // A group that has committed: it reads the topic from the start (the mock has no DescribeGroups for admin.setOffsets).
      const group = `offsets-${randomUUID()}`;
      const groupId = `ringfence.${group}`;
      const consumer = createBus({ consumeReplies: false });
      consumer.subscribe(TOPIC, { group }, async () => undefined);
      await consumer.start();
      await consumer.publish(TOPIC, eventEnvelope(TOPIC, { traceId: randomUUID() }));
      const ends = async (topic: string) => (await admin.fetchTopicOffsets(topic)).map(({ partition, high }) => ({ topic, partition, offset: Number(high) }));
      const committedByAdmin = async () =>
        (await admin.fetchOffsets({ groupId, topics })).flatMap(({ topic, partitions }) => partitions.map(({ partition, offset }) => ({ topic, partition, offset: Number(offset) })));
      const topics = [TOPIC, EventTopics.supplierUpdated];
      const endsOfTopic = await ends(TOPIC);
      // Compared once the group has committed everything, so the answers cannot differ by timing;
      // polled because a group's consumption and commits are asynchronous by design.
      const committedAll = async () => {
        const committed = await committedByAdmin();
        return endsOfTopic.every(({ partition, offset }) => offset === 0 || committed.some((entry) => entry.topic === TOPIC && entry.partition === partition && entry.offset === offset));
      };
      await eventually(committedAll, DELIVERY_TIMEOUT_MS);

      const sorted = (offsets: PartitionOffset[]) => [...offsets].sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
      const allEnds = (await Promise.all(topics.map(ends))).flat();
      expect(allEnds).toHaveLength(2 * PARTITIONS);
      expect(allEnds.some(({ offset }) => offset > 0)).toBe(true);
      expect(sorted(await reader.readEnds(topics))).toEqual(sorted(allEnds));

      const committed = await committedByAdmin();
      expect(committed.some(({ offset }) => offset > 0)).toBe(true);
      expect(sorted(await reader.readCommitted(groupId, topics))).toEqual(sorted(committed));
    } finally {
      await Promise.all([admin.disconnect(), second.disconnect()]);
    }
  });

  it('skips a record that is not a message envelope, logs it, and goes on with the next event', async () => {
    const runId = randomUUID();
    const logger = new RecordingBusLogger();
    const bus = createBus({ logger });
    const inbox = new Inbox<string>();
    bus.subscribe(TOPIC, { group: `poison-${runId}` }, async (message) => {
      if (message.traceId === runId) inbox.push(markerOf(message));
    });
    await bus.start();
    const raw = new Kafka({ brokers: brokers(), clientId: 'raw-producer', logLevel: logLevel.NOTHING }).producer();
    await raw.connect();
    try {
      await raw.send({ topic: TOPIC, messages: [{ key: 'acct:test:cust_1', value: `not json ${runId}` }] });
    } finally {
      await raw.disconnect();
    }

    await bus.publish(TOPIC, eventEnvelope(TOPIC, { traceId: runId, payload: { marker: 'after-poison' } }));

    await inbox.waitFor(1, DELIVERY_TIMEOUT_MS);
    expect(inbox.items).toEqual(['after-poison']);
    expect(logger.lines.map((line) => line.message)).toContain('skipped a record that is not a message envelope');
  });

  it('rejects a message the broker refuses for what it is with BusMessageRefusedError at once (no retry), and publishes the next one (decisions §16)', async () => {
    const ownMock = await startKafkaMock({ topics: ALL_TOPICS, partitions: 2 });
    try {
      const bus = createBus({ brokers: ownMock.brokers });
      const inbox = new Inbox<string>();
      bus.subscribe(TOPIC, { group: 'ingestion' }, async (message) => inbox.push(markerOf(message)));
      await bus.start();
      // Kafka's error 10 on the next produce request, as a broker answers a record over message.max.bytes.
      await ownMock.failProduceRequests(10, 1);

      const refused = await timed(() => bus.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'refused' } })));
      expect(refused.outcome).toBeInstanceOf(BusMessageRefusedError);
      expect(refused.outcome).toMatchObject({ topic: TOPIC, reason: 'MESSAGE_TOO_LARGE' });
      await bus.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'next' } }));

      // A consumer reads the topic asynchronously by design: wait for the next message to arrive.
      await inbox.waitFor(1, DELIVERY_TIMEOUT_MS);
      expect(inbox.items).toEqual(['next']);
    } finally {
      await ownMock.stop();
    }
  });

  describe('without a reachable broker', () => {
    it(`rejects publish and request with BusUnavailableError within ${UNAVAILABLE_BOUND_MS} ms, is not ready, and recovers when the broker is back`, async () => {
      const ownMock = await startKafkaMock({ topics: ALL_TOPICS, partitions: 2 });
      try {
        const bus = createBus({ brokers: ownMock.brokers });
        await bus.start();
        await ownMock.setBrokerDown();

        const published = await timed(() => bus.publish(TOPIC, eventEnvelope(TOPIC)));
        expect(published.outcome).toBeInstanceOf(BusUnavailableError);
        expect(published.elapsedMs).toBeLessThan(UNAVAILABLE_BOUND_MS);

        const requested = await timed(() => bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT), { timeoutMs: 30_000 }));
        expect(requested.outcome).toBeInstanceOf(BusUnavailableError);
        expect(requested.elapsedMs).toBeLessThan(UNAVAILABLE_BOUND_MS);
        expect(bus.inFlightRequests).toBe(0);
        expect(await bus.isReady()).toBe(false);

        await ownMock.setBrokerUp();
        await eventually(
          () => bus.publish(TOPIC, eventEnvelope(TOPIC)).then(() => true, () => false),
          UNAVAILABLE_BOUND_MS,
        );
        await eventually(() => bus.isReady(), UNAVAILABLE_BOUND_MS);
      } finally {
        await ownMock.stop();
      }
    });

    it('rejects a publish with BusUnavailableError once the broker process is gone, and still stops in bounded time', async () => {
      const ownMock = await startKafkaMock({ topics: ALL_TOPICS, partitions: 2 });
      const bus = new KafkaMessageBus({ brokers: ownMock.brokers, clientId: 'bus-int-spec', consumer: MOCK_TUNING });
      try {
        bus.subscribe(TOPIC, { group: 'ingestion' }, async () => undefined);
        await bus.start();
        await ownMock.stop();

        const published = await timed(() => bus.publish(TOPIC, eventEnvelope(TOPIC)));
        expect(published.outcome).toBeInstanceOf(BusUnavailableError);
        expect(published.elapsedMs).toBeLessThan(UNAVAILABLE_BOUND_MS);
      } finally {
        const stopped = await timed(() => bus.stop());
        expect(stopped.elapsedMs).toBeLessThan(UNAVAILABLE_BOUND_MS);
      }
    });

    it('rejects start with BusUnavailableError when nothing listens at the bootstrap address', async () => {
      const bus = createBus({ brokers: ['127.0.0.1:1'] });

      const started = await timed(() => bus.start());

      expect(started.outcome).toBeInstanceOf(BusUnavailableError);
      expect(started.elapsedMs).toBeLessThan(UNAVAILABLE_BOUND_MS);
      expect(await bus.isReady()).toBe(false);
    });
  });
});
