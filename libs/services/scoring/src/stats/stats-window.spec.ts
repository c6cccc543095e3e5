import { MAX_STATS_BUCKETS } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { timeline } from './decision-stats';
import { bucketCount, bucketStart, bucketStarts, statsWindow } from './stats-window';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Monday 2026-11-23 00:00 UTC.
const MONDAY = Date.UTC(2026, 10, 23);
const NOW = MONDAY + 10 * DAY;

describe('overview buckets', () => {
  it('starts hours and days on UTC boundaries and weeks on Mondays', () => {
    const time = MONDAY + 3 * DAY + 5 * HOUR + 1234;
    expect(bucketStart(time, 'hour')).toBe(MONDAY + 3 * DAY + 5 * HOUR);
    expect(bucketStart(time, 'day')).toBe(MONDAY + 3 * DAY);
    expect(bucketStart(time, 'week')).toBe(MONDAY);
    expect(new Date(bucketStart(time, 'week')).getUTCDay()).toBe(1);
  });

  it('counts the buckets a window touches, partial ones included', () => {
    expect(bucketCount(MONDAY, MONDAY + HOUR, 'hour')).toBe(1);
    expect(bucketCount(MONDAY + 30 * 60_000, MONDAY + HOUR + 1, 'hour')).toBe(2);
    expect(bucketCount(MONDAY, MONDAY + DAY, 'hour')).toBe(24);
    expect(bucketStarts({ from: MONDAY + 1, to: MONDAY + 2 * HOUR, bucket: 'hour' })).toEqual([MONDAY, MONDAY + HOUR]);
  });
});

describe('the overview window', () => {
  it('defaults to the data period, first decision to 1 ms after the last, in the smallest bucket that fits', () => {
    expect(statsWindow({}, { first: MONDAY, last: MONDAY + 5 * HOUR }, NOW)).toEqual({ from: MONDAY, to: MONDAY + 5 * HOUR + 1, bucket: 'hour' });
    expect(statsWindow({}, { first: MONDAY, last: MONDAY + 20 * DAY }, NOW)).toEqual({ from: MONDAY, to: MONDAY + 20 * DAY + 1, bucket: 'day' });
    expect(statsWindow({}, { first: MONDAY - 3 * 365 * DAY, last: MONDAY }, NOW)).toEqual({ from: MONDAY - 3 * 365 * DAY, to: MONDAY + 1, bucket: 'week' });
  });

  it('is the last day before now when the data set has no decision', () => {
    expect(statsWindow({}, null, NOW)).toEqual({ from: NOW - DAY, to: NOW, bucket: 'hour' });
  });

  it('keeps what the request names and defaults only the rest', () => {
    expect(statsWindow({ from: MONDAY, to: MONDAY + 2 * DAY, bucket: 'day' }, null, NOW)).toEqual({ from: MONDAY, to: MONDAY + 2 * DAY, bucket: 'day' });
    expect(statsWindow({ from: MONDAY + HOUR }, { first: MONDAY, last: MONDAY + 3 * HOUR }, NOW)).toEqual({ from: MONDAY + HOUR, to: MONDAY + 3 * HOUR + 1, bucket: 'hour' });
    expect(statsWindow({ to: MONDAY + 2 * HOUR }, { first: MONDAY, last: MONDAY + 9 * HOUR }, NOW)).toEqual({ from: MONDAY, to: MONDAY + 2 * HOUR, bucket: 'hour' });
  });

  it('never answers more than the bucket limit: a default window keeps its newest weeks, an asked one is refused naming the parameter', () => {
    const window = statsWindow({}, { first: 0, last: NOW }, NOW);
    expect(window.bucket).toBe('week');
    expect(window.to).toBe(NOW + 1);
    expect(bucketCount(window.from, window.to, 'week')).toBe(MAX_STATS_BUCKETS);
    expect(() => statsWindow({ from: MONDAY, to: MONDAY + (MAX_STATS_BUCKETS + 1) * HOUR, bucket: 'hour' }, null, NOW)).toThrow(/^bucket: /);
    expect(statsWindow({ from: MONDAY, to: MONDAY + MAX_STATS_BUCKETS * HOUR, bucket: 'hour' }, null, NOW).bucket).toBe('hour');
    expect(() => statsWindow({ from: 0, to: NOW }, null, NOW)).toThrow(/^from: /);
    expect(() => statsWindow({ from: MONDAY, to: MONDAY }, null, NOW)).toThrow(AppError);
  });
});

describe('the timeline', () => {
  it('answers every bucket oldest first, with counts per action and source, and none for rows outside', () => {
    const window = { from: MONDAY, to: MONDAY + 3 * HOUR, bucket: 'hour' as const };
    const buckets = timeline(window, [
      { at: MONDAY, action: 'ALLOW', source: 'RINGFENCE', count: 3 },
      { at: MONDAY, action: 'REVIEW', source: 'RULE', count: 2 },
      { at: MONDAY + 2 * HOUR, action: 'PREVENT', source: null, count: 1 },
      { at: MONDAY + 5 * HOUR, action: 'ALLOW', source: 'RULE', count: 7 },
    ]);
    expect(buckets).toEqual([
      { at: MONDAY, total: 5, ALLOW: 3, REVIEW: 2, PREVENT: 0, bySource: { RINGFENCE: 3, RULE: 2 } },
      { at: MONDAY + HOUR, total: 0, ALLOW: 0, REVIEW: 0, PREVENT: 0, bySource: {} },
      { at: MONDAY + 2 * HOUR, total: 1, ALLOW: 0, REVIEW: 0, PREVENT: 1, bySource: { NONE: 1 } },
    ]);
  });
});
