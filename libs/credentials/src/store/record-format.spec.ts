import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { sha256Hex } from '../password-hash';
import {
  PARTITIONS,
  bytesToRecords,
  groupByPartition,
  compareRecords,
  dedupeSorted,
  partitionOf,
  passwordPrefixWords,
  prefixHex,
  recordsToBytes,
  sortRecords,
  usernameKey,
} from './record-format';

const key = Buffer.from('k'.repeat(32));

describe('record format', () => {
  it('keys a username with HMAC-SHA256: 8 bytes, depending on the key, never the bare hash', () => {
    const [w0, w1] = usernameKey(key, 'ada@example.com');
    const bare = sha256Hex('ada@example.com');
    expect(prefixHex(w0, w1)).not.toBe(bare.slice(0, 16));
    expect(usernameKey(Buffer.from('x'.repeat(32)), 'ada@example.com')).not.toEqual([w0, w1]);
    expect(usernameKey(key, 'ada@example.com')).toEqual([w0, w1]);
  });

  it('keeps the first 8 bytes of the password hash, in either hex case', () => {
    const hash = sha256Hex('hunter2');
    expect(prefixHex(...passwordPrefixWords(hash))).toBe(hash.slice(0, 16));
    expect(passwordPrefixWords(hash.toUpperCase())).toEqual(passwordPrefixWords(hash));
  });

  it('writes 16 big-endian bytes a record and reads them back', () => {
    const records = new Uint32Array([0x01020304, 0x05060708, 0x090a0b0c, 0x0d0e0f10, 0xffffffff, 0, 1, 2]);
    const bytes = recordsToBytes(records, 0, 2);
    expect(bytes.length).toBe(32);
    expect(bytes.subarray(0, 16).toString('hex')).toBe('0102030405060708090a0b0c0d0e0f10');
    expect(bytesToRecords(bytes)).toEqual(records);
  });

  it('sorts by radix exactly as a comparison sort does, and de-duplicates', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(7), fc.nat(3), fc.nat(3), fc.nat(3)), { maxLength: 300 }), fc.boolean(), (tuples, spread) => {
        // Small values make ties in every word; `spread` puts them in different partitions.
        const words = tuples.flatMap(([a, b, c, d]) => [spread ? (a << 29) >>> 0 : a, b << 16, c, d]);
        const records = new Uint32Array(words);
        const count = tuples.length;
        const expected = [...Array(count).keys()]
          .map((i) => [...records.subarray(i * 4, i * 4 + 4)])
          .sort((x, y) => compareRecords(new Uint32Array(x), 0, new Uint32Array(y), 0));
        sortRecords(records, count);
        expect([...records]).toEqual(expected.flat());
        const kept = dedupeSorted(records, count);
        expect(kept).toBe(new Set(expected.map((r) => r.join(','))).size);
        for (let i = 1; i < kept; i += 1) expect(compareRecords(records, i - 1, records, i)).toBe(-1);
      }),
    );
  });

  it('sorts large arrays (sixteen-bit digits) into order, keeping every record', () => {
    const count = 250_000;
    const records = new Uint32Array(count * 4);
    for (let i = 0; i < records.length; i += 1) records[i] = i % 4 === 1 ? (Math.random() * 8) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
    const before = new Map<string, number>();
    const key = (r: Uint32Array, i: number) => r.subarray(i * 4, i * 4 + 4).join(',');
    for (let i = 0; i < count; i += 1) before.set(key(records, i), (before.get(key(records, i)) ?? 0) + 1);
    sortRecords(records, count);
    for (let i = 1; i < count; i += 1) expect(compareRecords(records, i - 1, records, i)).toBeLessThanOrEqual(0);
    for (let i = 0; i < count; i += 1) before.set(key(records, i), (before.get(key(records, i)) ?? 0) - 1);
    expect([...before.values()].every((left) => left === 0)).toBe(true);
  });

  it('groups records by partition, each partition keeping its records', () => {
    const count = 20_000;
    const records = bytesToRecords(randomBytes(count * 16), count);
    const grouped = groupByPartition(records, count);
    expect(grouped.bounds).toHaveLength(PARTITIONS + 1);
    expect(grouped.bounds[PARTITIONS]).toBe(count);
    for (let p = 0; p < PARTITIONS; p += 1) {
      const inPartition = [...Array(count).keys()].filter((i) => partitionOf(records[i * 4]) === p).map((i) => records.subarray(i * 4, i * 4 + 4).join(','));
      const placed = [];
      for (let i = grouped.bounds[p]; i < grouped.bounds[p + 1]; i += 1) placed.push(grouped.records.subarray(i * 4, i * 4 + 4).join(','));
      expect(placed.sort()).toEqual(inPartition.sort());
    }
  });

  it('reads records from bytes at any offset', () => {
    const bytes = randomBytes(16 * 3 + 1);
    const unaligned = bytes.subarray(1);
    const expected = [...Array(12).keys()].map((i) => unaligned.readUInt32BE(i * 4));
    expect([...bytesToRecords(Buffer.from(unaligned))]).toEqual(expected);
    expect([...bytesToRecords(unaligned)]).toEqual(expected);
  });
});
