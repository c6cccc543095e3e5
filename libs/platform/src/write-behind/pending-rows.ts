import { RowsNotWrittenError } from './row-writer';

/**
 * Rows written behind a consumer: `add` keeps each row pending (a later row of the same key
 * replaces it), and `flush` (the bus's beforeCommit, or a read that must see them) writes every
 * pending row in one call. Flushes run one after another. The batch being written stays readable
 * (`unwritten`) until its write settles; rows neither written nor set aside (a write that failed
 * whole, or the rows of a `RowsNotWrittenError`) go back to pending for the next flush, unless a
 * newer row of their key arrived meanwhile.
 */
export class PendingRows<Row> {
  private pending = new Map<string, Row>();
  private writing = new Map<string, Row>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    readonly keyOf: (row: Row) => string,
    private readonly write: (batch: Row[]) => Promise<void>,
  ) {}

  add(row: Row): void {
    this.pending.set(this.keyOf(row), row);
  }

  /** Whether a row of this key waits for the next flush. */
  isPending(key: string): boolean {
    return this.pending.has(key);
  }

  /** The row of this key not yet known to be in the store: pending, or in the batch being written. */
  unwritten(key: string): Row | undefined {
    return this.pending.get(key) ?? this.writing.get(key);
  }

  flush(): Promise<void> {
    const run = this.flushing.then(() => this.writePending());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.writing = batch;
    try {
      await this.write([...batch.values()]);
    } catch (error) {
      const unwritten = error instanceof RowsNotWrittenError ? (error.rows as Row[]) : [...batch.values()];
      for (const row of unwritten) {
        const key = this.keyOf(row);
        if (!this.pending.has(key)) this.pending.set(key, row);
      }
      throw error;
    } finally {
      this.writing = new Map();
    }
  }
}
