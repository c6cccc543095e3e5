/**
 * A Bloom filter of the keys a table holds: `mightContain` is false only for a key that was
 * never added, so a reader may skip the table for it; true means "ask the table" (false
 * positives only cost the read the filter would have spared).
 *
 * Fixed size, chosen once: 2^27 bits (16 MiB) and four probes keep false positives under 1 in
 * 100,000 up to a million keys and near 0.5 % at ten million; past about twenty million keys most
 * lookups reach the table again, which is slower, never wrong. Probes come from two 32-bit hashes
 * of the key (FNV-1a and a multiplicative variant), combined as h1 + i·h2 (Kirsch–Mitzenmacher).
 *
 * Written here rather than taken from `bloom-filters` (the well-known package): its filters hash
 * through a JavaScript xxhash on 64-bit emulation and took milliseconds per key on this machine,
 * more than the database read they are meant to save.
 */
export class StoredKeysFilter {
  private readonly words = new Uint32Array(BITS / 32);
  private added = 0;

  /** Keys added so far (with repeats), for metrics and tests. */
  get size(): number {
    return this.added;
  }

  add(key: string): void {
    const [first, second] = hashes(key);
    for (let probe = 0; probe < PROBES; probe += 1) {
      const bit = bitOf(first, second, probe);
      this.words[bit >>> 5] |= 1 << (bit & 31);
    }
    this.added += 1;
  }

  mightContain(key: string): boolean {
    const [first, second] = hashes(key);
    for (let probe = 0; probe < PROBES; probe += 1) {
      const bit = bitOf(first, second, probe);
      if ((this.words[bit >>> 5] & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

const BITS = 2 ** 27;
const BIT_MASK = BITS - 1;
const PROBES = 4;

function bitOf(first: number, second: number, probe: number): number {
  return (first + Math.imul(probe, second)) & BIT_MASK;
}

/** Two independent 32-bit hashes of the key's UTF-16 code units, in one pass. */
function hashes(key: string): [number, number] {
  let first = 0x811c9dc5;
  let second = 0x9747b28c;
  for (let index = 0; index < key.length; index += 1) {
    const unit = key.charCodeAt(index);
    first = Math.imul(first ^ unit, 0x01000193);
    second = Math.imul(second ^ unit, 0x5bd1e995);
    second ^= second >>> 15;
  }
  // An odd step visits distinct bits for every probe.
  return [first >>> 0, (second | 1) >>> 0];
}
