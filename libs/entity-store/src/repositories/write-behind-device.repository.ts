import type { DeviceKey, DeviceRecord, DeviceRepository } from '@ringfence/entities';
import { SerialPerKey, StoredKeysFilter, isRowRefusal } from '@ringfence/persistence';
import { AccountShareLru, PendingRows, type RowWriter, type SetAsideRows, firstOfJsonTuple } from '@ringfence/platform';
import type { DeviceWrite } from './typeorm-device.repository';

/** The table under the write-behind: a record as stored, many whole records written in one statement, and the stored keys. */
export interface DeviceTable {
  find(key: DeviceKey): Promise<DeviceRecord | null>;
  putMany(writes: readonly DeviceWrite[]): Promise<void>;
  keysAfter(after: DeviceKey | undefined, limit: number): Promise<DeviceKey[]>;
}

/** The writer's name in set-aside rows, metrics and logs. */
export const DEVICE_RECORDS_WRITER = 'device-records';

/**
 * Device read models for a process that is their only writer (the embedded mode), as entity
 * documents are kept there: `update` changes the record in memory and returns at once, `find`
 * sees every update made so far, and `flush` writes every changed record in one statement. The
 * devices consumer calls `flush` before the bus commits its offsets (`beforeCommit`), so an
 * event whose offset is committed is in the table; a crash before that redelivers the event,
 * and a record remembers the events it applied.
 *
 * Written through, every event naming a device cost two statements on the embedded database
 * one after another (read, compare-and-set), and scoring's device read, which waits for the
 * consumer to catch up, waited behind them: most of a checkpoint's time at 300 requests/s
 * (docs/performance.md). Records read or written recently are served from memory (bounded, each
 * account its share); a miss reads the table, unless the filter of stored keys (loaded at start)
 * says the device was never stored: a first sight, on a busy embedded database, took as long as
 * the rest of the event's handling.
 *
 * A record the table refuses does not hold the others up (ADR-0016): `RowWriter` writes the
 * rest and, after its attempts, sets it aside (writer `device-records`); memory keeps serving
 * it, and its next update writes it whole again.
 */
export class WriteBehindDeviceRecords implements DeviceRepository {
  /** Changed and not yet written, and the batch being written, by key. */
  private readonly pending: PendingRows<DeviceWrite>;
  /** Records as last read or written (null: not stored), by key. */
  private readonly recent: AccountShareLru<string, { record: DeviceRecord | null }>;
  /** One device's updates run one after another. */
  private readonly updates = new SerialPerKey();
  /**
   * Every key stored or being written, once `keysLoaded`: a device outside it does not exist, so
   * a first sight (most devices) is answered without a read of the table. Until then every miss
   * reads the table.
   */
  private readonly storedKeys = new StoredKeysFilter();
  private keysLoaded = false;
  private readonly writer: RowWriter<DeviceWrite>;

  constructor(
    private readonly table: DeviceTable,
    setAside: SetAsideRows,
    cachedRecords: number,
  ) {
    this.recent = new AccountShareLru({ max: cachedRecords, maxPerAccount: cachedRecords, accountOf: firstOfJsonTuple });
    this.writer = setAside.writer<DeviceWrite>(
      {
        name: DEVICE_RECORDS_WRITER,
        writeAll: (writes) => table.putMany(writes),
        identify: ({ key }) => ({ accountId: key.accountId, environment: key.environment, key: keyOf(key) }),
        isUnavailable: (error) => !isRowRefusal(error),
      },
      (row) => this.replay(row as DeviceWrite),
    );
    this.pending = new PendingRows(({ key }) => keyOf(key), (batch) => this.writer.write(batch));
  }

  /**
   * Reads every stored key into the filter, in keyset pages of `pageSize`; records are served
   * meanwhile (from the table on a miss). Keys written meanwhile are added by `update`, before
   * their write, so none is missing when it completes. Answers how many keys were stored; a
   * failure leaves the filter unused, which is only slower.
   */
  async loadStoredKeys(pageSize = 10_000): Promise<number> {
    let after: DeviceKey | undefined;
    let keys = 0;
    for (;;) {
      const page = await this.table.keysAfter(after, pageSize);
      for (const key of page) this.storedKeys.add(keyOf(key));
      keys += page.length;
      if (page.length < pageSize) break;
      after = page[page.length - 1];
    }
    this.keysLoaded = true;
    return keys;
  }

  find(key: DeviceKey): Promise<DeviceRecord | null> {
    return this.findByKey(key, keyOf(key));
  }

  update(key: DeviceKey, change: (current: DeviceRecord | null) => DeviceRecord | null): Promise<DeviceRecord | null> {
    const recordKey = keyOf(key);
    return this.updates.run(recordKey, async () => {
      const current = await this.findByKey(key, recordKey);
      const next = change(current);
      if (next === null) return current;
      this.storedKeys.add(recordKey);
      this.pending.add({ key, record: next });
      this.recent.set(recordKey, { record: next });
      return next;
    });
  }

  /** Writes every record changed so far, in one statement; flushes run one after another. */
  flush(): Promise<void> {
    return this.pending.flush();
  }

  private async findByKey(key: DeviceKey, recordKey: string): Promise<DeviceRecord | null> {
    const known = this.inMemory(recordKey);
    if (known !== undefined) return known;
    if (this.keysLoaded && !this.storedKeys.mightContain(recordKey)) return null;
    const stored = await this.table.find(key);
    // An update may have landed while the table was read; it is newer than what was read.
    const meanwhile = this.inMemory(recordKey);
    if (meanwhile !== undefined) return meanwhile;
    this.recent.set(recordKey, { record: stored });
    return stored;
  }

  private inMemory(recordKey: string): DeviceRecord | null | undefined {
    return this.pending.unwritten(recordKey)?.record ?? this.recent.get(recordKey)?.record;
  }

  /**
   * An operator's replay of a set-aside record: the record as it stands in memory (every update
   * since it was set aside built on it), or the set-aside copy when none is held, written again.
   */
  private async replay({ key, record }: DeviceWrite): Promise<void> {
    await this.update(key, (current) => current ?? record);
    await this.flush();
  }
}

// JSON of the tuple, account first: no separator character can make two devices collide, and the cache's share is per account.
const keyOf = (key: DeviceKey): string => JSON.stringify([key.accountId, key.environment, key.deviceId]);
