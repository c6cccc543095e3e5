import type { DataSource } from 'typeorm';
import { background, jsonTextSequence, jsonTexts, nullableJsonTextSequence, nullableJsonTexts, queryJsonPage, queryRows } from '@ringfence/persistence';
import type {
  StoredVelocityKey,
  StoredVelocityOccurrence,
  VelocityPageCursor,
  VelocityScopeRow,
  VelocitySnapshotStore,
  VelocityTenantWrite,
} from './velocity-snapshot.store';

/*
 * One statement for a whole write (data-modifying CTEs), so the counters, the occurrences and
 * the ids of the events they include are stored together or not at all: a crash can never leave
 * counters stored without the ids that make their replay skip them. Each CTE touches its own rows
 * (a key is written whole, has its fresh part replaced, or is deleted; the occurrences forgotten are days no changed occurrence
 * belongs to; the recorded events forgotten are older than the ones inserted).
 */
const WRITE = background(`
  WITH key_rows AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], ${nullableJsonTexts('$5')}, ${nullableJsonTexts('$6')}) AS k(account_id, environment, dimension, key_value, older, fresh)
  ), written_keys AS (
    INSERT INTO velocity_keys (account_id, environment, dimension, key_value, older, fresh)
    SELECT account_id, environment, dimension, key_value, older, fresh FROM key_rows WHERE older IS NOT NULL
    ON CONFLICT (account_id, environment, dimension, key_value) DO UPDATE SET older = EXCLUDED.older, fresh = EXCLUDED.fresh, updated_at = now()
  ), refreshed_keys AS (
    UPDATE velocity_keys v SET fresh = k.fresh, updated_at = now() FROM key_rows k
     WHERE k.older IS NULL AND k.fresh IS NOT NULL
       AND v.account_id = k.account_id AND v.environment = k.environment AND v.dimension = k.dimension AND v.key_value = k.key_value
  ), deleted_keys AS (
    DELETE FROM velocity_keys v USING key_rows k
     WHERE k.fresh IS NULL AND v.account_id = k.account_id AND v.environment = k.environment AND v.dimension = k.dimension AND v.key_value = k.key_value
  ), written_occurrences AS (
    INSERT INTO velocity_occurrences (account_id, environment, occurrence, flags, day)
    SELECT * FROM unnest($7::text[], $8::text[], $9::text[], $10::smallint[], $11::integer[])
    ON CONFLICT (account_id, environment, occurrence) DO UPDATE SET flags = velocity_occurrences.flags | EXCLUDED.flags
  ), forgotten_occurrences AS (
    DELETE FROM velocity_occurrences o USING unnest($12::text[], $13::text[], $14::integer[]) AS f(account_id, environment, before_day)
     WHERE o.account_id = f.account_id AND o.environment = f.environment AND o.day < f.before_day
  ), recorded AS (
    INSERT INTO velocity_recorded_events (account_id, environment, written_at_ms, event_ids)
    SELECT account_id, environment, $15::bigint, event_ids FROM unnest($16::text[], $17::text[], ${jsonTexts('$18')}) AS r(account_id, environment, event_ids)
  )
  DELETE FROM velocity_recorded_events WHERE written_at_ms < $19::bigint`);

// The statements that span tenants: keyset pages in primary-key order, for the load at start.
// A page is one JSON value (`queryJsonPage`), the stored JSON embedded as it is.
const KEYS_AFTER = `
  SELECT json_agg(json_build_array(account_id, environment, dimension, key_value, older::json, fresh::json)
                  ORDER BY account_id, environment, dimension, key_value) AS page
    FROM (SELECT account_id, environment, dimension, key_value, older, fresh FROM velocity_keys
           WHERE (account_id, environment, dimension, key_value) > ($1, $2, $3, $4)
           ORDER BY account_id, environment, dimension, key_value
           LIMIT $5) stored`;
const OCCURRENCES_AFTER = `
  SELECT json_agg(json_build_array(account_id, environment, occurrence, flags, day) ORDER BY account_id, environment, occurrence) AS page
    FROM (SELECT account_id, environment, occurrence, flags, day FROM velocity_occurrences
           WHERE (account_id, environment, occurrence) > ($1, $2, $3)
           ORDER BY account_id, environment, occurrence
           LIMIT $4) stored`;
const RECORDED_EVENTS = 'SELECT account_id, environment, event_ids FROM velocity_recorded_events ORDER BY sequence';

/** One element of a `KEYS_AFTER` page. */
type KeyRow = [accountId: string, environment: string, dimension: string, keyValue: string, older: unknown, fresh: unknown];
/** One element of an `OCCURRENCES_AFTER` page. */
type OccurrenceRow = [accountId: string, environment: string, occurrence: string, flags: number, day: number];

/** Scoring's velocity counters in `velocity_keys`, `velocity_occurrences` and `velocity_recorded_events`. */
export class TypeOrmVelocitySnapshotStore implements VelocitySnapshotStore {
  constructor(private readonly dataSource: DataSource) {}

  async write(changes: readonly VelocityTenantWrite[], writtenAtMillis: number, forgetRecordedEventsBeforeMillis: number): Promise<void> {
    const keys: [string[], string[], string[], string[], Array<string | null>, Array<string | null>] = [[], [], [], [], [], []];
    const occurrences: [string[], string[], string[], number[], number[]] = [[], [], [], [], []];
    const forgotten: [string[], string[], number[]] = [[], [], []];
    const recorded: [string[], string[], string[]] = [[], [], []];
    for (const { scope, keys: keyChanges, occurrences: occurrenceChanges, occurrencesForgottenBefore, recordedEventIds } of changes) {
      for (const { dimension, key, snapshot } of keyChanges) {
        const older = snapshot?.older === undefined ? null : JSON.stringify(snapshot.older);
        push(keys, [scope.accountId, scope.environment, dimension, key, older, snapshot === null ? null : JSON.stringify(snapshot.fresh)]);
      }
      for (const { occurrence, flags, day } of occurrenceChanges) push(occurrences, [scope.accountId, scope.environment, occurrence, flags, day]);
      if (occurrencesForgottenBefore !== undefined) push(forgotten, [scope.accountId, scope.environment, occurrencesForgottenBefore]);
      if (recordedEventIds.length > 0) push(recorded, [scope.accountId, scope.environment, JSON.stringify(recordedEventIds)]);
    }
    const [accounts, environments, dimensions, keyValues, older, fresh] = keys;
    const [recordedAccounts, recordedEnvironments, recordedEventIds] = recorded;
    // The counters' and the event ids' JSON texts as one parameter each (`jsonTextSequence`): as
    // `text[]` literals the driver escaped every quote in them, copying each text three times.
    await queryRows(this.dataSource, WRITE, [
      accounts,
      environments,
      dimensions,
      keyValues,
      nullableJsonTextSequence(older),
      nullableJsonTextSequence(fresh),
      ...occurrences,
      ...forgotten,
      writtenAtMillis,
      recordedAccounts,
      recordedEnvironments,
      jsonTextSequence(recordedEventIds),
      forgetRecordedEventsBeforeMillis,
    ]);
  }

  async keysAfter(after: VelocityPageCursor | undefined, limit: number): Promise<StoredVelocityKey[]> {
    const rows = await queryJsonPage<KeyRow>(this.dataSource, KEYS_AFTER, [...cursorOf(after, 2), limit]);
    return rows.map(([accountId, environment, dimension, key, older, fresh]) => ({ scope: { accountId, environment }, dimension, key, snapshot: { older, fresh } }));
  }

  async occurrencesAfter(after: VelocityPageCursor | undefined, limit: number): Promise<StoredVelocityOccurrence[]> {
    const rows = await queryJsonPage<OccurrenceRow>(this.dataSource, OCCURRENCES_AFTER, [...cursorOf(after, 1), limit]);
    return rows.map(([accountId, environment, occurrence, flags, day]) => ({ scope: { accountId, environment }, occurrence, flags, day }));
  }

  async recordedEventIds(): Promise<Array<{ scope: VelocityScopeRow; eventIds: string[] }>> {
    const rows = await queryRows<{ account_id: string; environment: string; event_ids: string }>(this.dataSource, RECORDED_EVENTS, []);
    return rows.map((row) => ({ scope: scopeOf(row), eventIds: JSON.parse(row.event_ids) as string[] }));
  }
}

function push<T extends unknown[]>(columns: { [K in keyof T]: T[K][] }, row: T): void {
  row.forEach((value, column) => (columns[column] as unknown[]).push(value));
}

/** The cursor's columns, or values before every row ('' sorts first in the "C" collation). */
function cursorOf(cursor: VelocityPageCursor | undefined, parts: number): string[] {
  if (cursor === undefined) return new Array<string>(2 + parts).fill('');
  return [cursor.scope.accountId, cursor.scope.environment, ...cursor.after];
}

const scopeOf = (row: { account_id: string; environment: string }): VelocityScopeRow => ({ accountId: row.account_id, environment: row.environment });
