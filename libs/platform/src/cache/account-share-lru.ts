import { LRUCache } from 'lru-cache';

export interface AccountShareLruOptions<K> {
  /** Entries held over every account. */
  max: number;
  /** Entries one account may hold: its share of `max` (decisions §16). */
  maxPerAccount: number;
  /** The account an entry is held for. */
  accountOf: (key: K) => string;
}

/**
 * A least-recently-used cache shared by accounts, each within its share (decisions §16,
 * "Tenants share fairly"): one LRU per account, bounded by `maxPerAccount`, and `max` over all.
 * An account that holds its share, or that finds the whole cache full, makes room among its
 * own least recently used entries; one holding none keeps nothing more (its miss reads the
 * store again). So one account's flood of new entries never flushes another's hot ones.
 *
 * For caches whose misses are read back from the store: an eviction loses nothing.
 */
export class AccountShareLru<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly accounts = new Map<string, LRUCache<K, V>>();
  private held = 0;

  constructor(private readonly options: AccountShareLruOptions<K>) {}

  get size(): number {
    return this.held;
  }

  /** The entries one account holds. */
  sizeOf(accountId: string): number {
    return this.accounts.get(accountId)?.size ?? 0;
  }

  get(key: K): V | undefined {
    return this.accounts.get(this.options.accountOf(key))?.get(key);
  }

  has(key: K): boolean {
    return this.accounts.get(this.options.accountOf(key))?.has(key) ?? false;
  }

  set(key: K, value: V): void {
    const accountId = this.options.accountOf(key);
    let cache = this.accounts.get(accountId);
    if (cache === undefined) {
      cache = new LRUCache<K, V>({ max: this.options.maxPerAccount });
      this.accounts.set(accountId, cache);
    }
    if (!cache.has(key) && this.held >= this.options.max) {
      if (cache.size === 0) return;
      cache.pop();
      this.held -= 1;
    }
    const before = cache.size;
    // Past the account's share, lru-cache drops the account's own least recently used entry.
    cache.set(key, value);
    this.held += cache.size - before;
  }

  delete(key: K): boolean {
    const cache = this.accounts.get(this.options.accountOf(key));
    if (cache === undefined || !cache.delete(key)) return false;
    this.held -= 1;
    return true;
  }
}

/** An account's share of a bound: `percent` of it, at least one entry. */
export function accountShareOf(bound: number, percent: number): number {
  return Math.max(1, Math.floor((bound * percent) / 100));
}
