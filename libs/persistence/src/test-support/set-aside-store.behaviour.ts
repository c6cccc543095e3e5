import { randomUUID } from 'node:crypto';
import type { SetAsideEntry, SetAsideStore } from '@ringfence/platform';

/** A writer no other test uses: the table is shared by the file's tests. */
const newWriter = () => `writer-${randomUUID()}`;

function entry(overrides: Partial<SetAsideEntry> & Pick<SetAsideEntry, 'writer' | 'key'>): SetAsideEntry {
  return { accountId: 'acc_1', environment: 'live', row: '{"value":1}', error: 'QueryFailedError 22003: value out of range', attempts: 3, ...overrides };
}

/** The behaviour every `SetAsideStore` has; run against PGlite and PostgreSQL. */
export function itBehavesLikeASetAsideStore(store: () => SetAsideStore): void {
  it('keeps entries as given, newest first, and reads one back by id', async () => {
    const writer = newWriter();
    await store().put([entry({ writer, key: 'a' }), entry({ writer, key: 'b', accountId: null, environment: null })]);
    await store().put([entry({ writer, key: 'c', row: '{"timestamp":1e+24}' })]);

    const listed = await store().list({ writer, limit: 10 });

    expect(listed.map((row) => row.key)).toEqual(['c', 'b', 'a']);
    expect(listed[0]).toEqual(expect.objectContaining({ writer, accountId: 'acc_1', environment: 'live', row: '{"timestamp":1e+24}', attempts: 3 }));
    expect(listed[1]).toEqual(expect.objectContaining({ accountId: null, environment: null }));
    expect(await store().get(listed[2].id)).toEqual(listed[2]);
    expect(await store().get('sa_unknown')).toBeNull();
  });

  it('pages by id and filters by account', async () => {
    const writer = newWriter();
    await store().put([entry({ writer, key: 'a' }), entry({ writer, key: 'b', accountId: 'acc_2' }), entry({ writer, key: 'c' })]);

    const [first, ...rest] = await store().list({ writer, limit: 1 });
    expect(first.key).toBe('c');
    expect(rest).toEqual([]);
    expect((await store().list({ writer, before: first.id, limit: 10 })).map((row) => row.key)).toEqual(['b', 'a']);
    expect((await store().list({ writer, accountId: 'acc_2', limit: 10 })).map((row) => row.key)).toEqual(['b']);
  });

  it('replaces an entry set aside again under its id, adding its attempts', async () => {
    const writer = newWriter();
    await store().put([entry({ writer, key: 'a', attempts: 3 })]);
    const [before] = await store().list({ writer, limit: 10 });

    await store().put([entry({ writer, key: 'a', attempts: 3, row: '{"value":2}', error: 'again' })]);

    const [after, ...others] = await store().list({ writer, limit: 10 });
    expect(others).toEqual([]);
    expect(after).toEqual(expect.objectContaining({ id: before.id, row: '{"value":2}', error: 'again', attempts: 6 }));
  });

  it('keeps an entry whose key is longer than an index entry can hold, once per key', async () => {
    const writer = newWriter();
    // A graph change's key is the change itself: tens of kilobytes of text that no btree entry holds.
    const longKey = JSON.stringify({ customerId: 'x'.repeat(20_000), voucherCode: '\u0001'.repeat(20_000) });
    await store().put([entry({ writer, key: longKey })]);
    await store().put([entry({ writer, key: longKey, attempts: 3 }), entry({ writer, key: `${longKey}!` })]);

    const listed = await store().list({ writer, limit: 10 });

    expect(listed.map((row) => [row.key, row.attempts])).toEqual([
      [`${longKey}!`, 3],
      [longKey, 6],
    ]);
  });

  it('keeps text holding NUL characters, which text and jsonb columns refuse', async () => {
    const writer = newWriter();
    const row = JSON.stringify({ id: 'a\u0000b' });
    await store().put([entry({ writer, key: JSON.stringify(['acc_1', 'a\u0000b']), row, error: 'invalid byte sequence 0x00 in "a\u0000b"' })]);

    const [kept] = await store().list({ writer, limit: 10 });

    expect(JSON.parse(kept.row)).toEqual({ id: 'a\u0000b' });
    expect(kept.error).toBe('invalid byte sequence 0x00 in "a\\u0000b"');
  });

  it('removes an entry on replay, but not one set aside again after the replay read it', async () => {
    const writer = newWriter();
    await store().put([entry({ writer, key: 'a' }), entry({ writer, key: 'b' })]);
    const [b, a] = await store().list({ writer, limit: 10 });

    await store().remove(a.id, a.setAsideAt);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store().put([entry({ writer, key: 'b' })]);
    await store().remove(b.id, b.setAsideAt);

    expect((await store().list({ writer, limit: 10 })).map((row) => row.key)).toEqual(['b']);
  });
}
