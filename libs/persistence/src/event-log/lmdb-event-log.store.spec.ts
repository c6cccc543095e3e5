import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { itBehavesLikeAnEventLogStore } from '../test-support/event-log-store.behaviour';
import { buildEnvelope, buildTopic } from '../test-support/persistence-test-data.factory';
import { TypeOrmEventLogStore } from '../repositories/typeorm-event-log.store';
import { useEmbeddedTestDatabase } from '../test-support/test-databases';
import { LmdbEventLogStore } from './lmdb-event-log.store';
import { importSqlEventLog } from './sql-event-log-import';

describe(LmdbEventLogStore.name, () => {
  // The offsets are the relational database's, beside the projections they count.
  const database = useEmbeddedTestDatabase();
  let directory: string;
  let store: LmdbEventLogStore;
  const open = () => new LmdbEventLogStore(directory, new TypeOrmEventLogStore(database.dataSource()));
  const reopen = async (): Promise<LmdbEventLogStore> => {
    await store.close();
    store = open();
    return store;
  };

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'ringfence-event-log-'));
    store = open();
  });

  afterEach(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  itBehavesLikeAnEventLogStore(() => store);

  it('keeps events, their sequences and the offsets across a reopen, and goes on after the last sequence', async () => {
    const topic = buildTopic();
    const envelope = buildEnvelope();
    const first = await store.append(topic, 'key', envelope);
    await store.commitOffsets([{ group: 'ingestion', topic, sequence: first }]);

    await reopen();

    await expect(store.readAfter(topic, 0, 10)).resolves.toEqual([{ sequence: first, topic, key: 'key', envelope }]);
    await expect(store.committedOffset('ingestion', topic)).resolves.toBe(first);
    await expect(store.append(topic, 'key', envelope)).resolves.toBe(first);
    await expect(store.append(topic, 'key', buildEnvelope())).resolves.toBeGreaterThan(first);
  });

  it('answers a repeated append of an event still being written with its sequence, once durable', async () => {
    const topic = buildTopic();
    const envelope = buildEnvelope();

    const [first, second] = await Promise.all([store.appendBatch([{ topic, key: 'a', envelope }]), store.appendBatch([{ topic, key: 'a', envelope }])]);

    expect(second).toEqual(first);
    await expect(store.readAfter(topic, 0, 10)).resolves.toHaveLength(1);
  });

  it('hands out no sequence twice when a write fails, and keeps what was written before', async () => {
    const topic = buildTopic();
    const kept = await store.append(topic, 'key', buildEnvelope());
    await store.close();

    await expect(store.append(topic, 'key', buildEnvelope())).rejects.toThrow();

    store = open();
    await expect(store.readAfter(topic, 0, 10)).resolves.toEqual([expect.objectContaining({ sequence: kept })]);
  });
});

describe(importSqlEventLog.name, () => {
  const database = useEmbeddedTestDatabase();
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'ringfence-event-log-'));
  });

  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('copies the SQL log with its sequences once, the offsets staying where they are; the next append follows the last sequence', async () => {
    const sql = new TypeOrmEventLogStore(database.dataSource());
    const topic = buildTopic();
    const envelopes = [buildEnvelope(), buildEnvelope({ payload: { text: 'say "hi"\u001e' } })];
    const sequences = [await sql.append(topic, 'a', envelopes[0]), await sql.append(topic, 'b', envelopes[1])];
    await sql.commitOffsets([{ group: 'graph', topic, sequence: sequences[0] }]);
    const log = new LmdbEventLogStore(directory, sql);

    await importSqlEventLog(log, database.dataSource());
    await sql.append(topic, 'c', buildEnvelope());
    await importSqlEventLog(log, database.dataSource());

    try {
      expect(log.importedSqlLog).toBe(true);
      await expect(log.readAfter(topic, 0, 10)).resolves.toEqual([
        { sequence: sequences[0], topic, key: 'a', envelope: envelopes[0] },
        { sequence: sequences[1], topic, key: 'b', envelope: envelopes[1] },
      ]);
      await expect(log.committedOffset('graph', topic)).resolves.toBe(sequences[0]);
      await expect(log.append(topic, 'a', envelopes[0])).resolves.toBe(sequences[0]);
      await expect(log.append(topic, 'd', buildEnvelope())).resolves.toBeGreaterThan(sequences[1]);
    } finally {
      await log.close();
    }
  });
});
