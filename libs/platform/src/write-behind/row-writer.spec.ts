import { InMemorySetAsideStore } from './in-memory-set-aside.store';
import { RowWriter, type RowWriterOptions, RowsNotWrittenError } from './row-writer';
import type { SetAsideEvent } from './set-aside';

interface TestRow {
  id: string;
  value: number;
}

class StoreUnavailableError extends Error {}

/** A table that refuses rows whose value is negative, and everything while it is down; counts statements. */
class RefusingTable {
  readonly stored = new Map<string, number>();
  statements = 0;
  down = false;

  async writeAll(rows: readonly TestRow[]): Promise<void> {
    this.statements += 1;
    if (this.down) throw new StoreUnavailableError('connect ECONNREFUSED');
    const refused = rows.find((row) => row.value < 0);
    if (refused !== undefined) throw Object.assign(new Error(`value out of range: ${refused.id}`), { code: '22003' });
    for (const row of rows) this.stored.set(row.id, row.value);
  }
}

const rows = (count: number, poisoned: readonly number[] = []): TestRow[] =>
  Array.from({ length: count }, (_, index) => ({ id: `row-${index}`, value: poisoned.includes(index) ? -1 : index }));

function writerOver(table: RefusingTable, overrides: Partial<RowWriterOptions<TestRow>> = {}) {
  const setAside = new InMemorySetAsideStore();
  const events: SetAsideEvent[] = [];
  const writer = new RowWriter<TestRow>(
    {
      name: 'test-rows',
      writeAll: (batch) => table.writeAll(batch),
      identify: (row) => ({ accountId: 'acc_1', environment: 'test', key: row.id }),
      isUnavailable: (error) => error instanceof StoreUnavailableError,
      maxAttempts: 3,
      ...overrides,
    },
    setAside,
    (event) => events.push(event),
  );
  return { writer, setAside, events };
}

/** Writes `batch`, answering the rows to keep pending (what a write-behind flush does). */
async function writeKeepingPending(writer: RowWriter<TestRow>, batch: readonly TestRow[]): Promise<TestRow[]> {
  try {
    await writer.write(batch);
    return [];
  } catch (error) {
    if (!(error instanceof RowsNotWrittenError)) throw error;
    return [...(error.rows as TestRow[])];
  }
}

describe(RowWriter.name, () => {
  it('writes a batch the store accepts in one statement', async () => {
    const table = new RefusingTable();
    const { writer } = writerOver(table);

    await writer.write(rows(100));

    expect(table.stored.size).toBe(100);
    expect(table.statements).toBe(1);
  });

  it('writes the good rows of a batch with a refused one at once, and keeps only the refused one pending', async () => {
    const table = new RefusingTable();
    const { writer, setAside } = writerOver(table);

    const pending = await writeKeepingPending(writer, rows(64, [17]));

    expect(pending.map((row) => row.id)).toEqual(['row-17']);
    expect(table.stored.size).toBe(63);
    expect(setAside.rows).toEqual([]);
    // Halving finds one row in about two statements per halving, not one per row.
    expect(table.statements).toBeLessThanOrEqual(1 + 2 * Math.log2(64));
  });

  it('sets a refused row aside with its error after its attempts, tells the listener, and then resolves', async () => {
    const table = new RefusingTable();
    const { writer, setAside, events } = writerOver(table);
    let pending = await writeKeepingPending(writer, rows(8, [3]));
    pending = await writeKeepingPending(writer, [...pending, { id: 'row-later', value: 5 }]);
    expect(pending.map((row) => row.id)).toEqual(['row-3']);
    expect(setAside.rows).toEqual([]);

    await writer.write(pending);

    expect(setAside.rows).toEqual([
      expect.objectContaining({ writer: 'test-rows', accountId: 'acc_1', environment: 'test', key: 'row-3', row: JSON.stringify({ id: 'row-3', value: -1 }), attempts: 3 }),
    ]);
    expect(setAside.rows[0].error).toBe('Error 22003: value out of range: row-3');
    expect(events).toEqual([{ type: 'set-aside', entries: [expect.objectContaining({ key: 'row-3' })] }]);
    expect(table.stored.get('row-later')).toBe(5);
    expect(writer.rowsFailing).toBe(0);
  });

  it('counts nothing against the rows while the store is unavailable, and writes them all when it returns', async () => {
    const table = new RefusingTable();
    const { writer, setAside, events } = writerOver(table);
    table.down = true;
    let pending = rows(10);
    for (let flush = 0; flush < 5; flush += 1) pending = await writeKeepingPending(writer, pending);

    expect(pending).toHaveLength(10);
    expect(table.statements).toBe(5);
    expect(setAside.rows).toEqual([]);
    expect(events).toEqual([]);

    table.down = false;
    await writer.write(pending);
    expect(table.stored.size).toBe(10);
  });

  it('stops isolating at an outage met on the way: what is not written stays pending, uncounted', async () => {
    const table = new RefusingTable();
    const { writer, setAside } = writerOver(table, { maxAttempts: 1 });
    const original = table.writeAll.bind(table);
    table.writeAll = async (batch) => {
      // The first statement finds the refused row; the store goes down right after it.
      if (table.statements === 1) table.down = true;
      return original(batch);
    };

    const pending = await writeKeepingPending(writer, rows(6, [0]));

    expect(pending).toHaveLength(6);
    expect(setAside.rows).toEqual([]);
  });

  it('keeps a row pending when setting it aside fails, and says so to the listener', async () => {
    const table = new RefusingTable();
    const { writer, setAside, events } = writerOver(table, { maxAttempts: 1 });
    setAside.failure = new Error('set-aside table unavailable');

    const pending = await writeKeepingPending(writer, rows(4, [2]));

    expect(pending.map((row) => row.id)).toEqual(['row-2']);
    expect(events).toEqual([{ type: 'set-aside-failed', writer: 'test-rows', rows: 1, error: setAside.failure }]);

    setAside.failure = undefined;
    await writer.write(pending);
    expect(setAside.rows.map((row) => row.key)).toEqual(['row-2']);
  });

  it('forgets the attempts of a row once it is written (a cause fixed meanwhile)', async () => {
    const table = new RefusingTable();
    const { writer, setAside } = writerOver(table);
    await writeKeepingPending(writer, [{ id: 'row-1', value: -1 }]);
    await writeKeepingPending(writer, [{ id: 'row-1', value: -1 }]);

    await writer.write([{ id: 'row-1', value: 1 }]);
    await writeKeepingPending(writer, [{ id: 'row-1', value: -1 }]);

    expect(setAside.rows).toEqual([]);
    expect(writer.rowsFailing).toBe(1);
  });

  it('sets rows aside at once when told to let go of them, with the cause and the attempts they had, and forgets them', async () => {
    const table = new RefusingTable();
    const { writer, setAside, events } = writerOver(table);
    await writeKeepingPending(writer, rows(2, [1]));
    table.down = true;
    const outage = new StoreUnavailableError('connect ECONNREFUSED');

    await writer.setAsideNow(rows(3, [1]).slice(1), outage);

    expect(setAside.rows.map(({ key, attempts, error }) => ({ key, attempts, error }))).toEqual([
      { key: 'row-1', attempts: 1, error: 'Error: connect ECONNREFUSED' },
      { key: 'row-2', attempts: 0, error: 'Error: connect ECONNREFUSED' },
    ]);
    expect(events).toEqual([{ type: 'set-aside', entries: [expect.objectContaining({ key: 'row-1' }), expect.objectContaining({ key: 'row-2' })] }]);
    expect(writer.rowsFailing).toBe(0);
  });

  it('rejects, keeping nothing, when rows it must let go of cannot be set aside', async () => {
    const table = new RefusingTable();
    const { writer, setAside, events } = writerOver(table);
    setAside.failure = new Error('set-aside table unavailable');

    await expect(writer.setAsideNow(rows(1), new Error('stopping'))).rejects.toBe(setAside.failure);
    expect(events).toEqual([{ type: 'set-aside-failed', writer: 'test-rows', rows: 1, error: setAside.failure }]);
  });

  it("answers a replay the store still refuses with its refusal, and neither retries the row nor sets it aside again, whichever write met it", async () => {
    const table = new RefusingTable();
    const { writer, setAside, events } = writerOver(table);
    const refused = { id: 'row-3', value: -1 };
    const pendingAfter: TestRow[][] = [];

    // The replay's flush waits behind other writes that carry the row too (a consumer's
    // commit): three refusals, as many as its attempts, before the replay's own.
    const replay = writer.replay('row-3', async () => {
      for (let write = 0; write < 4; write += 1) pendingAfter.push(await writeKeepingPending(writer, [refused, { id: `row-other-${write}`, value: write }]));
    });

    await expect(replay).rejects.toMatchObject({ message: 'value out of range: row-3' });
    expect(pendingAfter).toEqual([[], [], [], []]);
    expect(setAside.rows).toEqual([]);
    expect(events).toEqual([]);
    expect(writer.rowsFailing).toBe(0);
    expect([...table.stored.keys()]).toEqual(['row-other-0', 'row-other-1', 'row-other-2', 'row-other-3']);
  });

  it('resolves a replay the store takes, and counts the next refusal of its key as a first attempt again', async () => {
    const table = new RefusingTable();
    const { writer, setAside } = writerOver(table);

    await writer.replay('row-1', () => writer.write([{ id: 'row-1', value: 1 }]));
    const pending = await writeKeepingPending(writer, [{ id: 'row-1', value: -1 }]);

    expect(table.stored.get('row-1')).toBe(1);
    expect(pending).toEqual([{ id: 'row-1', value: -1 }]);
    expect(setAside.rows).toEqual([]);
  });
});
