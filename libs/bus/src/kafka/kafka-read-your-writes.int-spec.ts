import { randomUUID } from 'node:crypto';
import { EventTopics, messageKey, RpcTopics } from '@ringfence/contracts';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import type { RespondOptions } from '../message-bus';
import { CHECKPOINT, type CheckpointReply, checkpointReply, DELIVERY_TIMEOUT_MS, eventually, MOCK_TUNING, PARTITIONS, TOPIC, useKafkaBuses } from '../test-support/kafka-bus.int-fixture';
import { delay, eventEnvelope, markerOf, requestEnvelope } from '../test-support/message-envelope.factory';
import type { KafkaMessageBus } from './kafka-message-bus';
import { KafkaOffsetReader, type PartitionOffset } from './kafka-offset-reader';

// The integration project's testTimeout in jest.config.ts is not applied (jest reads it only
// globally); a group join alone takes 3 s on the mock, so this file sets its own.
jest.setTimeout(60_000);

/** Read your writes across processes on the mock cluster: committed offsets, read positions passed on, commits within a batch, the offset reader. */
describe('KafkaMessageBus read your writes', () => {
  const { brokers, createBus } = useKafkaBuses({ sharedMock: true });

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
});
