/**
 * A seeded pseudo-random source (sfc32, seeded through the cyrb128 string hash). The simulator
 * gives every actor its own stream, derived from the run's seed and the actor's key, so what an
 * actor does depends only on the seed and on the actor, never on how the other actors' events
 * interleave.
 *
 * Why not a package: pure-rand (the one well-kept candidate, already installed through
 * fast-check) ships only subpath `exports`, which this repository's `moduleResolution: node`
 * cannot resolve; sfc32 is twenty lines with published test vectors.
 */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    [this.a, this.b, this.c, this.d] = cyrb128(seed);
    // The first outputs of sfc32 correlate with the seed; discard them.
    for (let index = 0; index < 12; index += 1) this.next();
  }

  /** An independent stream for a sub-key (an actor, a ring member). */
  derive(key: string): SeededRandom {
    return new SeededRandom(`${this.a}:${this.b}:${this.c}:${this.d}:${key}`);
  }

  /** A float in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('cannot pick from an empty list');
    return item;
  }

  /** One item, by weight (weights need not sum to 1). */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    let chosen: T | undefined;
    for (const [item, weight] of items) {
      chosen = item;
      roll -= weight;
      if (roll < 0) return item;
    }
    if (chosen === undefined) throw new Error('cannot pick from an empty list');
    return chosen;
  }

  /** An exponentially distributed value with the given mean. */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** A standard normal value (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A log-normal value whose median is `median`; `sigma` is the spread of its logarithm. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** `length` characters of `alphabet`. */
  chars(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let text = '';
    for (let index = 0; index < length; index += 1) text += alphabet[Math.floor(this.next() * alphabet.length)];
    return text;
  }

  digits(length: number): string {
    return this.chars(length, '0123456789');
  }

  hex(length: number): string {
    return this.chars(length, '0123456789abcdef');
  }
}

/** cyrb128: a fast 128-bit string hash, the usual seeder of sfc32. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let index = 0; index < text.length; index += 1) {
    const k = text.charCodeAt(index);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}
