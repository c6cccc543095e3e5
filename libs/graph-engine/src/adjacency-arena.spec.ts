import fc from 'fast-check';
import { AdjacencyArena } from './adjacency-arena';

describe('AdjacencyArena', () => {
  it('keeps each list in first-added order with the earliest time, through relocations and packing', () => {
    // Enough growth for the waste to pass the packing threshold (64 Ki slots) several times.
    const nodes = 30_000;
    const arena = new AdjacencyArena();
    arena.ensureNodes(nodes);
    const expected = new Map<number, Map<number, number>>();
    const add = (a: number, b: number, time: number): void => {
      for (const [x, y] of [[a, b], [b, a]]) {
        const list = expected.get(x) ?? new Map<number, number>();
        expected.set(x, list);
        list.set(y, Math.min(list.get(y) ?? Infinity, time));
      }
    };
    // xorshift32: deterministic, so a failure can be replayed.
    let seed = 7;
    const random = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    for (let i = 0; i < 300_000; i += 1) {
      const a = random(nodes);
      const b = random(nodes / 10);
      if (a === b) continue;
      const time = random(1000);
      const known = expected.get(a)?.get(b);
      const change = known === undefined ? 'added' : time < known ? 'earlier' : 'unchanged';
      const answered = arena.addEdge(a, b, time);
      if (answered !== change) throw new Error(`addEdge(${a}, ${b}, ${time}) should return ${change}, not ${answered}`);
      add(a, b, time);
    }
    let edges = 0;
    const wrong: number[] = [];
    for (let node = 0; node < nodes; node += 1) {
      const list = expected.get(node) ?? new Map();
      edges += list.size;
      const start = arena.offset[node];
      const neighbours = Array.from(arena.neighbours.subarray(start, start + arena.degree[node]));
      const times = Array.from(arena.firstSeen.subarray(start, start + arena.degree[node]));
      if (neighbours.join() !== [...list.keys()].join() || times.join() !== [...list.values()].join()) wrong.push(node);
    }
    expect(wrong).toEqual([]);
    expect(arena.edgeCount).toBe(edges / 2);
    expect(arena.packCount).toBeGreaterThan(1);
  });

  it('deduplicates in either direction', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(5), fc.nat(5), fc.nat(100))), (links) => {
        const arena = new AdjacencyArena();
        arena.ensureNodes(6);
        const pairs = new Set<string>();
        for (const [a, b, time] of links) {
          if (a === b) continue;
          arena.addEdge(a, b, time);
          pairs.add(a < b ? `${a},${b}` : `${b},${a}`);
        }
        expect(arena.edgeCount).toBe(pairs.size);
      }),
    );
  });
});
