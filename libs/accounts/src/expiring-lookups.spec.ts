import { ExpiringLookups } from './expiring-lookups';

/** A load the test finishes by hand, counting how often it was started. */
function heldLoads() {
  const started: Array<(value: string) => void> = [];
  const load = () => new Promise<string>((resolve) => started.push(resolve));
  return { load, started };
}

describe(ExpiringLookups.name, () => {
  it('sends one load for callers that miss together, and reuses its answer for the time to live', async () => {
    let now = 0;
    const lookups = new ExpiringLookups<string>(1_000, 10, () => now);
    const { load, started } = heldLoads();

    const answers = Promise.all([lookups.get('k', load), lookups.get('k', load), lookups.get('k', load)]);
    expect(started).toHaveLength(1);
    started[0]('found');
    expect(await answers).toEqual(['found', 'found', 'found']);

    now = 999;
    expect(await lookups.get('k', load)).toBe('found');
    expect(started).toHaveLength(1);
    now = 1_000;
    void lookups.get('k', load);
    expect(started).toHaveLength(2);
  });

  it('loads keys apart from one another', async () => {
    const lookups = new ExpiringLookups<string>(1_000, 10);
    const { load, started } = heldLoads();
    void lookups.get('a', load);
    void lookups.get('b', load);
    expect(started).toHaveLength(2);
  });

  it('does not keep an answer loaded before a change, and loads afresh after it', async () => {
    const lookups = new ExpiringLookups<string>(1_000, 10);
    const { load, started } = heldLoads();

    const before = lookups.get('k', load);
    lookups.delete('k');
    const after = lookups.get('k', load);
    expect(started).toHaveLength(2);
    // The later load finishes first: the earlier one's answer must not replace it.
    started[1]('new');
    expect(await after).toBe('new');
    started[0]('old');
    expect(await before).toBe('old');
    expect(await lookups.get('k', load)).toBe('new');
    expect(started).toHaveLength(2);
  });

  it('drops the entries a change matches', async () => {
    const lookups = new ExpiringLookups<string>(1_000, 10);
    await lookups.get('a', async () => 'account-1');
    await lookups.get('b', async () => 'account-2');
    lookups.deleteWhere((value) => value === 'account-1');
    expect(await lookups.get('a', async () => 'reloaded')).toBe('reloaded');
    expect(await lookups.get('b', async () => 'reloaded')).toBe('account-2');
  });

  it('keeps no failed load: the next caller tries again', async () => {
    const lookups = new ExpiringLookups<string>(1_000, 10);
    await expect(lookups.get('k', () => Promise.reject(new Error('database unavailable')))).rejects.toThrow('database unavailable');
    expect(await lookups.get('k', async () => 'found')).toBe('found');
  });

  it('holds at most maxEntries answers, dropping the oldest', async () => {
    const lookups = new ExpiringLookups<string>(1_000, 2);
    const load = jest.fn(async () => 'x');
    for (const key of ['a', 'b', 'c']) await lookups.get(key, load);
    await lookups.get('c', load);
    await lookups.get('b', load);
    expect(load).toHaveBeenCalledTimes(3);
    await lookups.get('a', load);
    expect(load).toHaveBeenCalledTimes(4);
  });
});
