import { EntitySchema } from 'typeorm';

export interface EventLogEntryRow {
  /** bigint: the driver returns it as a decimal string. */
  sequence: string;
  topic: string;
  key: string;
  eventId: string;
  /** The envelope's JSON as written (`text`, not `jsonb`: read back whole, never inside). */
  envelope: string;
  appendedAt: Date;
}

/** `event_log`: the embedded mode's durable, append-only topic log. */
export const EventLogEntryEntity = new EntitySchema<EventLogEntryRow>({
  name: 'event_log_entry',
  tableName: 'event_log',
  columns: {
    sequence: {
      type: 'bigint',
      primary: true,
      generated: 'increment',
      primaryKeyConstraintName: 'pk_event_log',
    },
    topic: { type: 'text' },
    key: { type: 'text' },
    eventId: { name: 'event_id', type: 'text' },
    envelope: { type: 'text' },
    appendedAt: { name: 'appended_at', type: 'timestamptz', default: () => 'now()' },
  },
  uniques: [{ name: 'uq_event_log_topic_event_id', columns: ['topic', 'eventId'] }],
  indices: [{ name: 'idx_event_log_topic_sequence', columns: ['topic', 'sequence'] }],
});
