import { LEAF, type RegressionTree, treeDepth } from './regression-tree';

/**
 * Exact TreeSHAP: each feature's Shapley value for one tree's output at `vector`, added into
 * `contributions` (Lundberg, Erion & Lee, "Consistent individualized feature attribution for tree
 * ensembles", 2018, Algorithm 2; ported from the reference implementation in shap's
 * `tree_shap.h`). The value of a coalition S is the tree's expected output when the features in S
 * take the vector's values and the others follow the training rows (each split weighted by the
 * rows that went each way, `coverCount`). The sum of the contributions is the tree's output minus
 * its expected output (`expectedTreeValue`). Time O(leaves × depth²), where enumerating
 * coalitions would take 2^features.
 */
export function addTreeShap(tree: RegressionTree, vector: ArrayLike<number>, contributions: Float64Array, workspace = treeShapWorkspace(treeDepth(tree))): void {
  recurse(tree, vector, contributions, workspace, 0, 0, 0, 1, 1, -1);
}

/**
 * The path memory `addTreeShap` needs for trees up to `maxDepth` splits deep. An ensemble
 * allocates one and passes it for every tree: allocating per tree cost more than the algorithm.
 */
export function treeShapWorkspace(maxDepth: number): ShapPath {
  const maxPathLength = maxDepth + 2;
  return new ShapPath((maxPathLength * (maxPathLength + 1)) / 2);
}

/** The tree's output averaged over the training rows (by cover): where its contributions start. */
export function expectedTreeValue(tree: RegressionTree, node = 0): number {
  if (tree.splitFeature[node] === LEAF) return tree.leafValue[node];
  const left = tree.leftChild[node];
  const right = tree.rightChild[node];
  return (tree.coverCount[left] * expectedTreeValue(tree, left) + tree.coverCount[right] * expectedTreeValue(tree, right)) / tree.coverCount[node];
}

/**
 * The unique features on the path from the root, as parallel arrays. Each level of the recursion
 * works on its own copy, stored after its parent's (`offset`), as the reference implementation
 * does: the memory of every level is allocated once per tree.
 */
export class ShapPath {
  readonly featureIndex: Int32Array;
  /** The fraction of the paths through here that "zero" (feature not in the coalition) paths follow. */
  readonly zeroFraction: Float64Array;
  /** 1 when the vector's value follows this path, 0 when not. */
  readonly oneFraction: Float64Array;
  /** The weight of the coalitions of each size. */
  readonly pathWeight: Float64Array;

  constructor(size: number) {
    this.featureIndex = new Int32Array(size);
    this.zeroFraction = new Float64Array(size);
    this.oneFraction = new Float64Array(size);
    this.pathWeight = new Float64Array(size);
  }

  copy(from: number, to: number, count: number): void {
    this.featureIndex.copyWithin(to, from, from + count);
    this.zeroFraction.copyWithin(to, from, from + count);
    this.oneFraction.copyWithin(to, from, from + count);
    this.pathWeight.copyWithin(to, from, from + count);
  }

  /** Adds a feature to the path of `depth` elements starting at `at`, updating the coalition weights. */
  extend(at: number, depth: number, zeroFraction: number, oneFraction: number, featureIndex: number): void {
    this.featureIndex[at + depth] = featureIndex;
    this.zeroFraction[at + depth] = zeroFraction;
    this.oneFraction[at + depth] = oneFraction;
    this.pathWeight[at + depth] = depth === 0 ? 1 : 0;
    for (let i = depth - 1; i >= 0; i -= 1) {
      this.pathWeight[at + i + 1] += (oneFraction * this.pathWeight[at + i] * (i + 1)) / (depth + 1);
      this.pathWeight[at + i] = (zeroFraction * this.pathWeight[at + i] * (depth - i)) / (depth + 1);
    }
  }

  /** Removes element `index` from the path, undoing `extend` (when a feature is split on again). */
  unwind(at: number, depth: number, index: number): void {
    const oneFraction = this.oneFraction[at + index];
    const zeroFraction = this.zeroFraction[at + index];
    let nextOnePortion = this.pathWeight[at + depth];
    for (let i = depth - 1; i >= 0; i -= 1) {
      if (oneFraction !== 0) {
        const saved = this.pathWeight[at + i];
        this.pathWeight[at + i] = (nextOnePortion * (depth + 1)) / ((i + 1) * oneFraction);
        nextOnePortion = saved - (this.pathWeight[at + i] * zeroFraction * (depth - i)) / (depth + 1);
      } else {
        this.pathWeight[at + i] = (this.pathWeight[at + i] * (depth + 1)) / (zeroFraction * (depth - i));
      }
    }
    for (let i = index; i < depth; i += 1) {
      this.featureIndex[at + i] = this.featureIndex[at + i + 1];
      this.zeroFraction[at + i] = this.zeroFraction[at + i + 1];
      this.oneFraction[at + i] = this.oneFraction[at + i + 1];
    }
  }

  /** The total weight the path would have without element `index` (unwind without changing it). */
  unwoundSum(at: number, depth: number, index: number): number {
    const oneFraction = this.oneFraction[at + index];
    const zeroFraction = this.zeroFraction[at + index];
    let nextOnePortion = this.pathWeight[at + depth];
    let total = 0;
    for (let i = depth - 1; i >= 0; i -= 1) {
      if (oneFraction !== 0) {
        const weight = (nextOnePortion * (depth + 1)) / ((i + 1) * oneFraction);
        total += weight;
        nextOnePortion = this.pathWeight[at + i] - weight * zeroFraction * ((depth - i) / (depth + 1));
      } else if (zeroFraction !== 0) {
        total += this.pathWeight[at + i] / zeroFraction / ((depth - i) / (depth + 1));
      }
    }
    return total;
  }
}

function recurse(
  tree: RegressionTree,
  vector: ArrayLike<number>,
  contributions: Float64Array,
  path: ShapPath,
  parentAt: number,
  node: number,
  depth: number,
  parentZeroFraction: number,
  parentOneFraction: number,
  parentFeature: number,
): void {
  // This level's copy of the path, after the parent's `depth + 1` elements.
  const here = parentAt + depth + 1;
  path.copy(parentAt, here, depth + 1);
  path.extend(here, depth, parentZeroFraction, parentOneFraction, parentFeature);

  const feature = tree.splitFeature[node];
  if (feature === LEAF) {
    for (let i = 1; i <= depth; i += 1) {
      const weight = path.unwoundSum(here, depth, i);
      contributions[path.featureIndex[here + i]] += weight * (path.oneFraction[here + i] - path.zeroFraction[here + i]) * tree.leafValue[node];
    }
    return;
  }

  const value = vector[feature];
  const goesLeft = value !== value ? tree.defaultLeft[node] === 1 : value <= tree.threshold[node];
  const hot = goesLeft ? tree.leftChild[node] : tree.rightChild[node];
  const cold = goesLeft ? tree.rightChild[node] : tree.leftChild[node];
  const cover = tree.coverCount[node];
  const hotZeroFraction = tree.coverCount[hot] / cover;
  const coldZeroFraction = tree.coverCount[cold] / cover;
  let incomingZeroFraction = 1;
  let incomingOneFraction = 1;

  // A feature already on the path is taken off and put back with both splits' fractions combined.
  let pathIndex = 0;
  while (pathIndex <= depth && path.featureIndex[here + pathIndex] !== feature) pathIndex += 1;
  let childDepth = depth;
  if (pathIndex <= depth) {
    incomingZeroFraction = path.zeroFraction[here + pathIndex];
    incomingOneFraction = path.oneFraction[here + pathIndex];
    path.unwind(here, depth, pathIndex);
    childDepth -= 1;
  }
  recurse(tree, vector, contributions, path, here, hot, childDepth + 1, hotZeroFraction * incomingZeroFraction, incomingOneFraction, feature);
  recurse(tree, vector, contributions, path, here, cold, childDepth + 1, coldZeroFraction * incomingZeroFraction, 0, feature);
}
