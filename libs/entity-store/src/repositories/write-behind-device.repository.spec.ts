import type { DeviceKey, DeviceRecord } from '@ringfence/entities';
import { DEFAULT_ROW_ATTEMPTS, InMemorySetAsideStore, SetAsideRows } from '@ringfence/platform';
import type { DeviceWrite } from './typeorm-device.repository';
import { type DeviceTable, WriteBehindDeviceRecords } from './write-behind-device.repository';

const device = (deviceId: string, accountId = 'acc_1'): DeviceKey => ({ accountId, environment: 'test', deviceId });
/** A record standing for any change: the events applied so far, which the tests compare. */
const recordOf = (key: DeviceKey, ...appliedEventIds: string[]) => ({ deviceId: key.deviceId, appliedEventIds }) as unknown as DeviceRecord;
const applying = (eventId: string) => (current: DeviceRecord | null) => ({ ...(current ?? ({} as DeviceRecord)), appliedEventIds: [...(current?.appliedEventIds ?? []), eventId] });

/** A table counting what reaches it, as `device_records` on the embedded database would. */
class CountingTable implements DeviceTable {
  readonly records = new Map<string, DeviceRecord>();
  reads = 0;
  statements = 0;
  down = false;
  /** Held reads: answered, with what was stored when they were asked, once released. */
  holdReads: Promise<void> | undefined;
  /** Records of this device id are refused, as PostgreSQL refuses a value it cannot store. */
  refusedDeviceId: string | undefined;

  async find(key: DeviceKey): Promise<DeviceRecord | null> {
    this.reads += 1;
    const stored = this.records.get(key.deviceId) ?? null;
    await this.holdReads;
    return stored;
  }

  keyPages = 0;

  async keysAfter(after: DeviceKey | undefined, limit: number): Promise<DeviceKey[]> {
    this.keyPages += 1;
    return [...this.records.keys()]
      .sort()
      .filter((deviceId) => after === undefined || deviceId > after.deviceId)
      .slice(0, limit)
      .map((deviceId) => device(deviceId));
  }

  async putMany(writes: readonly DeviceWrite[]): Promise<void> {
    if (this.down) throw new Error('connect ECONNREFUSED');
    this.statements += 1;
    if (writes.some(({ key }) => key.deviceId === this.refusedDeviceId)) throw Object.assign(new Error('unsupported Unicode escape sequence'), { code: '22P05' });
    for (const { key, record } of writes) this.records.set(key.deviceId, record);
  }
}

function storeOver(table: CountingTable, cachedRecords = 100) {
  const setAsideStore = new InMemorySetAsideStore();
  const setAside = new SetAsideRows(setAsideStore);
  return { records: new WriteBehindDeviceRecords(table, setAside, cachedRecords), setAside, setAsideStore };
}

describe(WriteBehindDeviceRecords.name, () => {
  it('answers an update from memory, shows it to the very next read, and writes every changed record in one statement at the flush', async () => {
    const table = new CountingTable();
    const { records } = storeOver(table);

    await records.update(device('dev-1'), applying('evt-1'));
    await records.update(device('dev-1'), applying('evt-2'));
    await records.update(device('dev-2'), applying('evt-3'));

    expect((await records.find(device('dev-1')))?.appliedEventIds).toEqual(['evt-1', 'evt-2']);
    expect(table.statements).toBe(0);
    await records.flush();
    expect(table.statements).toBe(1);
    expect(table.records.get('dev-1')?.appliedEventIds).toEqual(['evt-1', 'evt-2']);
    expect(table.records.get('dev-2')?.appliedEventIds).toEqual(['evt-3']);
    await records.flush();
    expect(table.statements).toBe(1);
  });

  it('reads the table once for a device it does not hold, a device never seen included, and serves it from memory after', async () => {
    const table = new CountingTable();
    table.records.set('dev-stored', recordOf(device('dev-stored'), 'evt-0'));
    const { records } = storeOver(table);

    expect((await records.find(device('dev-stored')))?.appliedEventIds).toEqual(['evt-0']);
    expect(await records.find(device('dev-unknown'))).toBeNull();
    await records.update(device('dev-stored'), applying('evt-1'));
    await records.find(device('dev-unknown'));

    expect(table.reads).toBe(2);
    expect((await records.find(device('dev-stored')))?.appliedEventIds).toEqual(['evt-0', 'evt-1']);
  });

  it('keeps an update made while the table was being read, rather than what the read brought', async () => {
    const table = new CountingTable();
    table.records.set('dev-1', recordOf(device('dev-1'), 'evt-0'));
    const { records } = storeOver(table);
    let release!: () => void;
    table.holdReads = new Promise((resolve) => (release = resolve));

    const read = records.find(device('dev-1'));
    table.holdReads = undefined;
    // The update's own read is not held; the first read answers after it, with the older record.
    await records.update(device('dev-1'), applying('evt-1'));
    release();

    expect((await read)?.appliedEventIds).toEqual(['evt-0', 'evt-1']);
    expect((await records.find(device('dev-1')))?.appliedEventIds).toEqual(['evt-0', 'evt-1']);
  });

  it('keeps what an outage left unwritten for the next flush, still served from memory', async () => {
    const table = new CountingTable();
    const { records } = storeOver(table);
    await records.update(device('dev-1'), applying('evt-1'));
    table.down = true;

    await expect(records.flush()).rejects.toThrow(/not written yet/);
    expect((await records.find(device('dev-1')))?.appliedEventIds).toEqual(['evt-1']);
    table.down = false;
    await records.flush();

    expect(table.records.get('dev-1')?.appliedEventIds).toEqual(['evt-1']);
  });

  it('writes the others when the table refuses one record, sets that one aside after its attempts, and keeps serving it from memory', async () => {
    const table = new CountingTable();
    table.refusedDeviceId = 'dev-bad';
    const { records, setAsideStore } = storeOver(table);
    await records.update(device('dev-bad'), applying('evt-1'));
    await records.update(device('dev-good'), applying('evt-2'));

    for (let attempt = 1; attempt < DEFAULT_ROW_ATTEMPTS; attempt += 1) await expect(records.flush()).rejects.toThrow(/not written yet/);
    await records.flush();

    expect(table.records.get('dev-good')?.appliedEventIds).toEqual(['evt-2']);
    expect(table.records.has('dev-bad')).toBe(false);
    expect(setAsideStore.rows).toEqual([expect.objectContaining({ writer: 'device-records', accountId: 'acc_1', environment: 'test', attempts: DEFAULT_ROW_ATTEMPTS })]);
    expect((await records.find(device('dev-bad')))?.appliedEventIds).toEqual(['evt-1']);
  });

  it("replays a set-aside record as memory holds it now, and answers the store's refusal while it stands", async () => {
    const table = new CountingTable();
    table.refusedDeviceId = 'dev-bad';
    const { records, setAside, setAsideStore } = storeOver(table);
    await records.update(device('dev-bad'), applying('evt-1'));
    for (let attempt = 1; attempt < DEFAULT_ROW_ATTEMPTS; attempt += 1) await expect(records.flush()).rejects.toThrow(/not written yet/);
    await records.flush();
    await records.update(device('dev-bad'), applying('evt-2'));
    const [entry] = setAsideStore.rows;

    await expect(setAside.replay(entry.id)).resolves.toMatchObject({ outcome: 'not-written' });
    table.refusedDeviceId = undefined;
    await expect(setAside.replay(entry.id)).resolves.toMatchObject({ outcome: 'written' });

    expect(table.records.get('dev-bad')?.appliedEventIds).toEqual(['evt-1', 'evt-2']);
    expect(setAsideStore.rows).toEqual([]);
  });

  it('once the stored keys are loaded, answers a device never stored without reading the table, and still reads a stored one', async () => {
    const table = new CountingTable();
    for (const deviceId of ['dev-a', 'dev-b', 'dev-c', 'dev-d', 'dev-e']) table.records.set(deviceId, recordOf(device(deviceId), `evt-${deviceId}`));
    const { records } = storeOver(table);

    await expect(records.loadStoredKeys(2)).resolves.toBe(5);
    expect(table.keyPages).toBe(3);
    expect(await records.find(device('dev-new'))).toBeNull();
    await records.update(device('dev-new-2'), applying('evt-1'));
    expect(table.reads).toBe(0);

    expect((await records.find(device('dev-e')))?.appliedEventIds).toEqual(['evt-dev-e']);
    expect(table.reads).toBe(1);
  });

  it('knows a device first written while the keys were loading, once the load is done', async () => {
    const table = new CountingTable();
    const { records } = storeOver(table, 1);
    const loading = records.loadStoredKeys();
    await records.update(device('dev-1'), applying('evt-1'));
    await records.update(device('dev-2'), applying('evt-2'));
    await records.flush();
    await loading;

    // A cache of one record: dev-1 is no longer in memory, and the filter sends its read to the table.
    expect((await records.find(device('dev-1')))?.appliedEventIds).toEqual(['evt-1']);
  });

  it("keeps each account's devices apart", async () => {
    const table = new CountingTable();
    const { records } = storeOver(table);

    await records.update(device('dev-1', 'acc_1'), applying('evt-1'));

    expect(await records.find(device('dev-1', 'acc_2'))).toBeNull();
  });
});
