import { pathToFraudster } from './fraudster-path';

describe(pathToFraudster.name, () => {
  const fraudsters = (...nodes: number[]) => (node: number) => nodes.includes(node);

  it('follows the shortest path from the subject to the nearest fraudster', () => {
    // 0 - 1 - 2 - 3 (fraudster), and a longer way 0 - 4 - 5 - 6 - 3.
    const edges = [
      { source: 0, target: 1 },
      { source: 1, target: 2 },
      { source: 2, target: 3 },
      { source: 0, target: 4 },
      { source: 4, target: 5 },
      { source: 5, target: 6 },
      { source: 6, target: 3 },
    ];
    expect(pathToFraudster(7, edges, fraudsters(3))).toEqual([0, 1, 2, 3]);
  });

  it('reaches the nearer of two fraudsters, whichever way the edges are written', () => {
    const edges = [
      { source: 0, target: 1 },
      { source: 1, target: 2 },
      { source: 3, target: 2 },
      { source: 4, target: 0 },
      { source: 5, target: 4 },
    ];
    expect(pathToFraudster(6, edges, fraudsters(3, 5))).toEqual([0, 4, 5]);
  });

  it('answers the subject alone when it is a fraudster', () => {
    expect(pathToFraudster(2, [{ source: 0, target: 1 }], fraudsters(0, 1))).toEqual([0]);
  });

  it('answers null when no fraudster is listed or none is reachable through listed edges', () => {
    expect(pathToFraudster(3, [{ source: 0, target: 1 }], fraudsters())).toBeNull();
    expect(pathToFraudster(3, [{ source: 0, target: 1 }], fraudsters(2))).toBeNull();
    expect(pathToFraudster(0, [], fraudsters())).toBeNull();
  });
});
