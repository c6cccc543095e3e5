import { AccountShareLru, accountShareOf, firstOfJsonTuple } from './account-share-lru';

/** Keys `account:entry`, as a cache of an account's documents would name them. */
const accountOf = (key: string) => key.split(':')[0];
const cache = (max: number, maxPerAccount: number) => new AccountShareLru<string, string>({ max, maxPerAccount, accountOf });
const fill = (subject: AccountShareLru<string, string>, account: string, count: number, from = 0) => {
  for (let i = from; i < from + count; i += 1) subject.set(`${account}:${i}`, `value-${i}`);
};

describe(AccountShareLru.name, () => {
  it("keeps an account within its share by letting go of its own least recently used entries, never another's", () => {
    const subject = cache(100, 25);
    fill(subject, 'neighbour', 20);

    fill(subject, 'flooder', 10_000);

    expect(subject.sizeOf('flooder')).toBe(25);
    expect(subject.sizeOf('neighbour')).toBe(20);
    for (let i = 0; i < 20; i += 1) expect(subject.get(`neighbour:${i}`)).toBe(`value-${i}`);
    expect(subject.has('flooder:9999')).toBe(true);
    expect(subject.has('flooder:0')).toBe(false);
    expect(subject.size).toBe(45);
  });

  it('keeps an account’s recently used entries and lets its least recently used go first', () => {
    const subject = cache(100, 3);
    fill(subject, 'a', 3);
    subject.get('a:0');

    subject.set('a:3', 'value-3');

    expect(['a:0', 'a:1', 'a:2', 'a:3'].filter((key) => subject.has(key))).toEqual(['a:0', 'a:2', 'a:3']);
  });

  it('when the whole cache is full, makes room within an account at its fair part, and gives one below it the least recently used entry of the account holding the most', () => {
    const subject = cache(10, 6);
    fill(subject, 'a', 6);
    fill(subject, 'b', 4);

    // b is below its fair part (10 ÷ 2), a holds the most: a's least recently used go.
    fill(subject, 'b', 1, 100);
    expect([subject.sizeOf('a'), subject.sizeOf('b')]).toEqual([5, 5]);
    expect(subject.has('a:0')).toBe(false);
    // At its fair part, b's flood cycles its own.
    fill(subject, 'b', 50, 200);
    expect([subject.sizeOf('a'), subject.sizeOf('b')]).toEqual([5, 5]);
    expect(subject.has('a:5')).toBe(true);
    // A newcomer is not starved by those that filled the cache first: it takes up to its fair part (10 ÷ 3).
    fill(subject, 'c', 20);
    expect([subject.sizeOf('a'), subject.sizeOf('b'), subject.sizeOf('c')]).toEqual([3, 4, 3]);
    expect(subject.size).toBe(10);
  });

  it('keeps a one-entry share working', () => {
    const subject = cache(10, 1);
    subject.set('a:0', 'first');
    subject.set('a:1', 'second');

    expect(subject.get('a:1')).toBe('second');
    expect(subject.has('a:0')).toBe(false);
    expect(subject.size).toBe(1);
  });

  it('replaces an entry in place and counts what it deletes', () => {
    const subject = cache(10, 5);
    fill(subject, 'a', 2);
    subject.set('a:0', 'again');

    expect(subject.get('a:0')).toBe('again');
    expect(subject.size).toBe(2);
    expect(subject.delete('a:1')).toBe(true);
    expect(subject.delete('a:1')).toBe(false);
    expect(subject.size).toBe(1);
  });

  it('tells of each entry it lets go of to make room, not of one deleted or replaced', () => {
    const evicted: string[] = [];
    const subject = new AccountShareLru<string, string>({ max: 4, maxPerAccount: 2, accountOf, onEvict: (key) => evicted.push(key) });
    fill(subject, 'a', 3);
    fill(subject, 'b', 2);
    subject.set('b:0', 'again');
    subject.delete('b:1');
    subject.set('a:9', 'value');

    expect(evicted).toEqual(['a:0', 'a:1']);
    expect(subject.size).toBe(3);
  });

  it('reads the account from a JSON tuple key without parsing it, and parses one with an escape', () => {
    expect(firstOfJsonTuple(JSON.stringify(['acc_7Hq2', 'live', 'customer', 'cus-1']))).toBe('acc_7Hq2');
    expect(firstOfJsonTuple(JSON.stringify(['acc_"odd\\', 'live']))).toBe('acc_"odd\\');
  });

  it('gives an account its percent of a bound, at least one', () => {
    expect(accountShareOf(200_000, 25)).toBe(50_000);
    expect(accountShareOf(1_000, 100)).toBe(1_000);
    expect(accountShareOf(3, 10)).toBe(1);
  });
});
