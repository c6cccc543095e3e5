import { randomUUID } from 'node:crypto';
import type { StoredVelocityKey, VelocitySnapshotStore, VelocityTenantWrite } from '../velocity/velocity-snapshot.store';

const T = 1_763_800_000_000;

/** A tenant no other test uses: the tables are shared by the file's tests. */
const newScope = () => ({ accountId: `acc_${randomUUID().replaceAll('-', '')}`, environment: 'live' });

function tenantWrite(overrides: Partial<VelocityTenantWrite> & Pick<VelocityTenantWrite, 'scope'>): VelocityTenantWrite {
  return { keys: [], occurrences: [], occurrencesForgottenBefore: undefined, recordedEventIds: [], ...overrides };
}

const olderOf = (count: number) => ({ buckets: [29_396_000 * 4 + 1], numbers: [count, count * 10], distincts: [[0, 0, [123, -456]]], freshFrom: 29_396_664 });
const freshOf = (count: number) => ({ newest: T, buckets: [29_396_666 * 4], numbers: [count, count * 10] });
const snapshotOf = (count: number) => ({ older: olderOf(count), fresh: freshOf(count) });

async function allKeys(store: VelocitySnapshotStore, pageSize = 2): Promise<StoredVelocityKey[]> {
  const keys: StoredVelocityKey[] = [];
  for (let page = await store.keysAfter(undefined, pageSize); page.length > 0; ) {
    keys.push(...page);
    if (page.length < pageSize) break;
    const last = page[page.length - 1];
    page = await store.keysAfter({ scope: last.scope, after: [last.dimension, last.key] }, pageSize);
  }
  return keys;
}

/** The behaviour every `VelocitySnapshotStore` has; run against PGlite and PostgreSQL. */
export function itBehavesLikeAVelocitySnapshotStore(store: () => VelocitySnapshotStore): void {
  it('stores keys as given, replaces them, deletes the null ones, and reads them back in keyset pages across tenants', async () => {
    const first = newScope();
    const second = newScope();
    await store().write(
      [
        tenantWrite({ scope: first, keys: [{ dimension: 'customer', key: 'cus-1', snapshot: snapshotOf(1) }, { dimension: 'card', key: 'card-1', snapshot: snapshotOf(2) }] }),
        tenantWrite({ scope: second, keys: [{ dimension: 'customer', key: 'cus-1', snapshot: snapshotOf(3) }] }),
      ],
      T,
      T - 600_000,
    );
    await store().write([tenantWrite({ scope: first, keys: [{ dimension: 'card', key: 'card-1', snapshot: null }, { dimension: 'customer', key: 'cus-1', snapshot: snapshotOf(4) }] })], T, T - 600_000);

    const mine = (await allKeys(store())).filter((key) => [first.accountId, second.accountId].includes(key.scope.accountId));
    expect(mine).toEqual(
      [
        { scope: first, dimension: 'customer', key: 'cus-1', snapshot: snapshotOf(4) },
        { scope: second, dimension: 'customer', key: 'cus-1', snapshot: snapshotOf(3) },
      ].sort((a, b) => (a.scope.accountId < b.scope.accountId ? -1 : 1)),
    );
  });

  it('replaces only the fresh part of a key when a write has no older part', async () => {
    const scope = newScope();
    await store().write([tenantWrite({ scope, keys: [{ dimension: 'merchant', key: 'mid-1', snapshot: snapshotOf(1) }] })], T, T - 600_000);
    await store().write([tenantWrite({ scope, keys: [{ dimension: 'merchant', key: 'mid-1', snapshot: { fresh: freshOf(7) } }] })], T, T - 600_000);

    const [stored] = (await allKeys(store(), 100)).filter((key) => key.scope.accountId === scope.accountId);
    expect(stored.snapshot).toEqual({ older: olderOf(1), fresh: freshOf(7) });
  });

  it('deletes a key written alone, and keeps a key whose fresh part is written beside deleted ones', async () => {
    const scope = newScope();
    const keyOf = (key: string, snapshot: ReturnType<typeof snapshotOf> | { fresh: ReturnType<typeof freshOf> } | null) => ({ dimension: 'device', key, snapshot });
    await store().write([tenantWrite({ scope, keys: [keyOf('dev-1', snapshotOf(1)), keyOf('dev-2', snapshotOf(2)), keyOf('dev-3', snapshotOf(3))] })], T, T - 600_000);
    await store().write([tenantWrite({ scope, keys: [keyOf('dev-1', null)] })], T, T - 600_000);
    await store().write([tenantWrite({ scope, keys: [keyOf('dev-2', null), keyOf('dev-3', { fresh: freshOf(9) })] })], T, T - 600_000);

    const mine = (await allKeys(store(), 100)).filter((key) => key.scope.accountId === scope.accountId);
    expect(mine).toEqual([{ scope, dimension: 'device', key: 'dev-3', snapshot: { older: olderOf(3), fresh: freshOf(9) } }]);
  });

  it('keeps every key across pages whatever the page size, with keys that differ only by case and symbols', async () => {
    const scope = newScope();
    const keys = ['a', 'B', 'b', 'a b', '日本', '"quoted"', 'z'].map((key) => ({ dimension: 'email', key, snapshot: snapshotOf(1) }));
    await store().write([tenantWrite({ scope, keys })], T, T - 600_000);
    for (const pageSize of [1, 3, 100]) {
      const read = (await allKeys(store(), pageSize)).filter((key) => key.scope.accountId === scope.accountId).map((key) => key.key);
      expect([...read].sort()).toEqual(keys.map((key) => key.key).sort());
    }
  });

  it('merges an occurrence’s flags, forgets the days before the one given, per tenant', async () => {
    const scope = newScope();
    const other = newScope();
    await store().write(
      [
        tenantWrite({ scope, occurrences: [{ occurrence: 'transaction:t1', flags: 1, day: 20_410 }, { occurrence: 'transaction:t0', flags: 1, day: 20_400 }] }),
        tenantWrite({ scope: other, occurrences: [{ occurrence: 'transaction:t0', flags: 1, day: 20_400 }] }),
      ],
      T,
      T - 600_000,
    );
    await store().write([tenantWrite({ scope, occurrences: [{ occurrence: 'transaction:t1', flags: 2, day: 20_410 }], occurrencesForgottenBefore: 20_405 })], T, T - 600_000);

    const stored = (await store().occurrencesAfter(undefined, 10_000)).filter((row) => [scope.accountId, other.accountId].includes(row.scope.accountId));
    expect(stored).toEqual(
      expect.arrayContaining([
        { scope, occurrence: 'transaction:t1', flags: 3, day: 20_410 },
        { scope: other, occurrence: 'transaction:t0', flags: 1, day: 20_400 },
      ]),
    );
    expect(stored).toHaveLength(2);
    const [firstRow] = stored;
    const page = await store().occurrencesAfter({ scope: firstRow.scope, after: [firstRow.occurrence] }, 10_000);
    expect(page.some((row) => row.scope.accountId === firstRow.scope.accountId && row.occurrence === firstRow.occurrence)).toBe(false);
  });

  it('keeps the event ids of the writes after the cut-off, oldest first, per tenant', async () => {
    const scope = newScope();
    await store().write([tenantWrite({ scope, recordedEventIds: ['old'] })], T - 900_000, T - 1_800_000);
    await store().write([tenantWrite({ scope, recordedEventIds: ['e1', 'e2'] })], T - 60_000, T - 600_000);
    await store().write([tenantWrite({ scope, recordedEventIds: ['e3'] })], T, T - 600_000);

    const mine = (await store().recordedEventIds()).filter((row) => row.scope.accountId === scope.accountId);
    expect(mine).toEqual([
      { scope, eventIds: ['e1', 'e2'] },
      { scope, eventIds: ['e3'] },
    ]);
  });

  it('writes nothing, and fails nothing, for an empty write', async () => {
    await expect(store().write([], T, 0)).resolves.toBeUndefined();
  });

  it('stores nothing of a write that fails', async () => {
    const scope = newScope();
    const broken = tenantWrite({
      scope: { ...scope, environment: 'staging' },
      keys: [{ dimension: 'customer', key: 'cus-1', snapshot: snapshotOf(1) }],
      recordedEventIds: ['e-broken'],
    });
    await expect(store().write([tenantWrite({ scope, recordedEventIds: ['e-ok'] }), broken], T, T - 600_000)).rejects.toThrow();
    expect((await store().recordedEventIds()).filter((row) => row.scope.accountId === scope.accountId)).toEqual([]);
  });
}
