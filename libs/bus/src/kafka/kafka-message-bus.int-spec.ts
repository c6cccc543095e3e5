import { randomUUID } from 'node:crypto';
import { RPC_REPLY_TOPIC } from '@ringfence/contracts';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { CHECKPOINT, checkpointReply, DELIVERY_TIMEOUT_MS, eventually, MOCK_TUNING, PARTITIONS, TOPIC, useKafkaBuses } from '../test-support/kafka-bus.int-fixture';
import { describeMessageBusConformance } from '../test-support/message-bus.conformance';
import { delay, eventEnvelope, Inbox, markerOf, RecordingBusLogger, requestEnvelope } from '../test-support/message-envelope.factory';
import { KafkaMessageBus } from './kafka-message-bus';

// The integration project's testTimeout in jest.config.ts is not applied (jest reads it only
// globally); a group join alone takes 3 s on the mock, so this file sets its own.
jest.setTimeout(60_000);

const partitioner = Partitioners.DefaultPartitioner();

/** The partition kafkajs's default partitioner gives a reply keyed by this instance id. */
function replyPartitionOf(instanceId: string): number {
  const partitionMetadata = Array.from({ length: PARTITIONS }, (_, partitionId) => ({ partitionId, leader: 1, replicas: [1], isr: [1], partitionErrorCode: 0 }));
  return partitioner({ topic: RPC_REPLY_TOPIC, partitionMetadata, message: { key: instanceId, value: null } });
}

/** The Kafka bus on the mock cluster: the conformance suite, groups shared by instances, reply routing, poison records. */
describe(KafkaMessageBus.name, () => {
  const { brokers, createBus } = useKafkaBuses({ sharedMock: true });

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
});
