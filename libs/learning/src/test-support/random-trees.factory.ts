import { LEAF, type RegressionTree } from '../regression-tree';
import { seededRandom } from '../seeded-random';

export interface RandomTreeOptions {
  featureCount: number;
  maxDepth: number;
  /** Training rows reaching the root, split at random down the tree. */
  rows: number;
  seed: number;
}

/** A random tree with consistent covers (each node's count is its children's sum), as training would leave. */
export function randomTree(overrides: Partial<RandomTreeOptions> = {}): RegressionTree {
  const { featureCount, maxDepth, rows, seed } = { featureCount: 5, maxDepth: 4, rows: 1_000, seed: 1, ...overrides };
  const random = seededRandom(seed);
  const nodes: { feature: number; threshold: number; defaultLeft: number; left: number; right: number; value: number; count: number }[] = [];
  const grow = (count: number, depth: number): number => {
    const node = nodes.length;
    nodes.push({ feature: LEAF, threshold: 0, defaultLeft: 0, left: -1, right: -1, value: 0, count });
    if (depth < maxDepth && count >= 2 && (depth === 0 || random() < 0.8)) {
      const leftCount = 1 + Math.floor(random() * (count - 1));
      Object.assign(nodes[node], { feature: Math.floor(random() * featureCount), threshold: random(), defaultLeft: random() < 0.5 ? 1 : 0 });
      nodes[node].left = grow(leftCount, depth + 1);
      nodes[node].right = grow(count - leftCount, depth + 1);
    } else {
      nodes[node].value = random() * 2 - 1;
    }
    return node;
  };
  grow(rows, 0);
  return {
    splitFeature: Int32Array.from(nodes, (node) => node.feature),
    threshold: Float64Array.from(nodes, (node) => node.threshold),
    defaultLeft: Uint8Array.from(nodes, (node) => node.defaultLeft),
    leftChild: Int32Array.from(nodes, (node) => node.left),
    rightChild: Int32Array.from(nodes, (node) => node.right),
    leafValue: Float64Array.from(nodes, (node) => node.value),
    coverHessian: Float64Array.from(nodes, (node) => node.count / 4),
    coverCount: Float64Array.from(nodes, (node) => node.count),
  };
}

/**
 * Shapley values by definition: every coalition S of the features, valued at the tree's
 * cover-weighted expectation with the features in S fixed to the vector's values. 2^M work.
 */
export function bruteForceShapley(trees: readonly RegressionTree[], vector: ArrayLike<number>, featureCount: number): Float64Array {
  const valueOf = (coalition: number) => trees.reduce((sum, tree) => sum + conditionalExpectation(tree, vector, coalition, 0), 0);
  const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
  const shapley = new Float64Array(featureCount);
  for (let feature = 0; feature < featureCount; feature += 1) {
    for (let coalition = 0; coalition < 1 << featureCount; coalition += 1) {
      if (coalition & (1 << feature)) continue;
      const size = popCount(coalition);
      const weight = (factorial(size) * factorial(featureCount - size - 1)) / factorial(featureCount);
      shapley[feature] += weight * (valueOf(coalition | (1 << feature)) - valueOf(coalition));
    }
  }
  return shapley;
}

function conditionalExpectation(tree: RegressionTree, vector: ArrayLike<number>, coalition: number, node: number): number {
  const feature = tree.splitFeature[node];
  if (feature === LEAF) return tree.leafValue[node];
  const left = tree.leftChild[node];
  const right = tree.rightChild[node];
  if (coalition & (1 << feature)) {
    const value = vector[feature];
    const goesLeft = value !== value ? tree.defaultLeft[node] === 1 : value <= tree.threshold[node];
    return conditionalExpectation(tree, vector, coalition, goesLeft ? left : right);
  }
  return (tree.coverCount[left] * conditionalExpectation(tree, vector, coalition, left) + tree.coverCount[right] * conditionalExpectation(tree, vector, coalition, right)) / tree.coverCount[node];
}

function popCount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) count += 1;
  return count;
}
