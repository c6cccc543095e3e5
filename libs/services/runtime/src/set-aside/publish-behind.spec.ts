import { BusMessageRefusedError, BusUnavailableError, type MessageBus } from '@ringfence/bus';
import { EventTopics, type MessageEnvelope } from '@ringfence/contracts';
import { DEFAULT_ROW_ATTEMPTS, InMemorySetAsideStore, SetAsideRows, createLogger } from '@ringfence/platform';
import { MAX_KEPT_PUBLISHES, PUBLISH_BEHIND_WRITER, PUBLISH_RETRY_INTERVAL_MS, PublishBehind } from './publish-behind';

const TOPIC = EventTopics.customerScored;

/** A broker that refuses messages whose subject is `refusedSubject` as too large, and everything while `down`. */
class FakeBroker {
  readonly published: string[] = [];
  attempts = 0;
  down = false;
  refusedSubject: string | undefined = 'too-large';

  async publish(topic: string, envelope: MessageEnvelope<unknown>): Promise<void> {
    this.attempts += 1;
    if (this.down) throw new BusUnavailableError(`Kafka did not accept the message on ${topic}`, new Error('connect ECONNREFUSED'));
    if (envelope.subjectId === this.refusedSubject) throw new BusMessageRefusedError(topic, 'MESSAGE_TOO_LARGE');
    this.published.push(envelope.subjectId);
  }
}

let nextEvent = 0;
const decision = (subjectId: string, accountId = 'acc_1'): MessageEnvelope<never> =>
  ({ eventId: `e${(nextEvent += 1)}`, accountId, environment: 'live', subjectId, acceptedAt: 0, traceId: `t${nextEvent}`, payload: {} }) as unknown as MessageEnvelope<never>;

function setup(setAsideStore = new InMemorySetAsideStore()) {
  const broker = new FakeBroker();
  const setAside = new SetAsideRows(setAsideStore);
  const publisher = new PublishBehind(broker as unknown as MessageBus, setAside, createLogger({ level: 'silent', service: 'test' }));
  return { broker, setAside, setAsideStore, publisher };
}

describe(PublishBehind.name, () => {
  afterEach(() => jest.useRealTimers());

  describe('publishOrKeep (a decision behind an answered request)', () => {
    it('keeps a message the broker refuses, tries it again, sets it aside after its attempts, and publishes the others meanwhile', async () => {
      const { broker, publisher, setAsideStore } = setup();
      await publisher.publishOrKeep(TOPIC, decision('too-large'));
      await publisher.publishOrKeep(TOPIC, decision('ada'));
      expect(broker.published).toEqual(['ada']);
      expect(publisher.keptCount).toBe(1);

      for (let pass = 2; pass <= DEFAULT_ROW_ATTEMPTS; pass += 1) await publisher.retryKept();
      await publisher.publishOrKeep(TOPIC, decision('grace', 'acc_2'));

      expect(setAsideStore.rows).toEqual([expect.objectContaining({ writer: PUBLISH_BEHIND_WRITER, accountId: 'acc_1', environment: 'live', attempts: DEFAULT_ROW_ATTEMPTS })]);
      expect(setAsideStore.rows[0].error).toBe(`BusMessageRefusedError: the broker refused the message on ${TOPIC}: MESSAGE_TOO_LARGE`);
      expect(JSON.parse(setAsideStore.rows[0].row)).toMatchObject({ topic: TOPIC, envelope: { subjectId: 'too-large' } });
      expect(publisher.keptCount).toBe(0);
      expect(broker.published).toEqual(['ada', 'grace']);
      const attempts = broker.attempts;
      await publisher.retryKept();
      expect(broker.attempts).toBe(attempts);
    });

    it('keeps every message while the bus is unavailable, sets none aside however long, and publishes them all when it returns', async () => {
      const { broker, publisher, setAsideStore } = setup();
      broker.down = true;
      await publisher.publishOrKeep(TOPIC, decision('ada'));
      await publisher.publishOrKeep(TOPIC, decision('grace'));
      for (let pass = 0; pass < DEFAULT_ROW_ATTEMPTS + 2; pass += 1) await publisher.retryKept();
      expect(setAsideStore.rows).toEqual([]);
      expect(publisher.keptCount).toBe(2);

      broker.down = false;
      await publisher.retryKept();

      expect(broker.published).toEqual(['ada', 'grace']);
      expect(publisher.keptCount).toBe(0);
    });

    it('tries the kept messages again on its own, without another publish (an idle system)', async () => {
      jest.useFakeTimers();
      const { broker, publisher } = setup();
      broker.down = true;
      await publisher.publishOrKeep(TOPIC, decision('ada'));
      broker.down = false;

      await jest.advanceTimersByTimeAsync(PUBLISH_RETRY_INTERVAL_MS);

      expect(broker.published).toEqual(['ada']);
      expect(publisher.keptCount).toBe(0);
      expect(jest.getTimerCount()).toBe(0);
    });

    it('sets the oldest message aside, rather than holding more than its bound while one topic is refused', async () => {
      const { broker, publisher, setAsideStore } = setup();
      broker.down = true;
      for (let message = 0; message <= MAX_KEPT_PUBLISHES; message += 1) await publisher.publishOrKeep(TOPIC, decision(`s${message}`));
      await new Promise((resolve) => setImmediate(resolve));

      expect(publisher.keptCount).toBe(MAX_KEPT_PUBLISHES);
      expect(setAsideStore.rows.map((row) => (JSON.parse(row.row) as { envelope: { subjectId: string } }).envelope.subjectId)).toEqual(['s0']);
      expect(setAsideStore.rows[0].error).toContain(`more than ${MAX_KEPT_PUBLISHES} messages`);
    });

    it('sets aside what it still keeps when the process stops, so nothing is lost', async () => {
      const { broker, publisher, setAsideStore } = setup();
      broker.down = true;
      await publisher.publishOrKeep(TOPIC, decision('ada'));

      await publisher.beforeApplicationShutdown();

      expect(setAsideStore.rows).toEqual([expect.objectContaining({ writer: PUBLISH_BEHIND_WRITER, error: 'Error: the process stopped before the message was published' })]);
      expect(publisher.keptCount).toBe(0);
    });
  });

  describe('publishOrThrow (a decision of an event the bus delivers again)', () => {
    it('rejects while the refused message has tries left, then sets it aside and resolves, so the event is done with', async () => {
      const { publisher, setAsideStore } = setup();
      const deliver = () => publisher.publishOrThrow(TOPIC, decision('too-large'), 'source-event-1');
      for (let delivery = 1; delivery < DEFAULT_ROW_ATTEMPTS; delivery += 1) await expect(deliver()).rejects.toThrow('not written yet');

      await deliver();

      expect(setAsideStore.rows).toEqual([expect.objectContaining({ writer: PUBLISH_BEHIND_WRITER, key: `${TOPIC}:source-event-1`, attempts: DEFAULT_ROW_ATTEMPTS })]);
    });

    it('rejects on every delivery while the bus is unavailable, and sets nothing aside', async () => {
      const { broker, publisher, setAsideStore } = setup();
      broker.down = true;
      for (let delivery = 0; delivery < DEFAULT_ROW_ATTEMPTS + 2; delivery += 1) {
        await expect(publisher.publishOrThrow(TOPIC, decision('ada'), 'source-event-2')).rejects.toThrow('not written yet');
      }
      expect(setAsideStore.rows).toEqual([]);
    });
  });

  it('publishes a set-aside message when an operator replays it, and keeps the entry while the broker still refuses it', async () => {
    const { broker, publisher, setAside, setAsideStore } = setup();
    await publisher.publishOrKeep(TOPIC, decision('too-large'));
    for (let pass = 2; pass <= DEFAULT_ROW_ATTEMPTS; pass += 1) await publisher.retryKept();
    const [entry] = setAsideStore.rows;

    expect(await setAside.replay(entry.id)).toEqual(expect.objectContaining({ outcome: 'not-written' }));
    broker.refusedSubject = undefined;
    expect(await setAside.replay(entry.id)).toEqual(expect.objectContaining({ outcome: 'written' }));

    expect(broker.published).toEqual(['too-large']);
    expect(setAsideStore.rows).toEqual([]);
  });
});
