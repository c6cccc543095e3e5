/**
 * The ids of the events recorded lately, so that an event delivered again is not counted twice.
 *
 * The bus delivers at least once: after a crash it replays from the committed offset, and the
 * snapshot of the counters may already hold some of those events (the bus commits offsets after
 * the write, but events handled while the write ran are in it). So each write stores, with the
 * counters, the ids of the events it covers (`take`), and a restart loads the ids of the last
 * writes (`restore`), which a replay can meet again.
 *
 * Memory holds the ids not yet written, and those written in the current and the previous
 * period of `memoryMillis` (so each is remembered between one and two periods: this also covers
 * Kafka redelivering after a rebalance); ids loaded at start are kept for `restoredMemoryMillis`
 * from their load, long enough for the replay of a backlog to pass them. Four set lookups per
 * event, whatever the number of writes.
 */
export class RecordedEventIds {
  private pending = new Set<string>();
  private current = new Set<string>();
  private previous = new Set<string>();
  private currentSince: number | undefined;
  private restored = new Set<string>();
  private restoredUntil = -Infinity;

  constructor(
    private readonly memoryMillis: number,
    private readonly restoredMemoryMillis = memoryMillis,
  ) {}

  has(eventId: string): boolean {
    return this.pending.has(eventId) || this.current.has(eventId) || this.previous.has(eventId) || this.restored.has(eventId);
  }

  add(eventId: string): void {
    this.pending.add(eventId);
  }

  /** The ids recorded since the last call, for the store; they stay remembered for a period or two. */
  take(nowMillis: number): string[] {
    this.forgetAt(nowMillis);
    if (this.pending.size === 0) return [];
    const ids = [...this.pending];
    for (const id of ids) this.current.add(id);
    this.pending = new Set();
    return ids;
  }

  /** Gives back ids a failed write took: they go with the next write. */
  giveBack(ids: readonly string[]): void {
    for (const id of ids) this.pending.add(id);
  }

  /** Ids the store had, loaded at start: remembered for `restoredMemoryMillis` from `nowMillis`. */
  restore(ids: readonly string[], nowMillis: number): void {
    for (const id of ids) this.restored.add(id);
    this.restoredUntil = nowMillis + this.restoredMemoryMillis;
  }

  get size(): number {
    return this.pending.size + this.current.size + this.previous.size + this.restored.size;
  }

  private forgetAt(nowMillis: number): void {
    this.currentSince ??= nowMillis;
    if (nowMillis - this.currentSince >= this.memoryMillis) {
      this.previous = this.current;
      this.current = new Set();
      this.currentSince = nowMillis;
    }
    if (nowMillis > this.restoredUntil && this.restored.size > 0) this.restored = new Set();
  }
}
