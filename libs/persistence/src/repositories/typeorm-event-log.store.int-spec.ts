import { itBehavesLikeAnEventLogStore } from '../test-support/event-log-store.behaviour';
import { buildEnvelope, buildTopic } from '../test-support/persistence-test-data.factory';
import { waitUntilBlockedBy } from '../test-support/postgres-locks';
import { usePostgresTestDatabase } from '../test-support/test-databases';
import { TypeOrmEventLogStore } from './typeorm-event-log.store';

describe(TypeOrmEventLogStore.name, () => {
  const database = usePostgresTestDatabase();

  itBehavesLikeAnEventLogStore(() => new TypeOrmEventLogStore(database.dataSource()));

  it('answers the sequence of a duplicate that another session committed while it waited', async () => {
    const store = new TypeOrmEventLogStore(database.dataSource());
    const topic = buildTopic();
    const envelope = buildEnvelope();
    const other = database.dataSource().createQueryRunner();
    await other.startTransaction();
    const [{ sequence }] = (await other.query(
      `INSERT INTO event_log (topic, key, event_id, envelope) VALUES ($1, 'key', $2, $3) RETURNING sequence`,
      [topic, envelope.eventId, JSON.stringify(envelope)],
    )) as { sequence: string }[];

    const appending = store.append(topic, 'key', envelope);
    await waitUntilBlockedBy(database.dataSource(), other);
    await other.commitTransaction();
    await other.release();

    await expect(appending).resolves.toBe(Number(sequence));
    await expect(store.readAfter(topic, 0, 10)).resolves.toHaveLength(1);
  });
});
