import type { DeviceKey, DeviceRecord, DeviceRepository } from '@ringfence/entities';
import { background, jsonTextSequence, jsonTexts, queryRows } from '@ringfence/persistence';
import type { DataSource } from 'typeorm';

// Every statement names the whole key, tenant first.
const KEY_MATCHES = 'account_id = $1 AND environment = $2 AND device_id = $3';
const SELECT_RECORD = `SELECT record, revision FROM device_records WHERE ${KEY_MATCHES}`;
const INSERT_RECORD = `
  INSERT INTO device_records (account_id, environment, device_id, record) VALUES ($1, $2, $3, $4)
  ON CONFLICT (account_id, environment, device_id) DO NOTHING
  RETURNING 1 AS written`;
const UPDATE_RECORD = `
  UPDATE device_records SET record = $4, revision = revision + 1, updated_at = now()
   WHERE ${KEY_MATCHES} AND revision = $5
  RETURNING 1 AS written`;
const PUT_RECORDS = background(`
  INSERT INTO device_records (account_id, environment, device_id, record)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], ${jsonTexts('$4')})
  ON CONFLICT (account_id, environment, device_id) DO UPDATE
     SET record = EXCLUDED.record, revision = device_records.revision + 1, updated_at = now()`);

const SELECT_KEYS_AFTER = `
  SELECT account_id, environment, device_id FROM device_records
   WHERE (account_id, environment, device_id) > ($1, $2, $3)
   ORDER BY account_id, environment, device_id
   LIMIT $4`;

/** A device's whole new record, for `putMany`. */
export interface DeviceWrite {
  key: DeviceKey;
  record: DeviceRecord;
}

/** A device's events come on several topics (its own, and checkpoints keyed by customer), so two writers of one device can meet. */
const MAX_ATTEMPTS = 20;

interface RecordRow {
  record: string;
  revision: string;
}

/**
 * Device read models in `device_records`, each a compare-and-set on its revision (as entity
 * documents are): read, change, write if the revision is still the one read, else again.
 */
export class TypeOrmDeviceRepository implements DeviceRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(key: DeviceKey): Promise<DeviceRecord | null> {
    const row = await this.read(key);
    return row === null ? null : (JSON.parse(row.record) as DeviceRecord);
  }

  async update(key: DeviceKey, change: (current: DeviceRecord | null) => DeviceRecord | null): Promise<DeviceRecord | null> {
    const parameters = [key.accountId, key.environment, key.deviceId];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const row = await this.read(key);
      const current = row === null ? null : (JSON.parse(row.record) as DeviceRecord);
      const next = change(current);
      if (next === null) return current;
      const text = JSON.stringify(next);
      const written =
        row === null
          ? await queryRows(this.dataSource, INSERT_RECORD, [...parameters, text])
          : await queryRows(this.dataSource, UPDATE_RECORD, [...parameters, text, row.revision]);
      if (written.length > 0) return next;
    }
    throw new Error(`device record ${parameters.join('/')} kept changing under ${MAX_ATTEMPTS} update attempts`);
  }

  /** Writes whole records, many in one statement, whatever is stored: for the only writer of the table (`WriteBehindDeviceRecords`). */
  async putMany(writes: readonly DeviceWrite[]): Promise<void> {
    if (writes.length === 0) return;
    await queryRows(this.dataSource, PUT_RECORDS, [
      writes.map(({ key }) => key.accountId),
      writes.map(({ key }) => key.environment),
      writes.map(({ key }) => key.deviceId),
      jsonTextSequence(writes.map(({ record }) => JSON.stringify(record))),
    ]);
  }

  /** Stored devices' keys after `after` (all tenants, in key order), at most `limit`: keyset pages, one statement each. */
  async keysAfter(after: DeviceKey | undefined, limit: number): Promise<DeviceKey[]> {
    const from = after === undefined ? ['', '', ''] : [after.accountId, after.environment, after.deviceId];
    const rows = await queryRows<{ account_id: string; environment: DeviceKey['environment']; device_id: string }>(this.dataSource, SELECT_KEYS_AFTER, [...from, limit]);
    return rows.map((row) => ({ accountId: row.account_id, environment: row.environment, deviceId: row.device_id }));
  }

  private async read(key: DeviceKey): Promise<RecordRow | null> {
    const rows = await queryRows<RecordRow>(this.dataSource, SELECT_RECORD, [key.accountId, key.environment, key.deviceId]);
    return rows[0] ?? null;
  }
}
