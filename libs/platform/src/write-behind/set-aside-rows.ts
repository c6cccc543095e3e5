import { RowWriter, type RowWriterOptions } from './row-writer';
import { type SetAsideEvent, type SetAsideListFilter, type SetAsideListener, type SetAsideRow, type SetAsideStore, describeError } from './set-aside';

/**
 * How a writer takes back one of its set-aside rows (parsed from its JSON): it writes it, or
 * gives it back to its pending rows and flushes, and rejects when the row is still not written.
 */
export type ReplayRow = (row: unknown) => Promise<void>;

export type ReplayOutcome =
  | { outcome: 'written'; row: SetAsideRow }
  | { outcome: 'not-written'; row: SetAsideRow; error: string }
  | { outcome: 'unknown-row' }
  | { outcome: 'writer-not-here'; row: SetAsideRow };

/**
 * The process's set-aside rows: makes each writer's `RowWriter` (one store, one listener: the
 * metrics and the log), and replays a row into the writer that set it aside, which must run in
 * this process (each app keeps the rows of its own writers, in its own database).
 */
export class SetAsideRows {
  private readonly listeners: SetAsideListener[] = [];
  /** Each writer's replay of one of its entries, by writer name. */
  private readonly replays = new Map<string, (entry: SetAsideRow) => Promise<void>>();

  constructor(private readonly store: SetAsideStore) {}

  /** A writer's `RowWriter`, and how its rows are replayed. One writer per name in a process. */
  writer<Row>(options: RowWriterOptions<Row>, replay: ReplayRow): RowWriter<Row> {
    if (this.replays.has(options.name)) throw new Error(`a writer named ${options.name} is already registered`);
    const writer = new RowWriter(options, this.store, (event) => this.emit(event));
    this.replays.set(options.name, (entry) => writer.replay(entry.key, () => replay(JSON.parse(entry.row))));
    return writer;
  }

  /** Rows a writer could not store are told to `listener` (metrics, log). */
  subscribe(listener: SetAsideListener): void {
    this.listeners.push(listener);
  }

  /** The writers running in this process. */
  get writers(): string[] {
    return [...this.replays.keys()];
  }

  list(filter: SetAsideListFilter): Promise<SetAsideRow[]> {
    return this.store.list(filter);
  }

  get(id: string): Promise<SetAsideRow | null> {
    return this.store.get(id);
  }

  /**
   * Hands a set-aside row back to its writer. Its entry goes only once the row is written; a row
   * the store still refuses keeps its entry and is not retried (`RowWriter.replay`). A row that
   * could not be written for an outage stays pending too, and is written when the store returns.
   */
  async replay(id: string): Promise<ReplayOutcome> {
    const row = await this.store.get(id);
    if (row === null) return { outcome: 'unknown-row' };
    const replay = this.replays.get(row.writer);
    if (replay === undefined) return { outcome: 'writer-not-here', row };
    try {
      await replay(row);
    } catch (error) {
      return { outcome: 'not-written', row, error: describeError(error) };
    }
    await this.store.remove(row.id, row.setAsideAt);
    return { outcome: 'written', row };
  }

  private emit(event: SetAsideEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
