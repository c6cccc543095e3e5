import { distinctHash } from './distinct-hash';
import type { BucketLayout } from './velocity-bucket-tiers';
import { VelocityBuckets } from './velocity-buckets';
import type { VelocityBucketsJson } from './velocity-buckets-snapshot';
import { LATE_QUERY_ALLOWANCE_MILLIS, VELOCITY_WINDOWS } from './velocity-window-definitions';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** 12:00 UTC: on an edge of every bucket width. */
const T = Date.UTC(2025, 10, 22, 12, 0, 0);
const LAYOUT: BucketLayout = { numbers: 2, distincts: 1 };

interface WindowTotals {
  count: number;
  sum: number;
  distinct: number;
}

function totalsAt(buckets: VelocityBuckets, t: number): WindowTotals[] {
  const out = new Float64Array(VELOCITY_WINDOWS.length * 3);
  buckets.totalsAt(t, out);
  return VELOCITY_WINDOWS.map((_window, index) => ({ count: out[index * 3], sum: out[index * 3 + 1], distinct: out[index * 3 + 2] }));
}

const record = (buckets: VelocityBuckets, t: number, amount = 1, value = 'v') => buckets.record(t, [1, amount], [0, distinctHash(value)]);

/** Which windows count one event at `eventTime` when queried at `queryTime`. */
function countedBy(eventTime: number, queryTime: number): boolean[] {
  const buckets = new VelocityBuckets(LAYOUT);
  record(buckets, eventTime);
  return totalsAt(buckets, queryTime).map((totals) => totals.count === 1);
}

/** The start of the oldest bucket window k counts at t: (t − w, t] moved up to the next bucket edge. */
const oldestCounted = (t: number, k: number) => {
  const { lengthMillis, bucketMillis } = VELOCITY_WINDOWS[k];
  return Math.floor(t / bucketMillis) * bucketMillis - lengthMillis + bucketMillis;
};

/** A small deterministic generator, so a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe(VelocityBuckets.name, () => {
  describe('window edges', () => {
    const t = T + 7 * MINUTE + 30_000;

    it('counts the event at t, and one recorded later in t’s own minute, but not one in the next minute', () => {
      expect(countedBy(t, t)).toEqual([true, true, true, true]);
      expect(countedBy(t + 29_999, t)).toEqual([true, true, true, true]);
      expect(countedBy(T + 8 * MINUTE, t)).toEqual([false, false, false, false]);
    });

    it.each(VELOCITY_WINDOWS.map((window, index) => [window.name, index] as const))('counts the %s window from the first bucket edge after t − w, never at or before t − w', (_name, k) => {
      const { lengthMillis } = VELOCITY_WINDOWS[k];
      expect(countedBy(t - lengthMillis, t)[k]).toBe(false);
      expect(countedBy(oldestCounted(t, k) - 1, t)[k]).toBe(false);
      expect(countedBy(oldestCounted(t, k), t)[k]).toBe(true);
      // The slice left out is shorter than one bucket.
      expect(oldestCounted(t, k) - (t - lengthMillis)).toBeLessThanOrEqual(VELOCITY_WINDOWS[k].bucketMillis);
      expect(oldestCounted(t, k)).toBeGreaterThan(t - lengthMillis);
    });

    it('excludes the event being decided when queried before it is recorded', () => {
      const buckets = new VelocityBuckets(LAYOUT);
      record(buckets, t - 5 * MINUTE, 10, 'earlier');
      const before = totalsAt(buckets, t);
      record(buckets, t, 7, 'decided');
      expect(before[0]).toEqual({ count: 1, sum: 10, distinct: 1 });
      expect(totalsAt(buckets, t)[0]).toEqual({ count: 2, sum: 17, distinct: 2 });
    });
  });

  describe('out-of-order and late events', () => {
    it('gives every window the same totals whatever the arrival order, and the totals of the events in each window (checked against every event kept)', () => {
      const next = random(7);
      const newest = T + 40 * DAY;
      const events = Array.from({ length: 3_000 }, () => ({ t: newest - Math.floor(next() * 40 * DAY), amount: Math.floor(next() * 100), value: `v${Math.floor(next() * 20)}` }));
      events.push({ t: newest, amount: 1, value: 'v0' });
      const inOrder = new VelocityBuckets(LAYOUT);
      const shuffled = new VelocityBuckets(LAYOUT);
      for (const event of [...events].sort((a, b) => a.t - b.t)) record(inOrder, event.t, event.amount, event.value);
      for (const event of events) record(shuffled, event.t, event.amount, event.value);

      for (let query = 0; query < 50; query += 1) {
        const t = newest - LATE_QUERY_ALLOWANCE_MILLIS + Math.floor(next() * 2 * HOUR);
        const expected = VELOCITY_WINDOWS.map((_window, k) => {
          const counted = events.filter((event) => event.t >= oldestCounted(t, k) && event.t < (Math.floor(t / MINUTE) + 1) * MINUTE);
          return { count: counted.length, sum: counted.reduce((sum, event) => sum + event.amount, 0), distinct: new Set(counted.map((event) => event.value)).size };
        });
        expect(totalsAt(inOrder, t)).toEqual(expected);
        expect(totalsAt(shuffled, t)).toEqual(expected);
      }
    });

    it('keeps a busy key’s distinct counts right between queries of one minute, as late and new events arrive', () => {
      const next = random(11);
      const buckets = new VelocityBuckets(LAYOUT);
      const events: Array<{ t: number; value: string }> = [];
      const add = (t: number, value: string) => {
        events.push({ t, value });
        record(buckets, t, 1, value);
      };
      for (let i = 0; i < 400; i += 1) add(T - Math.floor(next() * 20 * DAY), `v${i % 45}`);
      const t = T + 30_000;
      const expected = () =>
        VELOCITY_WINDOWS.map((_window, k) => new Set(events.filter((event) => event.t >= oldestCounted(t, k) && event.t < T + MINUTE).map((event) => event.value)).size);
      const distinctCounts = () => totalsAt(buckets, t).map((totals) => totals.distinct);
      expect(buckets.bucketCount).toBeGreaterThan(24);
      const checks: Array<() => void> = [
        () => add(T, 'new-now'),
        () => add(T - 20 * MINUTE, 'late-by-minutes'),
        () => add(T - 3 * DAY, 'late-by-days'),
        () => add(T - 25 * DAY, 'late-by-weeks'),
        () => add(T - 30_000, 'in-the-newest-minutes'),
      ];
      for (const check of checks) {
        // The first query of the minute builds the key's cache of its older buckets; each late event must invalidate it.
        expect(distinctCounts()).toEqual(expected().map((count) => expect.closeTo(count, -1)));
        check();
        const counts = distinctCounts();
        expected().forEach((count, k) => (count <= 32 ? expect(counts[k]).toBe(count) : expect(Math.abs(counts[k] - count) / count).toBeLessThan(0.2)));
      }
      expect(distinctCounts()[0]).toBe(expected()[0]);
    });

    it('counts an event late by days in the windows that still hold it', () => {
      const buckets = new VelocityBuckets(LAYOUT);
      record(buckets, T);
      expect(record(buckets, T - 3 * DAY - 10 * MINUTE)).toBe(true);
      expect(totalsAt(buckets, T).map((totals) => totals.count)).toEqual([1, 1, 2, 2]);
    });

    it('drops an event older than the 30 d window at the newest time less the allowance, and stores nothing for it', () => {
      const buckets = new VelocityBuckets(LAYOUT);
      record(buckets, T);
      expect(record(buckets, T - 30 * DAY - LATE_QUERY_ALLOWANCE_MILLIS - 4 * HOUR)).toBe(false);
      expect(buckets.bucketCount).toBe(1);
    });

    it('misses, in a query more than the allowance behind the newest event, what was merged past its windows’ edges (documented)', () => {
      const buckets = new VelocityBuckets(LAYOUT);
      record(buckets, T - 3 * HOUR);
      record(buckets, T);
      // At T − 3 h the event is within 1 h, but it now sits in a 15-minute bucket that only the 24 h window counts.
      expect(totalsAt(buckets, T - 3 * HOUR).map((totals) => totals.count)).toEqual([0, 1, 1, 1]);
    });

    it('refuses a timestamp that is not a finite number', () => {
      const buckets = new VelocityBuckets(LAYOUT);
      expect(() => buckets.record(Number.NaN, [1, 1])).toThrow(RangeError);
      expect(() => buckets.totalsAt(Number.POSITIVE_INFINITY, new Float64Array(12))).toThrow(RangeError);
    });
  });

  describe('memory', () => {
    it('stores one bucket for a key that saw one event, however many windows count it', () => {
      const buckets = new VelocityBuckets(LAYOUT);
      record(buckets, T);
      expect(buckets.bucketCount).toBe(1);
    });

    it('holds a bounded number of buckets for a key busy every minute for 40 days, and every window’s count stays exact', () => {
      const buckets = new VelocityBuckets(LAYOUT);
      const start = T - 40 * DAY;
      for (let t = start; t <= T; t += MINUTE) buckets.record(t, [1, 0]);
      expect(buckets.bucketCount).toBeLessThanOrEqual(494);
      expect(totalsAt(buckets, T).map((totals) => totals.count)).toEqual(VELOCITY_WINDOWS.map((_window, k) => (T - oldestCounted(T, k)) / MINUTE + 1));
    });
  });

  describe('snapshots', () => {
    function busyKey(): VelocityBuckets {
      const next = random(3);
      const buckets = new VelocityBuckets(LAYOUT);
      for (let i = 0; i < 2_000; i += 1) record(buckets, T - Math.floor(next() * 35 * DAY), i % 7, `v${i % 50}`);
      record(buckets, T, 1, 'last');
      return buckets;
    }

    it('restores exactly what it snapshotted, through JSON, and both go on the same way', () => {
      const original = busyKey();
      const restored = VelocityBuckets.restore(LAYOUT, JSON.parse(JSON.stringify(original.snapshot())));
      for (const t of [T, T - 30 * MINUTE, T + 20 * MINUTE]) expect(totalsAt(restored, t)).toEqual(totalsAt(original, t));
      for (const buckets of [original, restored]) record(buckets, T + 2 * HOUR, 5, 'later');
      expect(totalsAt(restored, T + 2 * HOUR)).toEqual(totalsAt(original, T + 2 * HOUR));
      expect(restored.snapshot()).toEqual(original.snapshot());
    });

    it('restores a layout without distinct fields and an empty key', () => {
      const layout = { numbers: 1, distincts: 0 };
      const buckets = new VelocityBuckets(layout);
      buckets.record(T, [3]);
      expect(VelocityBuckets.restore(layout, buckets.snapshot()).snapshot()).toEqual(buckets.snapshot());
      expect(VelocityBuckets.restore(layout, JSON.parse(JSON.stringify(new VelocityBuckets(layout).snapshot()))).isEmpty).toBe(true);
    });

    it('reads a snapshot written before its layout gained number fields: the new fields start at zero', () => {
      const before = new VelocityBuckets({ numbers: 2, distincts: 0 });
      before.record(T - 2 * DAY, [1, 10]);
      before.record(T, [1, 30]);
      const after = VelocityBuckets.restore({ numbers: 3, distincts: 0 }, JSON.parse(JSON.stringify(before.snapshot())));
      after.record(T + MINUTE, [1, 5, 25]);
      expect(after.snapshot().numbers).toEqual([1, 10, 0, 1, 30, 0, 1, 5, 25]);
      expect(() => VelocityBuckets.restore({ numbers: 1, distincts: 0 }, before.snapshot())).toThrow(RangeError);
    });

    const valid = (): VelocityBucketsJson => {
      const buckets = new VelocityBuckets(LAYOUT);
      record(buckets, T - 2 * DAY);
      record(buckets, T);
      return buckets.snapshot();
    };
    const minuteOf = (t: number) => t / MINUTE;

    it.each<[string, (snapshot: VelocityBucketsJson) => unknown]>([
      ['not an object', () => 'buckets'],
      ['no buckets array', (snapshot) => ({ ...snapshot, buckets: undefined })],
      ['numbers of the wrong length', (snapshot) => ({ ...snapshot, numbers: snapshot.numbers.slice(1) })],
      ['a number that is not finite', (snapshot) => ({ ...snapshot, numbers: [Number.NaN, ...snapshot.numbers.slice(1)] })],
      ['a number that is a string', (snapshot) => ({ ...snapshot, numbers: ['1', ...snapshot.numbers.slice(1)] })],
      ['buckets out of order', (snapshot) => ({ ...snapshot, buckets: [...snapshot.buckets].reverse() })],
      ['a bucket off its tier’s edges', (snapshot) => ({ ...snapshot, buckets: [(minuteOf(T - 2 * DAY) + 7) * 4 + 2, snapshot.buckets[1]] })],
      ['a newer bucket of a coarser tier', (snapshot) => ({ ...snapshot, buckets: [minuteOf(T - 2 * DAY) * 4, minuteOf(T) * 4 + 1] })],
      ['a coarse bucket where the finer tier still keeps events', (snapshot) => ({ ...snapshot, buckets: [snapshot.buckets[0], minuteOf(T) * 4 + 3] })],
      ['a bucket after the newest event', (snapshot) => ({ ...snapshot, newest: T - 3 * DAY })],
      ['no newest time', (snapshot) => ({ ...snapshot, newest: undefined })],
      ['a distinct entry for a bucket that does not exist', (snapshot) => ({ ...snapshot, distincts: [[5, 0, [1]]] })],
      ['a distinct entry for a field that does not exist', (snapshot) => ({ ...snapshot, distincts: [[0, 1, [1]]] })],
      ['a malformed sketch', (snapshot) => ({ ...snapshot, distincts: [[0, 0, 'not registers']] })],
      ['a distinct entry that is not a triple', (snapshot) => ({ ...snapshot, distincts: [[0, 0]] })],
    ])('refuses a snapshot with %s', (_case, corrupt) => {
      expect(() => VelocityBuckets.restore(LAYOUT, corrupt(valid()))).toThrow(RangeError);
    });

    it('refuses distinct entries for a layout without distinct fields', () => {
      expect(() => VelocityBuckets.restore({ numbers: 2, distincts: 0 }, valid())).toThrow(RangeError);
    });
  });
});
