import { EventTopics } from '@ringfence/contracts';
import { BusUnavailableError } from '../bus-errors';
import { InMemoryEventLogStore } from '../test-support/in-memory-event-log.store';
import { delay, eventEnvelope, Inbox, markerOf } from '../test-support/message-envelope.factory';
import { InProcessMessageBus } from './in-process-message-bus';
import { until as pollUntil } from '../../../../test/tools/eventually';

const TOPIC = EventTopics.customerUpdated;
const GROUP = 'ingestion';

/** Commits are asynchronous by design (behind the handlers, at most every interval): the tests wait for them. */
const until = (condition: () => boolean): Promise<void> => pollUntil(condition, 2_000, { intervalMs: 5 });

/** A bus over a log that stages like the LMDB one, durable only when the test flushes it. */
async function stagingBus() {
  const eventLog = new InMemoryEventLogStore();
  eventLog.stageUntilFlushed();
  const bus = new InProcessMessageBus({ eventLog, commitIntervalMs: 1, handlerRetry: { initialDelayMs: 10, maxDelayMs: 50 } });
  const inbox = new Inbox<string>();
  bus.subscribe(TOPIC, { group: GROUP }, async (message) => inbox.push(markerOf(message)));
  await bus.start();
  return { eventLog, bus, inbox };
}

describe('InProcessMessageBus over a log that stages (one durable wait per checkpoint)', () => {
  const buses: InProcessMessageBus[] = [];
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.stop()));
  });

  it('hands a visible publish to its consumers before the event is durable, and never commits their offset past what is', async () => {
    const { eventLog, bus, inbox } = await stagingBus();
    buses.push(bus);

    const { durable } = await bus.publishVisible(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'staged' } }));
    let isDurable = false;
    void durable.then(() => (isDurable = true));
    await inbox.waitFor(1, 1_000);
    await delay(30);

    expect(inbox.items).toEqual(['staged']);
    expect(isDurable).toBe(false);
    expect(eventLog.commits).toEqual([]);

    eventLog.flushStaged();
    await durable;
    // The lane handled the event before it was durable: its offset moves with the next progress.
    await bus.publishVisible(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'next' } }));
    await until(() => eventLog.commits.length > 0);
    expect(Math.max(...eventLog.commits.map((commit) => commit.sequence))).toBe(1);
    eventLog.flushStaged();
  });

  it('resolves a plain publish only once the staged event is durable', async () => {
    const { eventLog, bus } = await stagingBus();
    buses.push(bus);
    let resolved = false;

    const published = bus.publish(TOPIC, eventEnvelope(TOPIC)).then(() => (resolved = true));
    await delay(20);
    expect(resolved).toBe(false);

    eventLog.flushStaged();
    await published;
    expect(resolved).toBe(true);
  });

  it('rejects the durability with BusUnavailableError when the staged write fails, and commits no offset past it', async () => {
    const { eventLog, bus, inbox } = await stagingBus();
    buses.push(bus);

    const { durable } = await bus.publishVisible(TOPIC, eventEnvelope(TOPIC, { payload: { marker: 'lost' } }));
    await inbox.waitFor(1, 1_000);
    eventLog.flushStaged(new Error('disk full'));

    await expect(durable).rejects.toBeInstanceOf(BusUnavailableError);
    await delay(30);
    expect(eventLog.commits).toEqual([]);
  });
});
