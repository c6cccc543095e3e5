import { ALL_TOPICS } from '@ringfence/contracts';
// The mock launcher is repo test tooling, not a library: no Nx project or alias to import it by.
import { startKafkaMock } from '../../../../test/tools/kafka-mock/kafka-mock';
import { BusMessageRefusedError, BusUnavailableError } from '../bus-errors';
import { CHECKPOINT, DELIVERY_TIMEOUT_MS, eventually, MOCK_TUNING, TOPIC, timed, UNAVAILABLE_BOUND_MS, useKafkaBuses } from '../test-support/kafka-bus.int-fixture';
import { eventEnvelope, Inbox, markerOf, requestEnvelope } from '../test-support/message-envelope.factory';
import { KafkaMessageBus } from './kafka-message-bus';

// The integration project's testTimeout in jest.config.ts is not applied (jest reads it only
// globally); a group join alone takes 3 s on the mock, so this file sets its own.
jest.setTimeout(60_000);

/** The Kafka bus when the broker refuses a message, goes down, disappears or was never there; each test has a mock of its own. */
describe('KafkaMessageBus broker failures', () => {
  const { createBus } = useKafkaBuses({ sharedMock: false });

  it('rejects a message the broker refuses for what it is with BusMessageRefusedError at once (no retry), and publishes the next one (ADR-0016)', async () => {
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
        // Polled: kafkajs reconnects to a broker that came back on its own retry schedule, asynchronous by design.
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
