import { EntitySchema } from 'typeorm';

export interface ConsumerOffsetRow {
  groupId: string;
  topic: string;
  /** bigint: the driver returns it as a decimal string. */
  sequence: string;
  updatedAt: Date;
}

/** `consumer_offsets`: the last event-log sequence each consumer group handled per topic. */
export const ConsumerOffsetEntity = new EntitySchema<ConsumerOffsetRow>({
  name: 'consumer_offset',
  tableName: 'consumer_offsets',
  columns: {
    groupId: { name: 'group_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_consumer_offsets' },
    topic: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_consumer_offsets' },
    sequence: { type: 'bigint' },
    updatedAt: { name: 'updated_at', type: 'timestamptz', default: () => 'now()' },
  },
});
