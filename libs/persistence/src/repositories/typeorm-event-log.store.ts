import type { EventLogStore, LoggedEvent } from '@ringfence/bus';
import { envelopeText, type MessageEnvelope } from '@ringfence/contracts';
import type { DataSource } from 'typeorm';
import { background, bigintToNumber, jsonTextSequence, jsonTexts, queryRows } from '../sql';

interface SequenceRow {
  sequence: string;
}

interface LoggedEventRow {
  sequence: string;
  topic: string;
  key: string;
  /** The envelope's JSON, as written (a `text` column: nothing reads inside it in SQL). */
  envelope: string;
}

// One round trip whether the event is new or a duplicate. The second SELECT reads the
// statement's snapshot, which cannot see a row the INSERT itself added, so at most one row
// comes back. Only when a concurrent append of the same event commits after that snapshot
// does neither branch return a row; `append` then reads it again.
const APPEND = `
  WITH inserted AS (
    INSERT INTO event_log (topic, key, event_id, envelope)
    VALUES ($1, $2, $3, $4)
    ON CONFLICT (topic, event_id) DO NOTHING
    RETURNING sequence
  )
  SELECT sequence FROM inserted
  UNION ALL
  SELECT sequence FROM event_log WHERE topic = $1 AND event_id = $3`;
// Group commit: many events in one statement, inserted in the given order (so their sequences
// increase in that order). An event already in the log (or twice in the batch) gets no new row;
// its sequence is read back below.
const APPEND_BATCH = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], ${jsonTexts('$4')}) WITH ORDINALITY AS i(topic, key, event_id, envelope, position)
  ),
  inserted AS (
    INSERT INTO event_log (topic, key, event_id, envelope)
    SELECT topic, key, event_id, envelope FROM input ORDER BY position
    ON CONFLICT (topic, event_id) DO NOTHING
    RETURNING topic, event_id, sequence
  )
  SELECT input.position, inserted.sequence
    FROM input LEFT JOIN inserted ON inserted.topic = input.topic AND inserted.event_id = input.event_id
   ORDER BY input.position`;
const SEQUENCE_OF_EVENT = 'SELECT sequence FROM event_log WHERE topic = $1 AND event_id = $2';
const READ_AFTER = `
  SELECT sequence, topic, key, envelope FROM event_log
   WHERE topic = $1 AND sequence > $2
   ORDER BY sequence
   LIMIT $3`;
const COMMITTED_OFFSET = 'SELECT sequence FROM consumer_offsets WHERE group_id = $1 AND topic = $2';
// Each (group, topic) at most once per call: ON CONFLICT cannot touch a row twice in a statement.
const COMMIT_OFFSETS = background(`
  INSERT INTO consumer_offsets (group_id, topic, sequence)
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
  ON CONFLICT (group_id, topic) DO UPDATE SET sequence = EXCLUDED.sequence, updated_at = now()`);

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
    const parameters = [topic, key, envelope.eventId, envelopeText(envelope)];
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

  async appendBatch(events: ReadonlyArray<{ topic: string; key: string; envelope: MessageEnvelope<unknown> }>): Promise<number[]> {
    if (events.length === 1) return [await this.append(events[0].topic, events[0].key, events[0].envelope)];
    const rows = await queryRows<{ position: string; sequence: string | null }>(this.dataSource, APPEND_BATCH, [
      events.map((event) => event.topic),
      events.map((event) => event.key),
      events.map((event) => event.envelope.eventId),
      jsonTextSequence(events.map((event) => envelopeText(event.envelope))),
    ]);
    const sequences: number[] = [];
    for (const [index, row] of rows.entries()) {
      // A duplicate (of the log or within the batch) inserted nothing: it has the first sequence.
      sequences.push(row.sequence === null ? await this.sequenceOf(events[index].topic, events[index].envelope.eventId) : bigintToNumber(row.sequence));
    }
    return sequences;
  }

  private async sequenceOf(topic: string, eventId: string): Promise<number> {
    const [row] = await queryRows<SequenceRow>(this.dataSource, SEQUENCE_OF_EVENT, [topic, eventId]);
    if (row === undefined) throw new Error(`event ${eventId} on ${topic} was neither appended nor found`);
    return bigintToNumber(row.sequence);
  }

  async readAfter(topic: string, afterSequence: number, limit: number): Promise<LoggedEvent[]> {
    const rows = await queryRows<LoggedEventRow>(this.dataSource, READ_AFTER, [topic, afterSequence, limit]);
    return rows.map((row) => ({
      sequence: bigintToNumber(row.sequence),
      topic: row.topic,
      key: row.key,
      envelope: JSON.parse(row.envelope) as MessageEnvelope<unknown>,
    }));
  }

  async committedOffset(group: string, topic: string): Promise<number> {
    const [row] = await queryRows<SequenceRow>(this.dataSource, COMMITTED_OFFSET, [group, topic]);
    return row === undefined ? 0 : bigintToNumber(row.sequence);
  }

  /**
   * Sets each offset to exactly its `sequence`, also backwards (a consumer may rewind), in one
   * statement. A (group, topic) named twice keeps its last sequence.
   */
  async commitOffsets(offsets: ReadonlyArray<{ group: string; topic: string; sequence: number }>): Promise<void> {
    const last = new Map(offsets.map((offset) => [JSON.stringify([offset.group, offset.topic]), offset]));
    if (last.size === 0) return;
    const rows = [...last.values()];
    await queryRows(this.dataSource, COMMIT_OFFSETS, [rows.map((row) => row.group), rows.map((row) => row.topic), rows.map((row) => row.sequence)]);
  }
}
