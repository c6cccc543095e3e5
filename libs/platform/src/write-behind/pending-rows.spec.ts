import { PendingRows } from './pending-rows';
import { RowsNotWrittenError } from './row-writer';

interface Row {
  id: string;
  value: number;
}

/** Rows written to `store`; the first write throws `failWith()` when given. */
function rowsWrittenTo(store: Row[][], failWith?: () => unknown) {
  let failure = failWith;
  const rows = new PendingRows<Row>(
    (row) => row.id,
    async (batch) => {
      if (failure !== undefined) {
        const error = failure();
        failure = undefined;
        throw error;
      }
      store.push(batch);
    },
  );
  return rows;
}

describe(PendingRows.name, () => {
  it('writes every pending row in one batch, the newest row of a key, and nothing when none is pending', async () => {
    const store: Row[][] = [];
    const rows = rowsWrittenTo(store);
    rows.add({ id: 'a', value: 1 });
    rows.add({ id: 'b', value: 2 });
    rows.add({ id: 'a', value: 3 });
    expect(rows.isPending('a')).toBe(true);
    await rows.flush();
    await rows.flush();
    expect(store).toEqual([[{ id: 'a', value: 3 }, { id: 'b', value: 2 }]]);
    expect(rows.isPending('a')).toBe(false);
    expect(rows.unwritten('a')).toBeUndefined();
  });

  it('keeps the batch being written readable until its write settles', async () => {
    let finish: () => void = () => undefined;
    const rows = new PendingRows<Row>(
      (row) => row.id,
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    rows.add({ id: 'a', value: 1 });
    const flushed = rows.flush();
    await Promise.resolve();
    expect(rows.isPending('a')).toBe(false);
    expect(rows.unwritten('a')).toEqual({ id: 'a', value: 1 });
    finish();
    await flushed;
    expect(rows.unwritten('a')).toBeUndefined();
  });

  it('puts a batch that failed whole back, behind a newer row of the same key, for the next flush', async () => {
    const store: Row[][] = [];
    let fail: () => void = () => undefined;
    let first = true;
    const rows = new PendingRows<Row>(
      (row) => row.id,
      async (batch) => {
        if (!first) return void store.push(batch);
        first = false;
        await new Promise<void>((resolve) => (fail = resolve));
        throw new Error('store down');
      },
    );
    rows.add({ id: 'a', value: 1 });
    rows.add({ id: 'b', value: 2 });
    const failed = rows.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(rows.unwritten('a')).toEqual({ id: 'a', value: 1 });
    rows.add({ id: 'a', value: 5 });
    fail();
    await expect(failed).rejects.toThrow('store down');
    await rows.flush();
    expect(store).toEqual([[{ id: 'a', value: 5 }, { id: 'b', value: 2 }]]);
  });

  it('puts back only the rows a RowsNotWrittenError names', async () => {
    const store: Row[][] = [];
    const rows = rowsWrittenTo(store, () => new RowsNotWrittenError([{ id: 'b', value: 2 }], new Error('timeout')));
    rows.add({ id: 'a', value: 1 });
    rows.add({ id: 'b', value: 2 });
    await expect(rows.flush()).rejects.toBeInstanceOf(RowsNotWrittenError);
    expect(rows.isPending('a')).toBe(false);
    expect(rows.isPending('b')).toBe(true);
    await rows.flush();
    expect(store).toEqual([[{ id: 'b', value: 2 }]]);
  });

  it('runs flushes one after another, a failed one not stopping the next', async () => {
    const order: string[] = [];
    let calls = 0;
    const rows = new PendingRows<Row>(
      (row) => row.id,
      async (batch) => {
        calls += 1;
        const call = calls;
        order.push(`start ${call}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`end ${call}`);
        if (call === 1) throw new Error('first fails');
        expect(batch.length).toBeGreaterThan(0);
      },
    );
    rows.add({ id: 'a', value: 1 });
    const first = rows.flush();
    rows.add({ id: 'b', value: 2 });
    const second = rows.flush();
    await expect(first).rejects.toThrow('first fails');
    await second;
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });
});
