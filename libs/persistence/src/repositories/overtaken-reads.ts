/** A read of some keys in flight: which of them a write overtook. */
export interface ReadInFlight {
  readonly overtaken: Set<string>;
}

/**
 * Which reads of the store a write of the same key overtook, for a cache that holds what it
 * reads beside writes it applies itself. A read that ran while a write of its key was in flight,
 * or began before the read ended, may or may not hold that write, in either order; the
 * cache must not hold what such a read found, or it could lack the write or apply it twice. A
 * read is overtaken for a key when a write of the key was in flight when the read began or began
 * before it ended.
 *
 * Holds nothing for keys without reads or writes in flight.
 */
export class OvertakenReads {
  /** Writes in flight per key. */
  private readonly writing = new Map<string, number>();
  /** Reads in flight per key. */
  private readonly reading = new Map<string, Set<ReadInFlight>>();

  beginWrite(keys: readonly string[]): void {
    for (const key of keys) {
      this.writing.set(key, (this.writing.get(key) ?? 0) + 1);
      for (const read of this.reading.get(key) ?? []) read.overtaken.add(key);
    }
  }

  endWrite(keys: readonly string[]): void {
    for (const key of keys) {
      const left = (this.writing.get(key) ?? 1) - 1;
      if (left === 0) this.writing.delete(key);
      else this.writing.set(key, left);
    }
  }

  beginRead(keys: readonly string[]): ReadInFlight {
    const read: ReadInFlight = { overtaken: new Set(keys.filter((key) => this.writing.has(key))) };
    for (const key of keys) {
      const reads = this.reading.get(key);
      if (reads === undefined) this.reading.set(key, new Set([read]));
      else reads.add(read);
    }
    return read;
  }

  endRead(keys: readonly string[], read: ReadInFlight): void {
    for (const key of keys) {
      const reads = this.reading.get(key);
      reads?.delete(read);
      if (reads?.size === 0) this.reading.delete(key);
    }
  }
}
