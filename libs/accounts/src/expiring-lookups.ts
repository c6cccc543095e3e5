interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * Answers of a lookup (found or not), each reused for `ttlMs`, at most `maxEntries` of them
 * (the oldest go first, so a flood of unknown keys stays bounded).
 *
 * One load per key at a time: callers that miss while a load of their key is under way share
 * it. Every request authenticates and reads its account, so when an entry expires under load
 * (or on a fresh process, when a burst arrives) each concurrent request would otherwise send
 * the same statement: a burst of 200 sent 200 key lookups and 200 account reads.
 *
 * A change drops what it affects (`delete`, `deleteWhere`) and every load under way, whatever
 * its key (changes are rare: telling which loads one affects is not worth it): callers after it
 * load afresh and see the change, and no answer read before it is kept.
 */
export class ExpiringLookups<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, Promise<V>>();
  /** Changes so far: a load started before the latest one does not keep its answer. */
  private changes = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.entries.get(key);
    if (cached !== undefined && cached.expiresAt > this.now()) return Promise.resolve(cached.value);
    return this.loading.get(key) ?? this.startLoad(key, load);
  }

  /**
   * Keeps `value` for `key` as if it had just been loaded: for a process that loads every answer
   * it can at start (a sole writer, whose answers then never change but by its own changes).
   */
  prime(key: string, value: V): void {
    this.remember(key, value);
  }

  delete(key: string): void {
    this.entries.delete(key);
    this.changed();
  }

  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
    this.changed();
  }

  private changed(): void {
    this.changes += 1;
    this.loading.clear();
  }

  private startLoad(key: string, load: () => Promise<V>): Promise<V> {
    const changesAtStart = this.changes;
    const settle = () => {
      if (this.loading.get(key) === loaded) this.loading.delete(key);
    };
    const loaded = load().then(
      (value) => {
        settle();
        if (this.changes === changesAtStart) this.remember(key, value);
        return value;
      },
      (error: unknown) => {
        settle();
        throw error;
      },
    );
    this.loading.set(key, loaded);
    return loaded;
  }

  private remember(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }
}
