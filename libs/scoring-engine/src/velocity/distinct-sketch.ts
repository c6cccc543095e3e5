import { HYPERLOGLOG_REGISTERS, addHashToRegisters, areValidRegisters, estimateCardinality, mergeRegisters } from './hyperloglog';

/**
 * Up to this many distinct values a bucket counts exactly (by their 32-bit hashes). 32 hashes
 * take about what the 256 registers take, so exactness costs no extra memory, and most keys
 * never leave this range (a card seen with a few customers).
 */
export const EXACT_DISTINCT_LIMIT = 32;

/**
 * The distinct values one bucket saw, in the smallest form that holds them: one hash (a plain
 * number, no allocation: most buckets of most keys see one value), up to EXACT_DISTINCT_LIMIT
 * hashes in an array, or HyperLogLog registers past that. Hashes are signed 32-bit integers
 * (`distinctHash`), which V8 keeps unboxed. Exact up to 32-bit hash collisions, which for 32
 * values happen with a probability near 10⁻⁷.
 */
export type DistinctSketch = number | number[] | Uint8Array;

/** The sketch with `hash` added: the same object when it can grow in place, else a new one. */
export function addDistinct(sketch: DistinctSketch | undefined, hash: number): DistinctSketch {
  if (sketch === undefined) return hash;
  if (typeof sketch === 'number') return sketch === hash ? sketch : [sketch, hash];
  if (sketch instanceof Uint8Array) {
    addHashToRegisters(sketch, hash);
    return sketch;
  }
  if (sketch.includes(hash)) return sketch;
  sketch.push(hash);
  return sketch.length > EXACT_DISTINCT_LIMIT ? registersOf(sketch) : sketch;
}

/** `target` with every value of `source` added (the union); never shares `source`'s storage. */
export function mergeDistinct(target: DistinctSketch | undefined, source: DistinctSketch): DistinctSketch {
  if (source instanceof Uint8Array) {
    const registers = target instanceof Uint8Array ? target : registersOf(hashesOf(target));
    mergeRegisters(registers, source);
    return registers;
  }
  let merged = target;
  for (const hash of hashesOf(source)) merged = addDistinct(merged, hash);
  return merged as DistinctSketch;
}

/**
 * The union of a window's bucket sketches, built at query time and reused from query to query
 * (`reset`), so a query allocates nothing. Exact while it holds at most EXACT_DISTINCT_LIMIT
 * values; a bucket that is already registers holds more than that on its own, so the union is
 * exact exactly when the window saw at most EXACT_DISTINCT_LIMIT values.
 */
export class DistinctUnion {
  private readonly exact = new Set<number>();
  private readonly registers = new Uint8Array(HYPERLOGLOG_REGISTERS);
  private usesRegisters = false;

  reset(): void {
    this.exact.clear();
    if (this.usesRegisters) this.registers.fill(0);
    this.usesRegisters = false;
  }

  add(sketch: DistinctSketch): void {
    if (sketch instanceof Uint8Array) {
      this.switchToRegisters();
      mergeRegisters(this.registers, sketch);
    } else if (typeof sketch === 'number') {
      this.addHash(sketch);
    } else {
      for (const hash of sketch) this.addHash(hash);
    }
  }

  /** A copy of the union as a sketch (its hashes, or its registers), to add to a later union. */
  freeze(): DistinctSketch | undefined {
    if (this.usesRegisters) return this.registers.slice();
    return this.exact.size === 0 ? undefined : [...this.exact];
  }

  /** The number of distinct values: exact, or the HyperLogLog estimate rounded. */
  count(): number {
    return this.usesRegisters ? Math.round(estimateCardinality(this.registers)) : this.exact.size;
  }

  private addHash(hash: number): void {
    if (this.usesRegisters) {
      addHashToRegisters(this.registers, hash);
      return;
    }
    this.exact.add(hash);
    if (this.exact.size > EXACT_DISTINCT_LIMIT) this.switchToRegisters();
  }

  private switchToRegisters(): void {
    if (this.usesRegisters) return;
    for (const hash of this.exact) addHashToRegisters(this.registers, hash);
    this.exact.clear();
    this.usesRegisters = true;
  }
}

/** A sketch as plain JSON: its hashes (an array, even for one), or its registers in base64. */
export type DistinctSketchJson = number[] | string;

export function distinctToJson(sketch: DistinctSketch): DistinctSketchJson {
  if (sketch instanceof Uint8Array) return btoa(String.fromCharCode(...sketch));
  return hashesOf(sketch);
}

/** Reads back `distinctToJson`; throws a RangeError on anything it could not have written. */
export function distinctFromJson(json: unknown): DistinctSketch {
  if (typeof json === 'string') {
    let bytes: string;
    try {
      bytes = atob(json);
    } catch {
      throw new RangeError('distinct sketch: registers must be base64');
    }
    const registers = Uint8Array.from(bytes, (character) => character.charCodeAt(0));
    if (!areValidRegisters(registers)) throw new RangeError(`distinct sketch: registers must be ${HYPERLOGLOG_REGISTERS} bytes, each a possible rank`);
    return registers;
  }
  if (!Array.isArray(json) || json.length === 0 || json.length > EXACT_DISTINCT_LIMIT || !json.every(isInt32) || new Set(json).size !== json.length) {
    throw new RangeError(`distinct sketch: hashes must be 1 to ${EXACT_DISTINCT_LIMIT} different signed 32-bit integers`);
  }
  return json.length === 1 ? (json[0] as number) : [...(json as number[])];
}

function isInt32(value: unknown): boolean {
  return typeof value === 'number' && (value | 0) === value;
}

function hashesOf(sketch: number | number[] | undefined): number[] {
  if (sketch === undefined) return [];
  return typeof sketch === 'number' ? [sketch] : [...sketch];
}

function registersOf(hashes: Iterable<number>): Uint8Array {
  const registers = new Uint8Array(HYPERLOGLOG_REGISTERS);
  for (const hash of hashes) addHashToRegisters(registers, hash);
  return registers;
}
