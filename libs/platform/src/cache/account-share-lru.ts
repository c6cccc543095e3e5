export interface AccountShareLruOptions<K, V> {
  /** Entries held over every account. */
  max: number;
  /** Entries one account may hold: its share of `max` (decisions §16). */
  maxPerAccount: number;
  /** The account an entry is held for. */
  accountOf: (key: K) => string;
  /** Called for each entry let go of to make room (not for `delete`, nor for a value replaced). */
  onEvict?: (key: K, value: V) => void;
}

/**
 * A least-recently-used cache shared by accounts, each within its share (decisions §16,
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
 * Each account's LRU is a `Map` in order of use (a hit moves its entry to the end). Not
 * lru-cache: it allocates room for `max` entries up front, which one cache per account would
 * multiply by the accounts; a `Map` grows with what is held and is dropped once empty.
 */
export class AccountShareLru<K, V> {
  private readonly accounts = new Map<string, Map<K, V>>();
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
    const entries = this.accounts.get(this.options.accountOf(key));
    if (entries === undefined || !entries.has(key)) return undefined;
    const value = entries.get(key) as V;
    entries.delete(key);
    entries.set(key, value);
    return value;
  }

  /** Whether the entry is held (its place in the order is left as it is). */
  has(key: K): boolean {
    return this.accounts.get(this.options.accountOf(key))?.has(key) ?? false;
  }

  set(key: K, value: V): void {
    const accountId = this.options.accountOf(key);
    let entries = this.accounts.get(accountId);
    if (entries === undefined) {
      entries = new Map();
      this.accounts.set(accountId, entries);
    }
    if (entries.delete(key)) {
      entries.set(key, value);
      return;
    }
    if (entries.size >= this.options.maxPerAccount) this.evictOldest(accountId);
    else if (this.held >= this.options.max) {
      const fairPart = Math.floor(this.options.max / this.accounts.size);
      if (entries.size < fairPart) this.evictOldest(this.largestOtherThan(accountId));
      else if (entries.size > 0) this.evictOldest(accountId);
      else {
        // More accounts than entries: no fair part to give this one.
        this.accounts.delete(accountId);
        return;
      }
    }
    // Its own last entry may just have gone with its map.
    this.accounts.set(accountId, entries);
    entries.set(key, value);
    this.held += 1;
  }

  delete(key: K): boolean {
    const accountId = this.options.accountOf(key);
    const entries = this.accounts.get(accountId);
    if (entries === undefined || !entries.delete(key)) return false;
    this.held -= 1;
    if (entries.size === 0) this.accounts.delete(accountId);
    return true;
  }

  /** Lets go of the account's least recently used entry (an account left with none is dropped). */
  private evictOldest(accountId: string): void {
    const entries = this.accounts.get(accountId) as Map<K, V>;
    const [key, value] = entries.entries().next().value as [K, V];
    entries.delete(key);
    this.held -= 1;
    if (entries.size === 0) this.accounts.delete(accountId);
    this.options.onEvict?.(key, value);
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
