import type { DeviceKey, DeviceRecord } from '@ringfence/entities';
import type { TypeOrmDeviceRepository } from '../repositories/typeorm-device.repository';

let sequence = 0;
const newDevice = (): DeviceKey => ({ accountId: 'acc_devices', environment: 'test', deviceId: `dev-${Date.now().toString(36)}-${(sequence += 1)}` });
const recordOf = (key: DeviceKey, appliedEventIds: string[], userAgent: string): DeviceRecord => ({ deviceId: key.deviceId, userAgent, appliedEventIds }) as unknown as DeviceRecord;

/** `device_records` as both its stores use it: a compare-and-set per update, and many whole records in one statement. */
export function itStoresDeviceRecords(repository: () => TypeOrmDeviceRepository): void {
  it('writes many whole records in one statement, new and stored, and reads each back as written', async () => {
    const [stored, fresh] = [newDevice(), newDevice()];
    await repository().update(stored, () => recordOf(stored, ['evt-1'], 'Firefox'));

    // Text a JSON column would refuse or change (a NUL escape, a lone surrogate) is kept as written, as the record column is text.
    await repository().putMany([
      { key: stored, record: recordOf(stored, ['evt-1', 'evt-2'], 'Firefox \u0000 \ud800') },
      { key: fresh, record: recordOf(fresh, ['evt-3'], 'Chromium') },
    ]);

    expect(await repository().find(stored)).toEqual(recordOf(stored, ['evt-1', 'evt-2'], 'Firefox \u0000 \ud800'));
    expect(await repository().find(fresh)).toEqual(recordOf(fresh, ['evt-3'], 'Chromium'));
    // The compare-and-set still applies on top of what was put.
    await repository().update(fresh, (current) => recordOf(fresh, [...(current?.appliedEventIds ?? []), 'evt-4'], 'Chromium'));
    expect((await repository().find(fresh))?.appliedEventIds).toEqual(['evt-3', 'evt-4']);
  });

  it('lists the stored keys in keyset pages, each key once, every tenant', async () => {
    const keys = [newDevice(), newDevice(), { ...newDevice(), environment: 'live' as const }, { ...newDevice(), accountId: 'acc_devices_2' }];
    await repository().putMany(keys.map((key) => ({ key, record: recordOf(key, ['evt-1'], 'Firefox') })));

    const listed: DeviceKey[] = [];
    for (let page = await repository().keysAfter(undefined, 2); page.length > 0; page = await repository().keysAfter(page[page.length - 1], 2)) listed.push(...page);

    expect(listed).toEqual(expect.arrayContaining(keys));
    expect(new Set(listed.map((key) => JSON.stringify(key))).size).toBe(listed.length);
  });

  it('keeps each data set and account apart', async () => {
    const key = newDevice();
    await repository().putMany([{ key, record: recordOf(key, ['evt-1'], 'Firefox') }]);

    expect(await repository().find({ ...key, environment: 'live' })).toBeNull();
    expect(await repository().find({ ...key, accountId: 'acc_other' })).toBeNull();
  });
}
