import { LRUCache } from 'lru-cache';

export interface AccountShareLruOptions<K, V> {
  /** Entries held over every account. */
  max: number;
  /** Entries one account may hold: its share of `max` (ADR-0016). */
  maxPerAccount: number;
  /** The account an entry is held for. */
  accountOf: (key: K) => string;
  /** Called for each entry let go of to make room (not for `delete`, nor for a value replaced). */
  onEvict?: (key: K, value: V) => void;
}

/**
 * A least-recently-used cache shared by accounts, each within its share (ADR-0016,
 * "Tenants share fairly"): one LRU per account, bounded by `maxPerAccount`, and `max` over all.
 *
 * - An account that holds its share makes room among its own least recently used entries.
 * - When the whole cache is full, an account holding its fair part of it (`max` ÷ the accounts
 *   holding entries) or more makes room among its own too; one holding less takes the least
 *   recently used entry of the account holding the most. So nobody is starved by the accounts
 *   that filled the cache first (at start, say), and nobody is pushed below its fair part.
 *
 * So one account's flood of new entries never flushes another's hot ones: past its share, or
 * past its fair part of a full cache, it only cycles its own.
 *
 * For caches whose misses are read back from the store: an eviction loses nothing.
 *
 * Each account's LRU is an lru-cache bounded by `maxSize` (a size of 1 an entry), not `max`: with
 * `max` it allocates room for that many entries up front, which one cache per account would
 * multiply by the accounts; with `maxSize` it grows with what is held, and an empty one is dropped.
 */
export class AccountShareLru<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly accounts = new Map<string, LRUCache<K, V>>();
  private held = 0;

  constructor(private readonly options: AccountShareLruOptions<K, V>) {}

  get size(): number {
    return this.held;
  }

  /** The entries one account holds. */
  sizeOf(accountId: string): number {
    return this.accounts.get(accountId)?.size ?? 0;
  }

  /** Whether the account can take one more entry without letting go of any. */
  hasRoomFor(accountId: string): boolean {
    return this.sizeOf(accountId) < this.options.maxPerAccount && this.held < this.options.max;
  }

  /** The entry, now the account's most recently used. */
  get(key: K): V | undefined {
    return this.accounts.get(this.options.accountOf(key))?.get(key);
  }

  /** Whether the entry is held (its place in the order is left as it is). */
  has(key: K): boolean {
    return this.accounts.get(this.options.accountOf(key))?.has(key) ?? false;
  }

  set(key: K, value: V): void {
    const accountId = this.options.accountOf(key);
    const entries = this.accounts.get(accountId) ?? this.newAccount(accountId);
    if (!entries.has(key) && this.held >= this.options.max && entries.size < this.options.maxPerAccount) {
      const fairPart = Math.floor(this.options.max / this.accounts.size);
      if (entries.size < fairPart) this.evictOldest(this.largestOtherThan(accountId));
      else if (entries.size > 0) this.evictOldest(accountId);
      else {
        // More accounts than entries: no fair part to give this one.
        this.accounts.delete(accountId);
        return;
      }
    }
    // Its own last entry may just have gone, and its cache with it.
    this.accounts.set(accountId, entries);
    const before = entries.size;
    // At the account's share, lru-cache lets go of the account's own least recently used.
    entries.set(key, value);
    this.held += entries.size - before;
  }

  delete(key: K): boolean {
    const accountId = this.options.accountOf(key);
    const entries = this.accounts.get(accountId);
    if (entries === undefined || !entries.delete(key)) return false;
    this.held -= 1;
    if (entries.size === 0) this.accounts.delete(accountId);
    return true;
  }

  private newAccount(accountId: string): LRUCache<K, V> {
    const { onEvict } = this.options;
    const entries = new LRUCache<K, V>({
      // lru-cache takes no unbounded size: an unbounded share is the largest it takes.
      maxSize: Math.min(this.options.maxPerAccount, Number.MAX_SAFE_INTEGER),
      sizeCalculation: () => 1,
      ...(onEvict === undefined ? {} : { dispose: (value: V, key: K, reason: LRUCache.DisposeReason) => void (reason === 'evict' && onEvict(key, value)) }),
    });
    this.accounts.set(accountId, entries);
    return entries;
  }

  /** Lets go of the account's least recently used entry (an account left with none is dropped). */
  private evictOldest(accountId: string): void {
    const entries = this.accounts.get(accountId) as LRUCache<K, V>;
    entries.pop();
    this.held -= 1;
    if (entries.size === 0) this.accounts.delete(accountId);
  }

  /** The account holding the most, other than `accountId` (O(accounts): only when the whole cache is full). */
  private largestOtherThan(accountId: string): string {
    let largest: string | undefined;
    let largestSize = 0;
    for (const [candidate, entries] of this.accounts) {
      if (candidate !== accountId && entries.size > largestSize) {
        largest = candidate;
        largestSize = entries.size;
      }
    }
    // The cache is full and this account holds less than its fair part: another holds more.
    return largest as string;
  }
}

/** An account's share of a bound: `percent` of it, at least one entry. */
export function accountShareOf(bound: number, percent: number): number {
  return Math.max(1, Math.floor((bound * percent) / 100));
}

/**
 * The first element of a JSON array of strings as `JSON.stringify` writes it (the caches' keys
 * start with the account id): sliced without parsing, parsed only when it holds an escape.
 */
export function firstOfJsonTuple(key: string): string {
  const first = key.slice(2, key.indexOf('"', 2));
  return first.includes('\\') ? (JSON.parse(key) as [string])[0] : first;
}
