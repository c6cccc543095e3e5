/** `splitFeature` of a leaf. */
export const LEAF = -1;

/**
 * One trained tree as parallel arrays indexed by node (the root is node 0, a child always has a
 * higher index than its parent): flat typed arrays walk in a few nanoseconds a node and
 * serialise as plain number arrays.
 */
export interface RegressionTree {
  /** The feature an internal node splits on; LEAF for a leaf. */
  readonly splitFeature: Int32Array;
  /** A value `v` goes left when `v <= threshold`. */
  readonly threshold: Float64Array;
  /** 1 when a missing value goes left. */
  readonly defaultLeft: Uint8Array;
  readonly leftChild: Int32Array;
  readonly rightChild: Int32Array;
  /** A leaf's output in log-odds, shrinkage applied; 0 for an internal node. */
  readonly leafValue: Float64Array;
  /** The sum of the training rows' hessians that reached the node (XGBoost's cover). */
  readonly coverHessian: Float64Array;
  /** How many training rows (of the tree's subsample) reached the node: TreeSHAP's weights. */
  readonly coverCount: Float64Array;
}

/** The leaf `vector` ends in. */
export function leafOf(tree: RegressionTree, vector: ArrayLike<number>): number {
  let node = 0;
  while (tree.splitFeature[node] !== LEAF) {
    const value = vector[tree.splitFeature[node]];
    const left = value !== value ? tree.defaultLeft[node] === 1 : value <= tree.threshold[node];
    node = left ? tree.leftChild[node] : tree.rightChild[node];
  }
  return node;
}

/** The number of splits on the longest path from the root to a leaf. */
export function treeDepth(tree: RegressionTree, node = 0): number {
  if (tree.splitFeature[node] === LEAF) return 0;
  return 1 + Math.max(treeDepth(tree, tree.leftChild[node]), treeDepth(tree, tree.rightChild[node]));
}
