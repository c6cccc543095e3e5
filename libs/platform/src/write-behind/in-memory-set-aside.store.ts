import type { SetAsideEntry, SetAsideListFilter, SetAsideRow, SetAsideStore } from './set-aside';

/** A `SetAsideStore` in memory, for services' tests (the table's is tested in libs/persistence). */
export class InMemorySetAsideStore implements SetAsideStore {
  readonly rows: SetAsideRow[] = [];
  private nextId = 1;
  /** While set, `put` rejects with it (a store that is down). */
  failure: Error | undefined;

  async put(entries: readonly SetAsideEntry[]): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    for (const entry of entries) {
      const kept = this.rows.findIndex((row) => row.writer === entry.writer && row.key === entry.key);
      const id = kept >= 0 ? this.rows[kept].id : `sa_${this.nextId++}`;
      if (kept >= 0) this.rows.splice(kept, 1);
      this.rows.push({ ...entry, id, setAsideAt: Date.now() });
    }
  }

  async list({ writer, accountId, before, limit }: SetAsideListFilter): Promise<SetAsideRow[]> {
    const newestFirst = [...this.rows].reverse();
    const start = before === undefined ? 0 : newestFirst.findIndex((row) => row.id === before) + 1;
    return newestFirst
      .slice(start)
      .filter((row) => (writer === undefined || row.writer === writer) && (accountId === undefined || row.accountId === accountId))
      .slice(0, limit);
  }

  async get(id: string): Promise<SetAsideRow | null> {
    return this.rows.find((row) => row.id === id) ?? null;
  }

  async remove(id: string, setAsideAt: number): Promise<void> {
    const index = this.rows.findIndex((row) => row.id === id && row.setAsideAt <= setAsideAt);
    if (index >= 0) this.rows.splice(index, 1);
  }
}
