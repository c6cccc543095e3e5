import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventLogStore } from '@ringfence/bus';
import type { DataSource } from 'typeorm';
import type { PersistenceOptions } from '../persistence.options';
import { TypeOrmEventLogStore } from '../repositories/typeorm-event-log.store';
import { LmdbEventLogStore } from './lmdb-event-log.store';
import { importSqlEventLog } from './sql-event-log-import';

/** Where the embedded event log lives, beside the embedded database. */
export function eventLogPath(dataDir: string): string {
  return join(dataDir, 'event-log');
}

/**
 * The event log of this process. A sole writer (the embedded mode, the in-process bus) keeps it
 * in LMDB under `<dataDir>/event-log`, copying an earlier version's SQL log there once, and its
 * consumers' offsets in the relational database, beside what they wrote. With
 * Kafka the log is Kafka: the SQL store stays the provider's value, which nothing appends to.
 */
export async function openEventLog(options: PersistenceOptions, dataSource: DataSource): Promise<EventLogStore> {
  const sqlLog = new TypeOrmEventLogStore(dataSource);
  if (!options.soleWriter) return sqlLog;
  const path = eventLogPath(options.dataDir);
  mkdirSync(path, { recursive: true });
  const log = new LmdbEventLogStore(path, sqlLog);
  try {
    await importSqlEventLog(log, dataSource, options.logger);
  } catch (error) {
    await log.close();
    throw error;
  }
  return log;
}
