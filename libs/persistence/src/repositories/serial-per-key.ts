/**
 * Runs tasks of one key one after another, in the order they were given, and tasks of
 * different keys side by side: what a sole writer uses instead of row locks, to read, decide and
 * write one record without another task of the same record in between. A failed task does not
 * stop the next one of its key.
 */
export class SerialPerKey {
  /** Per key, the tail of its tasks; removed once the last one has settled. */
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task queued or running, for tests. */
  get busyKeys(): number {
    return this.tails.size;
  }
}
