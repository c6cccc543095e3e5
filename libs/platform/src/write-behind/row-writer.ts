import { type SetAsideEntry, type SetAsideListener, type SetAsideStore, describeError } from './set-aside';

/** Attempts a row the store refuses gets before it is set aside (each attempt is one flush, or one delivery of its event). */
export const DEFAULT_ROW_ATTEMPTS = 3;

/** Where a row belongs, for its set-aside entry and its log line (ids only, never its contents). */
export interface RowIdentity {
  accountId: string | null;
  environment: string | null;
  /** Unique per row within the writer. */
  key: string;
}

export interface RowWriterOptions<Row> {
  /** The writer's name in set-aside entries, metrics and logs. */
  name: string;
  /** The store's statement for many rows: the common case, one round trip. */
  writeAll(rows: readonly Row[]): Promise<void>;
  identify(row: Row): RowIdentity;
  /** JSON text of the row as kept aside; `JSON.stringify` unless the row needs another form. */
  serialise?(row: Row): string;
  /**
   * True when the error says the store could not be asked (connection, timeout, a transient
   * state): no row is to blame, nothing is counted against one, everything stays pending.
   */
  isUnavailable(error: unknown): boolean;
  /** Default `DEFAULT_ROW_ATTEMPTS`. */
  maxAttempts?: number;
}

/** Rows that are neither written nor set aside: the caller keeps them pending for its next write. */
export class RowsNotWrittenError<Row> extends Error {
  constructor(
    readonly rows: readonly Row[],
    cause: unknown,
  ) {
    super(`${rows.length} row(s) not written yet: ${describeError(cause)}`, { cause });
    this.name = 'RowsNotWrittenError';
  }
}

/**
 * Writes rows for one writer behind the request so that one row the store refuses never blocks
 * the others (ADR-0016). The batch statement stays the common case; only when it fails
 * with the store's own refusal (not an outage) are the refused rows found, by halving the batch
 * until each refused row stands alone, and the others written. A refused row gets
 * `maxAttempts` attempts across writes, then is set aside with its error, reported to the
 * listener (metrics, log) and no longer retried. A store that cannot be asked sets nothing
 * aside, nor does a set-aside that fails: those rows stay pending.
 *
 * `write` resolves once every row is written or set aside, and otherwise rejects with
 * `RowsNotWrittenError` naming the rows to keep pending, so a consumer's offsets are committed
 * only when nothing is left to retry.
 */
export class RowWriter<Row> {
  /** Failed attempts of rows the store refused, by key; forgotten once written or set aside. */
  private readonly attempts = new Map<string, number>();
  /** Rows an operator is replaying, by key, with the store's refusal once a write meets one. */
  private readonly replays = new Map<string, Replay>();
  private readonly maxAttempts: number;

  constructor(
    private readonly options: RowWriterOptions<Row>,
    private readonly setAside: SetAsideStore,
    private readonly listener: SetAsideListener,
  ) {
    this.maxAttempts = options.maxAttempts ?? DEFAULT_ROW_ATTEMPTS;
  }

  get name(): string {
    return this.options.name;
  }

  /** Rows that failed at least once and are still retried, for tests and metrics. */
  get rowsFailing(): number {
    return this.attempts.size;
  }

  async write(rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return;
    try {
      await this.options.writeAll(rows);
      this.forget(rows);
      return;
    } catch (error) {
      if (this.options.isUnavailable(error)) throw new RowsNotWrittenError(rows, error);
      const { written, refused, pending, outage } = await this.isolate(rows, error);
      this.forget(written);
      const retry = [...pending, ...(await this.settle(refused))];
      if (retry.length > 0) throw new RowsNotWrittenError(retry, outage ?? refused[0]?.error ?? error);
    }
  }

  /**
   * An operator's replay of a set-aside row (`SetAsideRows.replay`): `writeThrough` hands the row
   * to the writer's own path (pending again, then a flush, so it stays in order with newer rows
   * of its key), and this resolves only if no write it went through was refused. A replayed row
   * the store refuses gets no further attempt, from this write or any other that carried it: it
   * is neither retried nor set aside again, since its entry stays for the operator as its one
   * copy. Without this, the write that refused it could also be its last attempt, set it aside
   * anew, and leave the replay to report it written.
   */
  async replay(key: string, writeThrough: () => Promise<void>): Promise<void> {
    const replay: Replay = { refusal: undefined };
    this.replays.set(key, replay);
    try {
      await writeThrough();
    } finally {
      if (this.replays.get(key) === replay) this.replays.delete(key);
    }
    if (replay.refusal !== undefined) throw replay.refusal.error;
  }

  /**
   * Sets rows aside at once, whatever their attempts, with `cause` as their error: for a writer
   * that must let go of rows it could not write (it stops, or holds as many pending rows as it
   * may), so that they wait for an operator instead of being lost. Rejects, keeping nothing, when
   * the set-aside store cannot take them.
   */
  async setAsideNow(rows: readonly Row[], cause: unknown): Promise<void> {
    if (rows.length === 0) return;
    const entries = rows.map((row) => this.entryOf(row, cause, this.attempts.get(this.options.identify(row).key) ?? 0));
    try {
      await this.setAside.put(entries);
    } catch (error) {
      this.listener({ type: 'set-aside-failed', writer: this.options.name, rows: rows.length, error });
      throw error;
    }
    this.forget(rows);
    this.listener({ type: 'set-aside', entries });
  }

  /**
   * Halves a batch the store refused until each refused row stands alone, writing every part it
   * accepts. An outage met on the way stops it: what is not written then stays pending.
   */
  private async isolate(rows: readonly Row[], error: unknown): Promise<Isolated<Row>> {
    const isolated: Isolated<Row> = { written: [], refused: [], pending: [], outage: undefined };
    const failedGroups: Array<{ rows: readonly Row[]; error: unknown }> = [{ rows, error }];
    for (let group = failedGroups.shift(); group !== undefined; group = failedGroups.shift()) {
      if (isolated.outage !== undefined) isolated.pending.push(...group.rows);
      else if (group.rows.length === 1) isolated.refused.push({ row: group.rows[0], error: group.error });
      else {
        const middle = Math.ceil(group.rows.length / 2);
        for (const half of [group.rows.slice(0, middle), group.rows.slice(middle)]) {
          if (isolated.outage !== undefined) {
            isolated.pending.push(...half);
            continue;
          }
          try {
            await this.options.writeAll(half);
            isolated.written.push(...half);
          } catch (halfError) {
            if (this.options.isUnavailable(halfError)) {
              isolated.outage = halfError;
              isolated.pending.push(...half);
            } else failedGroups.push({ rows: half, error: halfError });
          }
        }
      }
    }
    return isolated;
  }

  /** Counts an attempt against each refused row; sets aside those out of attempts. Answers the rows to retry. */
  private async settle(refused: ReadonlyArray<{ row: Row; error: unknown }>): Promise<Row[]> {
    const retry: Row[] = [];
    const exhausted: Array<{ row: Row; entry: SetAsideEntry }> = [];
    for (const { row, error } of refused) {
      const identity = this.options.identify(row);
      const replay = this.replays.get(identity.key);
      if (replay !== undefined) {
        replay.refusal = { error };
        this.attempts.delete(identity.key);
        continue;
      }
      const attempts = (this.attempts.get(identity.key) ?? 0) + 1;
      if (attempts < this.maxAttempts) {
        this.attempts.set(identity.key, attempts);
        retry.push(row);
        continue;
      }
      exhausted.push({ row, entry: this.entryOf(row, error, attempts) });
    }
    if (exhausted.length === 0) return retry;
    try {
      await this.setAside.put(exhausted.map(({ entry }) => entry));
    } catch (error) {
      // Kept pending rather than lost: the next write tries it (and setting it aside) again.
      this.listener({ type: 'set-aside-failed', writer: this.options.name, rows: exhausted.length, error });
      return [...retry, ...exhausted.map(({ row }) => row)];
    }
    this.forget(exhausted.map(({ row }) => row));
    this.listener({ type: 'set-aside', entries: exhausted.map(({ entry }) => entry) });
    return retry;
  }

  private entryOf(row: Row, error: unknown, attempts: number): SetAsideEntry {
    const serialise = this.options.serialise ?? ((value: Row) => JSON.stringify(value));
    return { writer: this.options.name, ...this.options.identify(row), row: serialise(row), error: describeError(error), attempts };
  }

  private forget(rows: readonly Row[]): void {
    if (this.attempts.size === 0) return;
    for (const row of rows) this.attempts.delete(this.options.identify(row).key);
  }
}

interface Replay {
  /** Boxed: the store may refuse with any value, `undefined` included. */
  refusal: { error: unknown } | undefined;
}

interface Isolated<Row> {
  written: Row[];
  refused: Array<{ row: Row; error: unknown }>;
  pending: Row[];
  outage: unknown;
}
