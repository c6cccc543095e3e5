import { distinctHash } from './distinct-hash';
import { VELOCITY_TIME_UNITS } from './velocity-window-definitions';

const { DAY_MILLIS } = VELOCITY_TIME_UNITS;

/** What has been counted of one occurrence. */
export const OccurrenceFlags = {
  /** Its count (transactions, refunds…). */
  COUNTED: 1,
  /** Its failure (a declined payment). */
  FAILED: 2,
  /** Its amount. */
  SUMMED: 4,
} as const;
const ALL_FLAGS = 7;

/**
 * How long, in days of event time behind the newest event, an occurrence is remembered. A later
 * update of a transaction (after-authorisation, capture) within it is recognised and counts
 * nothing twice; one arriving later counts again in whatever window still holds it.
 */
export const OCCURRENCE_RETENTION_DAYS = 7;

/** One remembered occurrence as plain data, for the store. */
export interface OccurrenceRecord {
  /** `<kind>:<id>`. */
  occurrence: string;
  flags: number;
  /** The event-time day (epoch ms / 86,400,000, floored) it was first seen on. */
  day: number;
}

const CHECK_SEED = 0x9747b28c;
// The check hash's top bits, above the flags in one small integer: V8 keeps it unboxed.
const checkOf = (occurrence: string): number => distinctHash(occurrence, CHECK_SEED) >>> 4;

/**
 * Which occurrences (a transaction, a refund, a payout…) have been counted, so that each counts
 * once whatever number of updates it gets: a PSP transaction is usually sent before and after
 * its authorisation, and captured later, under one transactionId. One tenant's.
 *
 * Kept per event-time day, `OCCURRENCE_RETENTION_DAYS` days plus the current one, each day a Map
 * from a 32-bit hash of the occurrence to a 28-bit check hash and the flags: about 30 bytes an
 * occurrence, whatever the length of its id. Two occurrences whose hashes both collide (about
 * one in 2⁶⁰ per pair) share their flags.
 */
export class OccurrenceRegistry {
  private readonly days = new Map<number, Map<number, number>>();
  private newestDay = -Infinity;
  /** Changed since the last `takeChanges`, with their full ids (the store keeps those). */
  private changed = new Map<string, OccurrenceRecord>();
  /** The oldest day kept, once older days were forgotten and the store has not been told. */
  private forgottenBefore: number | undefined;

  /**
   * Marks `wanted` as counted for the occurrence seen at `timestampMillis` and answers the flags
   * that were not counted before (what this update may count now).
   */
  claim(occurrence: string, timestampMillis: number, wanted: number): number {
    const day = Math.floor(timestampMillis / DAY_MILLIS);
    if (day > this.newestDay) this.advanceTo(day);
    const key = distinctHash(occurrence);
    const check = checkOf(occurrence);
    for (const [storedDay, entries] of this.days) {
      const entry = entries.get(key);
      if (entry === undefined || entry >>> 3 !== check) continue;
      const granted = wanted & ~entry & ALL_FLAGS;
      if (granted !== 0) {
        entries.set(key, entry | granted);
        this.changed.set(occurrence, { occurrence, flags: (entry | granted) & ALL_FLAGS, day: storedDay });
      }
      return granted;
    }
    // Older than what is remembered: it counts, as nothing can say it was counted already.
    if (day < this.newestDay - OCCURRENCE_RETENTION_DAYS) return wanted;
    this.daySet(day).set(key, check * 8 + wanted);
    this.changed.set(occurrence, { occurrence, flags: wanted, day });
    return wanted;
  }

  /** Puts back an occurrence read from the store (at start). */
  restore({ occurrence, flags, day }: OccurrenceRecord): void {
    if (!Number.isInteger(day) || !Number.isInteger(flags) || flags < 0 || flags > ALL_FLAGS) throw new RangeError(`occurrence ${occurrence}: flags 0–7 and an integer day required`);
    if (day > this.newestDay) this.advanceTo(day);
    if (day < this.newestDay - OCCURRENCE_RETENTION_DAYS) return;
    const entries = this.daySet(day);
    const key = distinctHash(occurrence);
    entries.set(key, checkOf(occurrence) * 8 + (flags | ((entries.get(key) ?? 0) & ALL_FLAGS)));
  }

  /** Occurrences changed since the last call, and the day before which the store may forget. */
  takeChanges(): { changed: OccurrenceRecord[]; forgottenBefore: number | undefined } {
    const taken = { changed: [...this.changed.values()], forgottenBefore: this.forgottenBefore };
    this.changed = new Map();
    this.forgottenBefore = undefined;
    return taken;
  }

  /** Gives back what a failed write took, unless changed again since. */
  returnChanges({ changed, forgottenBefore }: { changed: readonly OccurrenceRecord[]; forgottenBefore: number | undefined }): void {
    for (const record of changed) if (!this.changed.has(record.occurrence)) this.changed.set(record.occurrence, record);
    if (forgottenBefore !== undefined) this.forgottenBefore = Math.max(forgottenBefore, this.forgottenBefore ?? -Infinity);
  }

  /** Occurrences remembered, over every day kept. */
  get size(): number {
    let size = 0;
    for (const entries of this.days.values()) size += entries.size;
    return size;
  }

  private daySet(day: number): Map<number, number> {
    let entries = this.days.get(day);
    if (entries === undefined) {
      entries = new Map();
      // Newest day first, so a recent transaction's update is found at the first look.
      const older = [...this.days];
      this.days.clear();
      this.days.set(day, entries);
      for (const [olderDay, olderEntries] of older.sort(([a], [b]) => b - a)) this.days.set(olderDay, olderEntries);
    }
    return entries;
  }

  private advanceTo(day: number): void {
    this.newestDay = day;
    const keptFrom = day - OCCURRENCE_RETENTION_DAYS;
    for (const storedDay of [...this.days.keys()]) if (storedDay < keptFrom) this.days.delete(storedDay);
    // Once a day: the store forgets what memory no longer holds (rows of earlier runs included).
    this.forgottenBefore = keptFrom;
  }
}
