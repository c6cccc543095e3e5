import { StoredKeysFilter } from './stored-keys-filter';

describe(StoredKeysFilter.name, () => {
  it('contains every key added, and almost no other', () => {
    const filter = new StoredKeysFilter();
    const key = (index: number) => JSON.stringify(['acc_1', 'live', 'transaction', `tx-${index}`]);
    for (let index = 0; index < 50_000; index += 1) filter.add(key(index));

    let missing = 0;
    for (let index = 0; index < 50_000; index += 1) if (!filter.mightContain(key(index))) missing += 1;
    expect(missing).toBe(0);
    let falsePositives = 0;
    for (let index = 50_000; index < 150_000; index += 1) if (filter.mightContain(key(index))) falsePositives += 1;
    // At 50,000 keys the expected rate is about 1 in 10^8; a broken hash shows thousands.
    expect(falsePositives).toBeLessThan(5);
    expect(filter.size).toBe(50_000);
  });

  it('tells keys apart that differ only in their order or last character', () => {
    const filter = new StoredKeysFilter();
    filter.add('["a","test","customer","ab"]');
    expect(filter.mightContain('["a","test","customer","ba"]')).toBe(false);
    expect(filter.mightContain('["a","test","customer","ac"]')).toBe(false);
    expect(filter.mightContain('["a","live","customer","ab"]')).toBe(false);
  });
});
