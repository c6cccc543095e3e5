import { RecordedEventIds } from './recorded-event-ids';

describe(RecordedEventIds.name, () => {
  it('remembers an id from its recording for one to two periods of the memory after its write', () => {
    const ids = new RecordedEventIds(60_000);
    ids.add('e1');
    expect(ids.has('e1')).toBe(true);
    expect(ids.take(1_000)).toEqual(['e1']);
    expect(ids.has('e1')).toBe(true);
    expect(ids.take(60_999)).toEqual([]);
    expect(ids.has('e1')).toBe(true);
    ids.take(61_001);
    expect(ids.has('e1')).toBe(true);
    ids.take(121_001);
    expect(ids.has('e1')).toBe(false);
  });

  it('hands each id to one write, and gives back the ids of a failed write to the next', () => {
    const ids = new RecordedEventIds(60_000);
    ids.add('e1');
    const failed = ids.take(0);
    ids.add('e2');
    ids.giveBack(failed);
    expect(ids.take(1).sort()).toEqual(['e1', 'e2']);
  });

  it('remembers ids loaded from the store for their own memory, from their load', () => {
    const ids = new RecordedEventIds(60_000, 600_000);
    ids.restore(['stored'], 10_000);
    expect(ids.has('stored')).toBe(true);
    expect(ids.size).toBe(1);
    ids.take(200_000);
    expect(ids.has('stored')).toBe(true);
    ids.take(610_001);
    expect(ids.has('stored')).toBe(false);
  });
});
