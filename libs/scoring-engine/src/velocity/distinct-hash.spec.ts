import { distinctHash } from './distinct-hash';

describe(distinctHash.name, () => {
  // MurmurHash3_x86_32 of the reference implementation (SMHasher), as signed 32-bit integers:
  // the sketches persist these values, so a different hash would silently change every snapshot.
  it.each([
    ['', 0, 0],
    ['', 1, 0x514e28b7],
    ['a', 0, 0x3c2569b2],
    ['hello', 0, 0x248bfa47],
    ['Hello, world!', 0, 0xc0363e43 | 0],
    ['The quick brown fox jumps over the lazy dog', 0, 0x2e4ff723],
  ])('hashes %j with seed %i as the reference implementation does', (value, seed, expected) => {
    expect(distinctHash(value, seed)).toBe(expected);
  });

  it('hashes the UTF-8 bytes of any string, however long, with the same scratch buffer', () => {
    const long = 'é€𝄞'.repeat(200);
    const bytes = new TextEncoder().encode(long);
    expect(bytes.length).toBeGreaterThan(256);
    expect(distinctHash(long)).toBe(distinctHash(long));
    // Two code units of two and three bytes, and a surrogate pair of four.
    expect(distinctHash('é€𝄞')).toBe(0xe9a5b6a7 | 0);
    expect(distinctHash('short')).toBe(distinctHash('short'));
  });

  it('gives signed 32-bit integers', () => {
    for (let i = 0; i < 1000; i += 1) expect(distinctHash(`value-${i}`) | 0).toBe(distinctHash(`value-${i}`));
  });
});
