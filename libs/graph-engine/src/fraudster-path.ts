/**
 * The shortest path from the subject to the nearest fraudster within a drawn neighbourhood
 * (ADR-0014): breadth-first over the listed nodes and edges only, so the path is one the
 * analyst sees drawn. Nodes are given by position, the subject at 0; edges are undirected.
 * Answers the positions from the subject to the fraudster (the subject alone when it is one),
 * null when no listed node is a fraudster or none is reachable through listed edges. Among
 * equally near fraudsters the first met wins: neighbours in the order of `edges`, which is
 * deterministic, so the same neighbourhood always gives the same path.
 */
export function pathToFraudster(nodeCount: number, edges: ReadonlyArray<{ source: number; target: number }>, isFraudster: (node: number) => boolean): number[] | null {
  if (nodeCount === 0) return null;
  const adjacent: number[][] = Array.from({ length: nodeCount }, () => []);
  for (const { source, target } of edges) {
    adjacent[source].push(target);
    adjacent[target].push(source);
  }
  const previous = new Int32Array(nodeCount).fill(-1);
  const visited = new Uint8Array(nodeCount);
  visited[0] = 1;
  const queue = [0];
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head];
    if (isFraudster(node)) return pathTo(node, previous);
    for (const next of adjacent[node]) {
      if (visited[next] === 1) continue;
      visited[next] = 1;
      previous[next] = node;
      queue.push(next);
    }
  }
  return null;
}

function pathTo(node: number, previous: Int32Array): number[] {
  const path = [node];
  for (let at = previous[node]; at !== -1; at = previous[at]) path.push(at);
  return path.reverse();
}
