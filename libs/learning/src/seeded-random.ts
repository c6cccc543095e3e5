/**
 * A seeded uniform generator on [0, 1) (mulberry32). Training must be reproducible given its seed
 * (row subsampling, the rows the bins are computed from), which `Math.random` cannot give; 32 bits
 * of state are plenty for sampling rows.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
