import { FlattenedTrees } from './flattened-trees';
import { LEAF, type RegressionTree } from './regression-tree';
import { ShapPath } from './tree-shap';

/**
 * Leaves whose path splits on more distinct features than this are explained by the recursive
 * algorithm instead: a leaf's table holds 2^k × k weights.
 */
export const MAX_TABLED_PATH_FEATURES = 10;

/**
 * Exact TreeSHAP with each leaf's coalition weights worked out when the model loads (the
 * "Fast TreeSHAP v2" idea: Yang, 2021). In the recursive algorithm (`addTreeShap`) a leaf's
 * contribution to each feature on its path depends on the vector only through which of those
 * features the vector follows down the path: each is either followed (its "one fraction" is 1)
 * or not (0). With k distinct features on a path there are 2^k such masks, so every answer is
 * computed once here. Explaining a vector is then one pass over the nodes in index order (a child
 * comes after its parent): each split is compared once and hands its children their masks, and
 * each leaf adds the k weights of its mask. The results are the recursive algorithm's, to rounding.
 *
 * Memory: Σ over leaves of 2^k × k doubles; 300 trees of 31 leaves at depth 6 are at most
 * 300 × 31 × 64 × 6 × 8 bytes ≈ 29 MB, and trained models use fewer distinct features per path
 * (`byteLength` reports the real size). The node arrays it walks (features, thresholds,
 * children) are the model's `FlattenedTrees`, read and not copied: the table adds only its
 * masks and per-leaf arrays.
 */
export class TreeShapTable {
  /** The ensemble's nodes, shared with the model that owns them (not copied). */
  private readonly nodes: FlattenedTrees;
  /** A split's bit in its children's masks: the position of its feature among the path's distinct features. */
  private readonly maskBit: Int32Array;
  /** 1 when the split's feature first appears on the path here (its bit is set by this split alone). */
  private readonly firstOnPath: Uint8Array;
  /** A leaf's position in the per-leaf arrays below; -1 for a split. */
  private readonly leafSlot: Int32Array;
  /** Per leaf: where its path features start in `pathFeature`, and k. */
  private readonly pathStart: Int32Array;
  private readonly pathLength: Uint8Array;
  private readonly pathFeature: Int32Array;
  /** Per leaf: where its 2^k × k weights start in `weights`. */
  private readonly weightStart: Int32Array;
  /** Per leaf, mask and path feature, the contribution (leaf value and sign applied). */
  private readonly weights: Float64Array;
  /** Each node's mask during one explanation (they run to completion one at a time on a thread). */
  private readonly masks: Int32Array;

  private constructor(nodes: FlattenedTrees, perNode: TabledNodes, leaves: readonly TabledLeaf[]) {
    this.nodes = nodes;
    this.maskBit = perNode.maskBit;
    this.firstOnPath = perNode.firstOnPath;
    this.leafSlot = perNode.leafSlot;
    this.masks = new Int32Array(nodes.nodeCount);
    this.pathStart = new Int32Array(leaves.length);
    this.pathLength = new Uint8Array(leaves.length);
    this.weightStart = new Int32Array(leaves.length);
    this.pathFeature = new Int32Array(leaves.reduce((sum, leaf) => sum + leaf.features.length, 0));
    this.weights = new Float64Array(leaves.reduce((sum, leaf) => sum + leaf.weights.length, 0));
    let featureAt = 0;
    let weightAt = 0;
    leaves.forEach((leaf, index) => {
      this.pathStart[index] = featureAt;
      this.pathLength[index] = leaf.features.length;
      this.weightStart[index] = weightAt;
      this.pathFeature.set(leaf.features, featureAt);
      this.weights.set(leaf.weights, weightAt);
      featureAt += leaf.features.length;
      weightAt += leaf.weights.length;
    });
  }

  /**
   * The table of an ensemble's trees, or null when a leaf's path has more than
   * `MAX_TABLED_PATH_FEATURES` distinct features (its table would be too large). Given the
   * model's `FlattenedTrees`, the table reads their node arrays; given plain trees, it flattens them.
   */
  static of(trees: readonly RegressionTree[] | FlattenedTrees): TreeShapTable | null {
    const nodes = trees instanceof FlattenedTrees ? trees : new FlattenedTrees(trees);
    const leaves: TabledLeaf[] = [];
    const perNode: TabledNodes = { maskBit: new Int32Array(nodes.nodeCount), firstOnPath: new Uint8Array(nodes.nodeCount), leafSlot: new Int32Array(nodes.nodeCount).fill(-1) };
    const { maskBit, firstOnPath, leafSlot } = perNode;
    const workspace = new ShapPath(((MAX_TABLED_PATH_FEATURES + 2) * (MAX_TABLED_PATH_FEATURES + 3)) / 2);
    for (let treeIndex = 0; treeIndex < nodes.trees.length; treeIndex += 1) {
      const tree = nodes.trees[treeIndex];
      // The tree's nodes sit at `offset + node` in the shared arrays.
      const offset = nodes.roots[treeIndex];
      const walk = (node: number, path: PathFeature[]): boolean => {
        const feature = tree.splitFeature[node];
        if (feature === LEAF) {
          if (path.length > MAX_TABLED_PATH_FEATURES) return false;
          leafSlot[offset + node] = leaves.length;
          leaves.push({ features: path.map((item) => item.feature), weights: leafWeights(tree.leafValue[node], path, workspace) });
          return true;
        }
        const known = path.findIndex((item) => item.feature === feature);
        maskBit[offset + node] = known === -1 ? path.length : known;
        firstOnPath[offset + node] = known === -1 ? 1 : 0;
        return [tree.leftChild[node], tree.rightChild[node]].every((child) => {
          const zeroFraction = (known === -1 ? 1 : path[known].zeroFraction) * (tree.coverCount[child] / tree.coverCount[node]);
          const merged = { feature, zeroFraction };
          return walk(child, known === -1 ? [...path, merged] : path.map((item, index) => (index === known ? merged : item)));
        });
      };
      if (!walk(0, [])) return null;
    }
    return new TreeShapTable(nodes, perNode, leaves);
  }

  /** The bytes the table adds to its model: not the shared `FlattenedTrees` it reads. */
  get byteLength(): number {
    const perNode = this.maskBit.byteLength + this.firstOnPath.byteLength + this.leafSlot.byteLength + this.masks.byteLength;
    return perNode + this.weights.byteLength + this.pathFeature.byteLength + this.pathStart.byteLength * 2 + this.pathLength.byteLength;
  }

  /** Adds every feature's exact Shapley value for the ensemble's output at `vector` into `contributions`. */
  addContributions(vector: ArrayLike<number>, contributions: Float64Array): void {
    const { roots, splitFeature, threshold, defaultLeft, leftChild, rightChild } = this.nodes;
    const { maskBit, firstOnPath, leafSlot, masks } = this;
    const { pathStart, pathLength, pathFeature, weightStart, weights } = this;
    // Each tree's root starts with an empty mask.
    for (let tree = 0; tree < roots.length; tree += 1) masks[roots[tree]] = 0;
    // Children come after their parents, so one pass in index order sees every mask complete.
    for (let node = 0; node < splitFeature.length; node += 1) {
      const mask = masks[node];
      const feature = splitFeature[node];
      if (feature === LEAF) {
        const slot = leafSlot[node];
        const start = pathStart[slot];
        const length = pathLength[slot];
        const at = weightStart[slot] + mask * length;
        for (let index = 0; index < length; index += 1) contributions[pathFeature[start + index]] += weights[at + index];
        continue;
      }
      const value = vector[feature];
      const goesLeft = value !== value ? defaultLeft[node] === 1 : value <= threshold[node];
      const bit = 1 << maskBit[node];
      // The followed child keeps the feature's bit (sets it, the first time the path meets the feature); the other clears it.
      const followed = firstOnPath[node] === 1 ? mask | bit : mask;
      const notFollowed = mask & ~bit;
      masks[leftChild[node]] = goesLeft ? followed : notFollowed;
      masks[rightChild[node]] = goesLeft ? notFollowed : followed;
    }
  }
}

interface PathFeature {
  feature: number;
  /** The product of the path's cover fractions at this feature's splits. */
  zeroFraction: number;
}

interface TabledLeaf {
  /** Its path's distinct features, in the order of their mask bits. */
  features: number[];
  weights: Float64Array;
}

/** The table's own arrays per node of the ensemble, filled by the walk in `TreeShapTable.of`. */
interface TabledNodes {
  maskBit: Int32Array;
  firstOnPath: Uint8Array;
  leafSlot: Int32Array;
}

/**
 * For each mask of followed features, each feature's contribution: the recursive algorithm's leaf
 * step (`unwoundSum` × (one − zero) × leaf value) on the path extended by every feature, with one
 * fraction 1 for the followed ones and 0 for the others.
 */
function leafWeights(leafValue: number, features: readonly PathFeature[], path: ShapPath): Float64Array {
  const length = features.length;
  const weights = new Float64Array((1 << length) * length);
  for (let mask = 0; mask < 1 << length; mask += 1) {
    path.extend(0, 0, 1, 1, -1);
    features.forEach(({ feature, zeroFraction }, index) => path.extend(0, index + 1, zeroFraction, (mask >> index) & 1, feature));
    for (let index = 0; index < length; index += 1) {
      const oneFraction = (mask >> index) & 1;
      weights[mask * length + index] = path.unwoundSum(0, length, index + 1) * (oneFraction - features[index].zeroFraction) * leafValue;
    }
  }
  return weights;
}
