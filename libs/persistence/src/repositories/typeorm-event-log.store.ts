import type { EventLogStore, LoggedEvent } from '@ringfence/bus';
import type { MessageEnvelope } from '@ringfence/contracts';
import type { DataSource } from 'typeorm';
import { bigintToNumber, queryRows } from '../sql';

interface SequenceRow {
  sequence: string;
}

interface LoggedEventRow {
  sequence: string;
  topic: string;
  key: string;
  envelope: MessageEnvelope<unknown>;
}

// One round trip whether the event is new or a duplicate. The second SELECT reads the
// statement's snapshot, which cannot see a row the INSERT itself added, so at most one row
// comes back. Only when a concurrent append of the same event commits after that snapshot
// does neither branch return a row; `append` then reads it again.
const APPEND = `
  WITH inserted AS (
    INSERT INTO event_log (topic, key, event_id, envelope)
    VALUES ($1, $2, $3, $4::jsonb)
    ON CONFLICT (topic, event_id) DO NOTHING
    RETURNING sequence
  )
  SELECT sequence FROM inserted
  UNION ALL
  SELECT sequence FROM event_log WHERE topic = $1 AND event_id = $3`;
const SEQUENCE_OF_EVENT = 'SELECT sequence FROM event_log WHERE topic = $1 AND event_id = $2';
const READ_AFTER = `
  SELECT sequence, topic, key, envelope FROM event_log
   WHERE topic = $1 AND sequence > $2
   ORDER BY sequence
   LIMIT $3`;
const COMMITTED_OFFSET = 'SELECT sequence FROM consumer_offsets WHERE group_id = $1 AND topic = $2';
const COMMIT_OFFSET = `
  INSERT INTO consumer_offsets (group_id, topic, sequence) VALUES ($1, $2, $3)
  ON CONFLICT (group_id, topic) DO UPDATE SET sequence = EXCLUDED.sequence, updated_at = now()`;

/**
 * The embedded mode's event log in `event_log`, with consumer offsets in `consumer_offsets`.
 *
 * Appends are idempotent per topic and `envelope.eventId`: appending an event again returns
 * the sequence it got the first time and stores nothing. Sequences increase but have gaps (a
 * duplicate consumes one). The embedded database runs one transaction at a time, so events
 * become visible in sequence order; on a PostgreSQL shared by concurrent appenders a reader
 * could see a later sequence before an earlier one commits.
 */
export class TypeOrmEventLogStore implements EventLogStore {
  constructor(private readonly dataSource: DataSource) {}

  async append(topic: string, key: string, envelope: MessageEnvelope<unknown>): Promise<number> {
    const parameters = [topic, key, envelope.eventId, JSON.stringify(envelope)];
    const [row] = await queryRows<SequenceRow>(this.dataSource, APPEND, parameters);
    if (row !== undefined) {
      return bigintToNumber(row.sequence);
    }
    const [concurrent] = await queryRows<SequenceRow>(this.dataSource, SEQUENCE_OF_EVENT, [topic, envelope.eventId]);
    if (concurrent === undefined) {
      throw new Error(`event ${envelope.eventId} on ${topic} was neither appended nor found`);
    }
    return bigintToNumber(concurrent.sequence);
  }

  async readAfter(topic: string, afterSequence: number, limit: number): Promise<LoggedEvent[]> {
    const rows = await queryRows<LoggedEventRow>(this.dataSource, READ_AFTER, [topic, afterSequence, limit]);
    return rows.map((row) => ({
      sequence: bigintToNumber(row.sequence),
      topic: row.topic,
      key: row.key,
      envelope: row.envelope,
    }));
  }

  async committedOffset(group: string, topic: string): Promise<number> {
    const [row] = await queryRows<SequenceRow>(this.dataSource, COMMITTED_OFFSET, [group, topic]);
    return row === undefined ? 0 : bigintToNumber(row.sequence);
  }

  /** Sets the offset to exactly `sequence`, also backwards (a consumer may rewind). */
  async commitOffset(group: string, topic: string, sequence: number): Promise<void> {
    await queryRows(this.dataSource, COMMIT_OFFSET, [group, topic, sequence]);
  }
}
