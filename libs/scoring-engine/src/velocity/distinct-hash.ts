import murmurhash from 'murmurhash';

const encoder = new TextEncoder();
// Reused across calls: hashing runs for every distinct value of every recorded event, and the
// package's own string path allocates a fresh encoder and buffer per call (about twice the time).
// Safe because hashing is synchronous.
let utf8Scratch = new Uint8Array(256);

/**
 * The 32-bit MurmurHash3 (x86) of the value's UTF-8 bytes, as a signed 32-bit integer (which V8
 * stores unboxed): what the distinct-count sketches keep of a value.
 *
 * Sketches are persisted, so the function is part of the snapshot format
 * (`VELOCITY_SNAPSHOT_VERSION`): the spec pins its output on the reference implementation's values.
 */
export function distinctHash(value: string, seed = 0): number {
  // UTF-8 takes at most three bytes per UTF-16 code unit.
  if (value.length * 3 > utf8Scratch.length) utf8Scratch = new Uint8Array(value.length * 3);
  const { written } = encoder.encodeInto(value, utf8Scratch);
  return murmurhash.v3(utf8Scratch.subarray(0, written), seed) | 0;
}
