import { randomBytes } from 'node:crypto';
import { XorFilter } from './xor-filter';

function randomKeys(count: number): { hi: Uint32Array; lo: Uint32Array } {
  const bytes = randomBytes(count * 8);
  const hi = new Uint32Array(count);
  const lo = new Uint32Array(count);
  for (let i = 0; i < count; i += 1) {
    hi[i] = bytes.readUInt32BE(i * 8);
    lo[i] = bytes.readUInt32BE(i * 8 + 4);
  }
  return { hi, lo };
}

describe(XorFilter.name, () => {
  it.each([1, 2, 10, 1_000, 100_000])('has no false negative over %i keys', (count) => {
    const { hi, lo } = randomKeys(count);
    const filter = XorFilter.build(hi, lo, count);
    let missing = 0;
    for (let i = 0; i < count; i += 1) if (!filter.mightContain(hi[i], lo[i])) missing += 1;
    expect(missing).toBe(0);
  });

  it('answers about 1 in 256 false positives, at about 1.23 bytes a key', () => {
    const count = 100_000;
    const { hi, lo } = randomKeys(count);
    const filter = XorFilter.build(hi, lo, count);
    const probes = randomKeys(200_000);
    let positives = 0;
    for (let i = 0; i < 200_000; i += 1) if (filter.mightContain(probes.hi[i], probes.lo[i])) positives += 1;
    expect(positives / 200_000).toBeGreaterThan(0.5 / 256);
    expect(positives / 200_000).toBeLessThan(2 / 256);
    expect(filter.byteLength / count).toBeLessThan(1.25);
  });

  it('is rebuilt identically from its parts (what the index file stores)', () => {
    const { hi, lo } = randomKeys(500);
    const filter = XorFilter.build(hi, lo, 500);
    const copy = XorFilter.fromParts(filter.seed, filter.blockLength, filter.fingerprints.slice());
    let missing = 0;
    for (let i = 0; i < 500; i += 1) if (!copy.mightContain(hi[i], lo[i])) missing += 1;
    expect(missing).toBe(0);
  });

  it('refuses keys that are not distinct instead of looping', () => {
    const hi = new Uint32Array([1, 1]);
    const lo = new Uint32Array([2, 2]);
    expect(() => XorFilter.build(hi, lo, 2)).toThrow('construction failed');
  });
});
