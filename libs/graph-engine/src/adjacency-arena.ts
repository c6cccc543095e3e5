/**
 * Undirected, deduplicated adjacency lists of dense node ids, without an object per edge.
 *
 * Every node owns a block of `capacity` slots in two parallel typed arrays shared by all
 * nodes: `neighbours` (Int32, the neighbour's node id) and `firstSeen` (Float64, epoch
 * milliseconds of the payload that created the edge). An undirected edge is stored as two
 * half-edges, one in each endpoint's block. When a block is full it is moved to the end of
 * the arena with twice the capacity (the old block becomes waste); when the waste exceeds a third
 * of the arena the blocks are packed again, so the amortised cost of an append is O(1) and the
 * waste stays below half of the live blocks. Each block keeps its neighbours
 * in the order the edges were first added; traversals depend on that order being stable.
 */
/** What adding an edge changed: `added` (it is new), `earlier` (a first-seen time before the one it had), `unchanged`. */
export type EdgeChange = 'added' | 'earlier' | 'unchanged';

export class AdjacencyArena {
  /** Neighbour ids; node n's neighbours are `neighbours[offset[n] .. offset[n] + degree[n])`. */
  neighbours = new Int32Array(1 << 12);
  /** First-seen time (epoch ms) of each half-edge, parallel to `neighbours`. */
  firstSeen = new Float64Array(1 << 12);
  offset = new Int32Array(1 << 10);
  /** Distinct neighbours of each node: its full degree. */
  degree = new Int32Array(1 << 10);
  private capacity = new Int32Array(1 << 10);
  private used = 0;
  private wasted = 0;
  private edges = 0;
  private packed = 0;

  /** Undirected edges stored. */
  get edgeCount(): number {
    return this.edges;
  }

  /** Typed-array slots allocated (live, spare and waste), for memory reports. */
  get slotCount(): number {
    return this.neighbours.length;
  }

  /** Times the arena was packed (reports, and tests that must reach the packing). */
  get packCount(): number {
    return this.packed;
  }

  /** Makes room for node ids below `nodeCount`. */
  ensureNodes(nodeCount: number): void {
    if (nodeCount <= this.offset.length) return;
    const size = grownSize(this.offset.length, nodeCount);
    this.offset = resized(this.offset, size);
    this.degree = resized(this.degree, size);
    this.capacity = resized(this.capacity, size);
  }

  /**
   * Adds the undirected edge a–b first seen at `firstSeenMs`. An edge already present keeps
   * the earliest first-seen time of all its additions (with out-of-order data the earliest
   * payload is the one that created it). Returns what changed: a new edge, an earlier time for
   * one already present, or nothing.
   */
  addEdge(a: number, b: number, firstSeenMs: number): EdgeChange {
    // Search the shorter list: edges run from customers (few edges) to attributes, some of
    // which are hubs with thousands.
    const aShorter = this.degree[a] <= this.degree[b];
    const near = aShorter ? a : b;
    const far = aShorter ? b : a;
    const found = this.indexOf(near, far);
    if (found >= 0) {
      if (firstSeenMs >= this.firstSeen[found]) return 'unchanged';
      this.firstSeen[found] = firstSeenMs;
      this.firstSeen[this.indexOf(far, near)] = firstSeenMs;
      return 'earlier';
    }
    this.append(a, b, firstSeenMs);
    this.append(b, a, firstSeenMs);
    this.edges += 1;
    return 'added';
  }

  /** Position of `neighbour` in `node`'s block, or -1. */
  indexOf(node: number, neighbour: number): number {
    const neighbours = this.neighbours;
    const end = this.offset[node] + this.degree[node];
    for (let i = this.offset[node]; i < end; i += 1) if (neighbours[i] === neighbour) return i;
    return -1;
  }

  private append(node: number, neighbour: number, firstSeenMs: number): void {
    if (this.degree[node] === this.capacity[node]) this.relocate(node);
    const at = this.offset[node] + this.degree[node];
    this.neighbours[at] = neighbour;
    this.firstSeen[at] = firstSeenMs;
    this.degree[node] += 1;
  }

  /** Moves a full block to the end of the arena with twice the room. */
  private relocate(node: number): void {
    const old = this.capacity[node];
    const capacity = old === 0 ? 2 : old * 2;
    if (this.wasted > 1 << 16 && this.wasted * 3 > this.used) this.pack();
    this.reserve(this.used + capacity);
    const from = this.offset[node];
    const degree = this.degree[node];
    this.neighbours.copyWithin(this.used, from, from + degree);
    this.firstSeen.copyWithin(this.used, from, from + degree);
    this.offset[node] = this.used;
    this.capacity[node] = capacity;
    this.used += capacity;
    this.wasted += old;
  }

  private reserve(slots: number): void {
    if (slots <= this.neighbours.length) return;
    const size = grownSize(this.neighbours.length, slots);
    this.neighbours = resized(this.neighbours, size);
    this.firstSeen = resized(this.firstSeen, size);
  }

  /** Copies every live block, in node order, into fresh arrays without the waste. */
  private pack(): void {
    const live = this.used - this.wasted;
    const size = grownSize(1 << 12, live + (live >> 1));
    const neighbours = new Int32Array(size);
    const firstSeen = new Float64Array(size);
    let at = 0;
    for (let node = 0; node < this.offset.length; node += 1) {
      const capacity = this.capacity[node];
      if (capacity === 0) continue;
      const from = this.offset[node];
      neighbours.set(this.neighbours.subarray(from, from + this.degree[node]), at);
      firstSeen.set(this.firstSeen.subarray(from, from + this.degree[node]), at);
      this.offset[node] = at;
      at += capacity;
    }
    this.neighbours = neighbours;
    this.firstSeen = firstSeen;
    this.used = at;
    this.wasted = 0;
    this.packed += 1;
  }
}

type TypedArray = Int32Array | Float64Array | Uint8Array;

/** Doubling growth: amortised O(1) appends. */
export function grownSize(current: number, needed: number): number {
  let size = Math.max(current, 16);
  while (size < needed) size *= 2;
  return size;
}

/** A copy of `array` with `size` elements (zero-filled beyond the old length). */
export function resized<T extends TypedArray>(array: T, size: number): T {
  const next = new (array.constructor as new (length: number) => T)(size);
  next.set(array.subarray(0, Math.min(array.length, size)) as never);
  return next;
}
