import type { DataSource } from 'typeorm';
import type { PersistenceLogger } from '../persistence.options';
import { bigintToNumber, queryRows } from '../sql';
import type { ImportedEvent, LmdbEventLogStore } from './lmdb-event-log.store';

/** Events copied per transaction: a page of the SQL log. */
const IMPORT_PAGE = 2_000;

interface EventRow {
  sequence: string;
  topic: string;
  key: string;
  event_id: string;
  envelope: string;
}

const PAGE_AFTER = 'SELECT sequence, topic, key, event_id, envelope FROM event_log WHERE sequence > $1 ORDER BY sequence LIMIT $2';

/**
 * Before this version the embedded event log lived in the relational database's `event_log` and
 * `consumer_offsets` tables. On the first start with the LMDB log, its events are copied into
 * it with their sequences, once, before the bus starts: the feed keeps its history, and each
 * consumer resumes where it stopped (the offsets stay in `consumer_offsets`). The `event_log`
 * table stays as it was (a downgrade still finds it) and is no longer written.
 */
export async function importSqlEventLog(log: LmdbEventLogStore, dataSource: DataSource, logger?: PersistenceLogger): Promise<void> {
  if (log.importedSqlLog) return;
  let after = 0;
  let copied = 0;
  for (;;) {
    const rows = await queryRows<EventRow>(dataSource, PAGE_AFTER, [after, IMPORT_PAGE]);
    if (rows.length === 0) break;
    const events: ImportedEvent[] = rows.map((row) => ({ sequence: bigintToNumber(row.sequence), topic: row.topic, key: row.key, eventId: row.event_id, envelope: row.envelope }));
    await log.importEvents(events);
    after = events[events.length - 1].sequence;
    copied += events.length;
  }
  await log.finishSqlImport();
  if (copied > 0) logger?.info({ events: copied }, 'copied the SQL event log into the embedded event log');
}
