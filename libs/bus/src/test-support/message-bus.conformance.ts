import { BusUnavailableError } from '../bus-errors';
import type { BusLogger } from '../bus-logger';
import { type ConformanceBus, CHECKPOINT, CUSTOMER_UPDATED, FAST_RETRY, type MessageBusConformanceTarget } from './conformance/conformance-fixture';
import { describeEventConformance } from './conformance/event-delivery.conformance';
import { describeReadYourWritesConformance } from './conformance/read-your-writes.conformance';
import { describeRequestConformance } from './conformance/request-reply.conformance';
import { eventEnvelope, RecordingBusLogger, requestEnvelope } from './message-envelope.factory';

export type { ConformanceBus, MessageBusConformanceTarget } from './conformance/conformance-fixture';

/**
 * The behaviour both `MessageBus` adapters must share (architecture.md: a test that passes in
 * one mode and fails in the other is a bug in an adapter). Call it inside a `describe` of the
 * adapter; `target` is read lazily, so it may come from a `beforeAll` (a broker to start).
 *
 * Topics and event logs outlive a test, and a new group reads a topic from its start, so every
 * test uses its own groups and keeps only the messages carrying its own trace id.
 */
export function describeMessageBusConformance(target: () => MessageBusConformanceTarget): void {
  const buses: ConformanceBus[] = [];

  function newBus(logger: BusLogger = new RecordingBusLogger()): ConformanceBus {
    const bus = target().createBus({ handlerRetry: FAST_RETRY, logger });
    buses.push(bus);
    return bus;
  }

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.stop()));
  });

  describeEventConformance({ newBus, target });
  describeRequestConformance({ newBus, target });
  describeReadYourWritesConformance({ newBus, target });

  describe('lifecycle', () => {
    it('accepts messages and reports ready only between start and stop', async () => {
      const bus = newBus();
      const event = () => eventEnvelope(CUSTOMER_UPDATED);
      const request = () => bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT), { timeoutMs: 1_000 });

      await expect(bus.publish(CUSTOMER_UPDATED, event())).rejects.toBeInstanceOf(BusUnavailableError);
      await expect(request()).rejects.toBeInstanceOf(BusUnavailableError);
      expect(await bus.isReady()).toBe(false);

      await bus.start();
      expect(await bus.isReady()).toBe(true);
      await expect(bus.publish(CUSTOMER_UPDATED, event())).resolves.toBeUndefined();
      expect(() => bus.subscribe(CUSTOMER_UPDATED, { group: 'too-late' }, async () => undefined)).toThrow(/before start/);

      await bus.stop();
      expect(await bus.isReady()).toBe(false);
      await expect(bus.publish(CUSTOMER_UPDATED, event())).rejects.toBeInstanceOf(BusUnavailableError);
      await expect(request()).rejects.toBeInstanceOf(BusUnavailableError);
    });

    it('says when it has started: true once started, false when stopped without having started', async () => {
      const started = newBus();
      const waiting = started.whenStarted();
      await started.start();
      await expect(waiting).resolves.toBe(true);
      await expect(started.whenStarted()).resolves.toBe(true);

      const neverStarted = newBus();
      const waitingInVain = neverStarted.whenStarted();
      await neverStarted.stop();
      await expect(waitingInVain).resolves.toBe(false);
    });
  });
}
