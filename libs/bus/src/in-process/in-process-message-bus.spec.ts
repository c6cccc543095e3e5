import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EventTopics, type MessageEnvelope, messageKey, RpcTopics } from '@ringfence/contracts';
import { BusUnavailableError } from '../bus-errors';
import { describeMessageBusConformance } from '../test-support/message-bus.conformance';
import { InMemoryEventLogStore } from '../test-support/in-memory-event-log.store';
import { delay, eventEnvelope, Inbox, markerOf, RecordingBusLogger, requestEnvelope } from '../test-support/message-envelope.factory';
import { InProcessMessageBus, type InProcessMessageBusOptions } from './in-process-message-bus';
import { until as pollUntil } from '../../../../test/tools/eventually';

const TOPIC = EventTopics.customerUpdated;
const GROUP = 'ingestion';
const FAST_RETRY = { initialDelayMs: 10, maxDelayMs: 50 };

/** A gate a handler waits at, so a test can look at the bus while an event is in flight. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Handling is asynchronous by design (off the publisher's call): the tests wait for what the handlers did. */
const until = (condition: () => boolean, timeoutMs = 2_000): Promise<void> => pollUntil(condition, timeoutMs, { intervalMs: 5 });

describe(InProcessMessageBus.name, () => {
  const buses: InProcessMessageBus[] = [];

  function createBus(overrides: Partial<InProcessMessageBusOptions> = {}): InProcessMessageBus {
    const bus = new InProcessMessageBus({ eventLog: new InMemoryEventLogStore(), handlerRetry: FAST_RETRY, ...overrides });
    buses.push(bus);
    return bus;
  }

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.stop()));
  });

  describe('conformance', () => {
    const eventLog = new InMemoryEventLogStore();
    describeMessageBusConformance(() => ({
      createBus: ({ handlerRetry, logger }) => new InProcessMessageBus({ eventLog, handlerRetry, logger }),
      deliveryTimeoutMs: 2_000,
      quietPeriodMs: 50,
    }));
  });

  it('after a restart, answers a consistent request only once the group has read the events published before the restart', async () => {
    const eventLog = new InMemoryEventLogStore();
    const before = createBus({ eventLog });
    // The group is not running in the first process: its events pile up in the log.
    await before.start();
    await before.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'before-restart' } }));
    await before.stop();

    const after = createBus({ eventLog });
    const applied: string[] = [];
    after.subscribe(TOPIC, { group: GROUP }, async (message) => {
      await delay(100);
      applied.push(markerOf(message));
    });
    after.handle(RpcTopics.customerCheckpoint, { group: 'scoring', consistentWith: [{ group: GROUP, topics: [TOPIC] }] }, async () => ({ seen: [...applied] }) as never);
    await after.start();

    const reply = await after.request(RpcTopics.customerCheckpoint, requestEnvelope(RpcTopics.customerCheckpoint), { timeoutMs: 2_000 });
    expect(reply).toEqual({ seen: ['before-restart'] });
  });

  it('handles events of different keys side by side while one key waits, each key still in order, and commits only past what is handled', async () => {
    const eventLog = new InMemoryEventLogStore();
    const bus = createBus({ eventLog, commitIntervalMs: 0 });
    const blocked = gate();
    const handled: string[] = [];
    bus.subscribe(TOPIC, { group: GROUP }, async (message) => {
      if (markerOf(message) === 'slow-1') await blocked.opened;
      handled.push(markerOf(message));
    });
    await bus.start();

    const publish = (subjectId: string, marker: string) => bus.publish(TOPIC, eventEnvelope(TOPIC, { subjectId, payload: { marker } }));
    await publish('cus_slow', 'slow-1');
    await publish('cus_slow', 'slow-2');
    for (let n = 0; n < 20; n += 1) await publish(`cus_${n}`, `other-${n}`);

    // Delivery to a consumer group is asynchronous by design (after publish resolves), so these
    // waits poll the handler's record, not an answer given to a client.
    // Keys in the other partitions go on while the slow key's first event waits (keys that share
    // its partition wait behind it, as on a Kafka partition) …
    await until(() => handled.length >= 10);
    await delay(50);
    expect(handled.every((marker) => marker.startsWith('other-'))).toBe(true);
    expect(handled.length).toBeLessThan(20);
    // … and nothing is committed past the waiting event.
    expect(Math.max(0, ...eventLog.commits.filter((commit) => commit.group === GROUP).map((commit) => commit.sequence))).toBe(0);

    blocked.open();
    await until(() => handled.length === 22);
    expect(handled.indexOf('slow-1')).toBeLessThan(handled.indexOf('slow-2'));
    await until(() => eventLog.commits.some((commit) => commit.group === GROUP && commit.sequence >= 22));
  });

  it('resolves a publish only once the event log has stored the event', async () => {
    const eventLog = new InMemoryEventLogStore();
    const append = eventLog.append.bind(eventLog);
    eventLog.append = async (...args) => {
      await delay(20);
      return append(...args);
    };
    const bus = createBus({ eventLog });
    await bus.start();
    const message = eventEnvelope(TOPIC);

    await bus.publish(TOPIC, message);

    expect(eventLog.events).toEqual([{ sequence: 1, topic: TOPIC, key: messageKey(message), envelope: message }]);
  });

  it('rejects a publish with BusUnavailableError and delivers nothing when the log refuses the event', async () => {
    const eventLog = new InMemoryEventLogStore();
    const bus = createBus({ eventLog });
    const inbox = new Inbox<string>();
    bus.subscribe(TOPIC, { group: GROUP }, async (message) => inbox.push(markerOf(message)));
    await bus.start();
    eventLog.failWith('append', new Error('disk full'));

    await expect(bus.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'lost' } }))).rejects.toBeInstanceOf(BusUnavailableError);

    eventLog.recover();
    await bus.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'kept' } }));
    await inbox.waitFor(1, 1_000);
    await delay(20);
    expect(inbox.items).toEqual(['kept']);
  });

  it('replays the events after its committed offset on start, in order and before live events (crash recovery)', async () => {
    const eventLog = new InMemoryEventLogStore();
    const appendDirectly = (marker: string) => {
      const message = eventEnvelope(TOPIC, { payload: { marker } });
      return eventLog.append(TOPIC, messageKey(message), message);
    };
    const handledBeforeCrash = await appendDirectly('handled-before-crash');
    await appendDirectly('appended-not-handled-1');
    await appendDirectly('appended-not-handled-2');
    await eventLog.commitOffsets([{ group: GROUP, topic: TOPIC, sequence: handledBeforeCrash }]);
    const bus = createBus({ eventLog });
    const inbox = new Inbox<string>();
    bus.subscribe(TOPIC, { group: GROUP }, async (message) => inbox.push(markerOf(message)));

    await bus.start();
    await bus.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'live' } }));

    await inbox.waitFor(3, 1_000);
    expect(inbox.items).toEqual(['appended-not-handled-1', 'appended-not-handled-2', 'live']);
  });

  it('delivers an event published twice (same event id) once, as the log stores it once', async () => {
    const bus = createBus();
    const inbox = new Inbox<string>();
    bus.subscribe(TOPIC, { group: GROUP }, async (message) => inbox.push(message.eventId));
    await bus.start();
    const message = eventEnvelope(TOPIC);

    await bus.publish(TOPIC, message);
    await bus.publish(TOPIC, message);
    await bus.publish(TOPIC, eventEnvelope(TOPIC, { eventId: 'after' }));

    await inbox.waitFor(2, 1_000);
    await delay(20);
    expect(inbox.items).toEqual([message.eventId, 'after']);
  });

  it('commits a group offset only after the handler of that event has finished', async () => {
    const eventLog = new InMemoryEventLogStore();
    const bus = createBus({ eventLog });
    const secondEvent = gate();
    bus.subscribe(TOPIC, { group: GROUP }, async (message) => {
      if (markerOf(message) === 'second') await secondEvent.opened;
    });
    await bus.start();

    await bus.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'first' } }));
    await bus.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'second' } }));
    await until(() => eventLog.offsets.size > 0);
    await delay(20);
    expect(await eventLog.committedOffset(GROUP, TOPIC)).toBe(1);

    secondEvent.open();
    await until(() => eventLog.commits.some((commit) => commit.sequence === 2));
    expect(eventLog.commits.map((commit) => commit.sequence)).toEqual([1, 2]);
  });

  /**
   * Publishes `count` events while the handler is held at the first one, then lets it go, and
   * answers what the handler saw, in order.
   */
  async function burstWhileHandlerWaits(options: Parameters<typeof createBus>[0], count: number, timeoutMs: number) {
    const bus = createBus(options);
    const inbox = new Inbox<string>();
    const firstEvent = gate();
    bus.subscribe(TOPIC, { group: GROUP }, async (message) => {
      await firstEvent.opened;
      inbox.push(markerOf(message));
    });
    await bus.start();
    const markers = Array.from({ length: count }, (_, n) => `m${n}`);
    for (const marker of markers) await bus.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker } }));
    firstEvent.open();
    await inbox.waitFor(markers.length, timeoutMs);
    await delay(20);
    return { markers, delivered: inbox.items };
  }

  it('goes back to the log when it falls behind by more than maxBufferedEvents, losing and repeating nothing', async () => {
    const { markers, delivered } = await burstWhileHandlerWaits({ maxBufferedEvents: 3, replayPageSize: 4 }, 25, 2_000);
    expect(delivered).toEqual(markers);
  });

  it('delivers a long burst from memory in order, exactly once', async () => {
    const { markers, delivered } = await burstWhileHandlerWaits({}, 3_000, 5_000);
    expect(delivered).toEqual(markers);
  });

  it('keeps no handled event reachable, so a payload can be collected while its lane runs on', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const bus = createBus();
    let handled = 0;
    bus.subscribe(TOPIC, { group: GROUP }, async () => {
      handled += 1;
    });
    await bus.start();
    const payloads: Array<WeakRef<object>> = [];
    // Built in a function of its own, so no variable of the test's frame holds the last one.
    const publishTracked = async () => {
      const message = eventEnvelope(TOPIC);
      payloads.push(new WeakRef(message.payload as object));
      await bus.publish(TOPIC, message);
    };
    for (let i = 0; i < 50; i += 1) await publishTracked();
    // Delivery is asynchronous by design: wait until the lane has handled all 50.
    await until(() => handled === 50);
    await delay(0);
    gc();

    expect(payloads.filter((payload) => payload.deref() !== undefined)).toHaveLength(0);
  });

  it('reads the log again when it overflows while a read is in flight', async () => {
    const eventLog = new InMemoryEventLogStore();
    const readAfter = eventLog.readAfter.bind(eventLog);
    const readStarted = gate();
    eventLog.readAfter = async (...args) => {
      const page = await readAfter(...args);
      readStarted.open();
      await delay(30);
      return page;
    };
    const bus = createBus({ eventLog, maxBufferedEvents: 2 });
    const inbox = new Inbox<string>();
    bus.subscribe(TOPIC, { group: GROUP }, async (message) => inbox.push(markerOf(message)));
    await bus.start();
    await readStarted.opened;

    const markers = ['m1', 'm2', 'm3', 'm4', 'm5'];
    for (const marker of markers) await bus.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker } }));

    await inbox.waitFor(markers.length, 1_000);
    expect(inbox.items).toEqual(markers);
  });

  it('lets the in-flight handler finish on stop and commits what it handled', async () => {
    const eventLog = new InMemoryEventLogStore();
    const bus = createBus({ eventLog });
    const started = gate();
    const handled: string[] = [];
    bus.subscribe(TOPIC, { group: GROUP }, async (message) => {
      started.open();
      await delay(50);
      handled.push(markerOf(message));
    });
    await bus.start();
    await bus.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'in-flight' } }));
    await started.opened;

    await bus.stop();

    expect(handled).toEqual(['in-flight']);
    expect(await eventLog.committedOffset(GROUP, TOPIC)).toBe(1);
  });

  it('leaves the offset of an event whose handler keeps failing uncommitted when it stops', async () => {
    const eventLog = new InMemoryEventLogStore();
    const logger = new RecordingBusLogger();
    const bus = createBus({ eventLog, logger });
    bus.subscribe(TOPIC, { group: GROUP }, async () => {
      throw new Error('still broken');
    });
    await bus.start();
    await bus.publish(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'stuck' } }));
    await until(() => logger.lines.length >= 2);

    await bus.stop();

    expect(eventLog.commits).toEqual([]);
  });

  it('rejects a request at once with BusUnavailableError when no module answers its topic', async () => {
    const bus = createBus();
    await bus.start();

    await expect(bus.request(RpcTopics.customerCheckpoint, requestEnvelope(RpcTopics.customerCheckpoint), { timeoutMs: 60_000 })).rejects.toBeInstanceOf(
      BusUnavailableError,
    );
  });

  it('hands the request envelope itself to the handler, without copying it', async () => {
    const bus = createBus();
    let received: MessageEnvelope<unknown> | undefined;
    bus.handle(RpcTopics.customerCheckpoint, { group: 'scoring' }, async (message) => {
      received = message;
      return { marker: 'ok' } as never;
    });
    await bus.start();
    const request = requestEnvelope(RpcTopics.customerCheckpoint);

    await bus.request(RpcTopics.customerCheckpoint, request, { timeoutMs: 1_000 });

    expect(received).toBe(request);
  });

  // The deadline's abort is in the conformance suite (both adapters); the requester's signal is in-process only.
  describe("the responder's signal: aborted once nobody waits for the answer", () => {
    /** A responder that works until its signal aborts, as a backtest does, then stops with the signal's reason. */
    function respondUntilAborted(bus: InProcessMessageBus): { aborted: Promise<void> } {
      let markAborted: () => void = () => undefined;
      const aborted = new Promise<void>((resolve) => (markAborted = resolve));
      bus.handle(RpcTopics.backtestRules, { group: 'scoring' }, async (_message, { signal }) => {
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        markAborted();
        signal.throwIfAborted();
        return { never: true } as never;
      });
      return { aborted };
    }

    it('aborts it when the requester aborts, and answers the request as abandoned (504) without logging a failure', async () => {
      const logger = new RecordingBusLogger();
      const bus = createBus({ logger });
      const responder = respondUntilAborted(bus);
      await bus.start();
      const clientGone = new AbortController();

      const answer = bus.request(RpcTopics.backtestRules, requestEnvelope(RpcTopics.backtestRules), { timeoutMs: 60_000, signal: clientGone.signal });
      clientGone.abort();

      await responder.aborted;
      await expect(answer).rejects.toMatchObject({ code: 'TIMEOUT', status: 504 });
      expect(logger.lines.filter((line) => line.level === 'error')).toEqual([]);
    });

    it('never aborts it while the requester waits', async () => {
      const bus = createBus();
      let seen: AbortSignal | undefined;
      bus.handle(RpcTopics.backtestRules, { group: 'scoring' }, async (_message, { signal }) => {
        seen = signal;
        await delay(30);
        return { aborted: signal.aborted } as never;
      });
      await bus.start();

      await expect(bus.request(RpcTopics.backtestRules, requestEnvelope(RpcTopics.backtestRules), { timeoutMs: 1_000, signal: new AbortController().signal })).resolves.toEqual({ aborted: false });
      expect(seen?.aborted).toBe(false);
    });
  });

  it('refuses to start again after stop', async () => {
    const bus = createBus();
    await bus.start();
    await bus.stop();

    await expect(bus.start()).rejects.toThrow(/create a new one/);
  });
});
