import { AccountShareLru, accountShareOf } from './account-share-lru';

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

  it('makes room within the account that adds when the whole cache is full, and holds nothing more for an account with nothing to give', () => {
    const subject = cache(10, 5);
    fill(subject, 'a', 5);
    fill(subject, 'b', 5);

    fill(subject, 'a', 3, 100);
    subject.set('c:0', 'value');

    expect(subject.size).toBe(10);
    expect(subject.sizeOf('b')).toBe(5);
    expect(subject.sizeOf('a')).toBe(5);
    expect(subject.has('a:102')).toBe(true);
    expect(subject.has('c:0')).toBe(false);
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

  it('gives an account its percent of a bound, at least one', () => {
    expect(accountShareOf(200_000, 25)).toBe(50_000);
    expect(accountShareOf(1_000, 100)).toBe(1_000);
    expect(accountShareOf(3, 10)).toBe(1);
  });
});
