import type { EventLogStore } from '@ringfence/bus';
import { buildEnvelope, buildTopic } from './persistence-test-data.factory';
import { AWKWARD_TEXTS } from './test-databases';

/** What any EventLogStore adapter must do; run against each database by its spec files. */
export function itBehavesLikeAnEventLogStore(store: () => EventLogStore): void {
  it('appends events with increasing sequence numbers', async () => {
    const topic = buildTopic();

    const first = await store().append(topic, 'acc:live:cus_1', buildEnvelope());
    const second = await store().append(topic, 'acc:live:cus_1', buildEnvelope());

    expect(typeof first).toBe('number');
    expect(second).toBeGreaterThan(first);
  });

  it('reads the events of a topic after a sequence, oldest first, as they were appended', async () => {
    const topic = buildTopic();
    const envelopes = [buildEnvelope(), buildEnvelope(), buildEnvelope()];
    const sequences: number[] = [];
    for (const [index, envelope] of envelopes.entries()) {
      sequences.push(await store().append(topic, `key-${index}`, envelope));
    }

    const events = await store().readAfter(topic, sequences[0], 10);

    expect(events).toEqual([
      { sequence: sequences[1], topic, key: 'key-1', envelope: envelopes[1] },
      { sequence: sequences[2], topic, key: 'key-2', envelope: envelopes[2] },
    ]);
  });

  it('reads at most the limit', async () => {
    const topic = buildTopic();
    for (let index = 0; index < 5; index += 1) {
      await store().append(topic, 'key', buildEnvelope());
    }

    await expect(store().readAfter(topic, 0, 2)).resolves.toHaveLength(2);
  });

  it('reads only the topic asked for', async () => {
    const topic = buildTopic();
    const otherTopic = buildTopic();
    await store().append(otherTopic, 'key', buildEnvelope());
    const sequence = await store().append(topic, 'key', buildEnvelope());

    const events = await store().readAfter(topic, 0, 10);

    expect(events.map((event) => event.sequence)).toEqual([sequence]);
  });

  it('stores an event appended twice once, answering its first sequence', async () => {
    const topic = buildTopic();
    const envelope = buildEnvelope();
    const first = await store().append(topic, 'key', envelope);
    await store().append(topic, 'key', buildEnvelope());

    const again = await store().append(topic, 'key', { ...envelope, payload: { changed: true } });

    expect(again).toBe(first);
    const events = await store().readAfter(topic, 0, 10);
    expect(events.filter((event) => event.envelope.eventId === envelope.eventId)).toEqual([
      { sequence: first, topic, key: 'key', envelope },
    ]);
  });

  it('stores one event appended concurrently several times once', async () => {
    const topic = buildTopic();
    const envelope = buildEnvelope();

    const sequences = await Promise.all(Array.from({ length: 8 }, () => store().append(topic, 'key', envelope)));

    expect(new Set(sequences).size).toBe(1);
    await expect(store().readAfter(topic, 0, 10)).resolves.toHaveLength(1);
  });

  it('appends a batch in one go, in order, each event once, answering every sequence', async () => {
    const topic = buildTopic();
    const otherTopic = buildTopic();
    const logged = buildEnvelope();
    const loggedSequence = await store().append(topic, 'key', logged);
    const fresh = [buildEnvelope(), buildEnvelope(), buildEnvelope()];
    const twice = buildEnvelope();

    const sequences = await store().appendBatch([
      { topic, key: 'a', envelope: fresh[0] },
      { topic: otherTopic, key: 'b', envelope: fresh[1] },
      { topic, key: 'key', envelope: logged },
      { topic, key: 'c', envelope: twice },
      { topic, key: 'c', envelope: twice },
      { topic, key: 'd', envelope: fresh[2] },
    ]);

    expect(sequences[2]).toBe(loggedSequence);
    expect(sequences[3]).toBe(sequences[4]);
    const newOnes = [sequences[0], sequences[1], sequences[3], sequences[5]];
    expect([...newOnes].sort((a, b) => a - b)).toEqual(newOnes);
    expect(Math.min(...newOnes)).toBeGreaterThan(loggedSequence);
    const events = await store().readAfter(topic, 0, 10);
    expect(events.map((event) => event.envelope.eventId)).toEqual([logged.eventId, fresh[0].eventId, twice.eventId, fresh[2].eventId]);
    await expect(store().readAfter(otherTopic, 0, 10)).resolves.toEqual([{ sequence: sequences[1], topic: otherTopic, key: 'b', envelope: fresh[1] }]);
  });

  it('keeps every character of a batch\'s payloads: quotes, backslashes, control characters and the record separator', async () => {
    const topic = buildTopic();
    const awkward = [...AWKWARD_TEXTS, ''];
    const envelopes = awkward.map((text) => buildEnvelope({ payload: { text, nested: { list: [text, { text }] } } }));

    await store().appendBatch(envelopes.map((envelope) => ({ topic, key: 'k', envelope })));

    expect((await store().readAfter(topic, 0, 10)).map((event) => event.envelope)).toEqual(envelopes);
  });

  it('stores the same event on two topics on both', async () => {
    const topic = buildTopic();
    const otherTopic = buildTopic();
    const envelope = buildEnvelope();

    await store().append(topic, 'key', envelope);
    await store().append(otherTopic, 'key', envelope);

    await expect(store().readAfter(topic, 0, 10)).resolves.toHaveLength(1);
    await expect(store().readAfter(otherTopic, 0, 10)).resolves.toHaveLength(1);
  });

  it("answers 0 for a group's offset never committed", async () => {
    await expect(store().committedOffset('group-never-committed', buildTopic())).resolves.toBe(0);
  });

  it('remembers the last committed offset per group and topic', async () => {
    const topic = buildTopic();
    const otherTopic = buildTopic();
    await store().commitOffsets([{ group: 'ingestion', topic, sequence: 7 }]);
    await store().commitOffsets([{ group: 'ingestion', topic, sequence: 12 }]);
    await store().commitOffsets([{ group: 'graph', topic, sequence: 3 }]);
    await store().commitOffsets([{ group: 'ingestion', topic: otherTopic, sequence: 5 }]);

    await expect(store().committedOffset('ingestion', topic)).resolves.toBe(12);
    await expect(store().committedOffset('graph', topic)).resolves.toBe(3);
    await expect(store().committedOffset('ingestion', otherTopic)).resolves.toBe(5);
  });

  it('lets a group rewind its offset', async () => {
    const topic = buildTopic();
    await store().commitOffsets([{ group: 'ingestion', topic, sequence: 12 }]);

    await store().commitOffsets([{ group: 'ingestion', topic, sequence: 4 }]);

    await expect(store().committedOffset('ingestion', topic)).resolves.toBe(4);
  });

  it('commits the offsets of several groups and topics at once, the last of a repeated pair winning', async () => {
    const [topic, otherTopic] = [buildTopic(), buildTopic()];
    await store().commitOffsets([
      { group: 'ingestion', topic, sequence: 7 },
      { group: 'graph', topic, sequence: 3 },
      { group: 'ingestion', topic: otherTopic, sequence: 5 },
      { group: 'ingestion', topic, sequence: 9 },
    ]);
    await store().commitOffsets([]);

    await expect(store().committedOffset('ingestion', topic)).resolves.toBe(9);
    await expect(store().committedOffset('graph', topic)).resolves.toBe(3);
    await expect(store().committedOffset('ingestion', otherTopic)).resolves.toBe(5);
  });
}
