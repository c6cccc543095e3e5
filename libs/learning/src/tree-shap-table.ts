import { FlattenedTrees } from './flattened-trees';
import { LEAF, type RegressionTree } from './regression-tree';

/**
 * Leaves whose path splits on more distinct features than this are explained by the recursive
 * algorithm instead: which of them a vector follows is a bit mask in a 32-bit integer.
 */
export const MAX_TABLED_PATH_FEATURES = 30;

/**
 * Exact TreeSHAP from a table of every leaf's path, worked out when the model loads. In the
 * recursive algorithm (`addTreeShap`) a leaf's contribution to each feature on its path depends
 * on the vector only through which of those features the vector follows down the path: each is
 * either followed (its "one fraction" is 1) or not (0), a mask of k bits for k distinct features.
 * Explaining a vector is one pass over the nodes in index order (a child comes after its parent):
 * each split is compared once and hands its children their masks, and each leaf adds its
 * contributions for its mask, computed from its path's zero fractions in O(k²) (`addLeaf`).
 * The results are the recursive algorithm's, to rounding.
 *
 * Until 2026-11-26 each leaf kept its answers for all 2^k masks (the "Fast TreeSHAP v2" idea:
 * Yang, 2021), so a leaf was one lookup: 18 MB and 180 ms to build for 289 trees of depth 6,
 * per loaded model, without bound. Computing them costs about a fifth more per explanation
 * (`BENCH_ROWS=300000 npm run bench:model`, 225 trees: 0.46 against 0.37 ms) for a table of
 * 0.6 MB built in 8–45 ms instead of 14.1 MB built in 100–145 ms.
 *
 * The node arrays it walks (features, thresholds, children) are the model's `FlattenedTrees`,
 * read and not copied: the table adds only its masks and per-leaf arrays (`byteLength`).
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
  /** Per leaf and path feature (parallel to `pathFeature`): its zero fraction, the product of the path's cover fractions at its splits. */
  private readonly pathZero: Float64Array;
  /** Scratch for one leaf: the elementary symmetric polynomials of its followed features' zero fractions. */
  private readonly symmetric = new Float64Array(MAX_TABLED_PATH_FEATURES + 2);
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
    this.pathFeature = new Int32Array(leaves.reduce((sum, leaf) => sum + leaf.features.length, 0));
    this.pathZero = new Float64Array(this.pathFeature.length);
    let featureAt = 0;
    leaves.forEach((leaf, index) => {
      this.pathStart[index] = featureAt;
      this.pathLength[index] = leaf.features.length;
      leaf.features.forEach(({ feature, zeroFraction }, position) => {
        this.pathFeature[featureAt + position] = feature;
        this.pathZero[featureAt + position] = zeroFraction;
      });
      featureAt += leaf.features.length;
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
    for (let treeIndex = 0; treeIndex < nodes.trees.length; treeIndex += 1) {
      const tree = nodes.trees[treeIndex];
      // The tree's nodes sit at `offset + node` in the shared arrays.
      const offset = nodes.roots[treeIndex];
      const walk = (node: number, path: PathFeature[]): boolean => {
        const feature = tree.splitFeature[node];
        if (feature === LEAF) {
          if (path.length > MAX_TABLED_PATH_FEATURES) return false;
          leafSlot[offset + node] = leaves.length;
          leaves.push({ features: path });
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
    return perNode + this.pathZero.byteLength + this.pathFeature.byteLength + this.pathStart.byteLength + this.pathLength.byteLength;
  }

  /** Adds every feature's exact Shapley value for the ensemble's output at `vector` into `contributions`. */
  addContributions(vector: ArrayLike<number>, contributions: Float64Array): void {
    const { roots, splitFeature, threshold, defaultLeft, leftChild, rightChild, leafValue } = this.nodes;
    const { maskBit, firstOnPath, leafSlot, masks, pathStart, pathLength } = this;
    // Each tree's root starts with an empty mask.
    for (let tree = 0; tree < roots.length; tree += 1) masks[roots[tree]] = 0;
    // Children come after their parents, so one pass in index order sees every mask complete.
    for (let node = 0; node < splitFeature.length; node += 1) {
      const mask = masks[node];
      const feature = splitFeature[node];
      if (feature === LEAF) {
        const slot = leafSlot[node];
        this.addLeaf(pathStart[slot], pathLength[slot], mask, leafValue[node], contributions);
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

  /**
   * One leaf's contributions, for the features its path follows (`mask`) and those it does not.
   * With k distinct features on the path, zero fractions z and one fractions o (1 for a followed
   * feature, 0 otherwise), path-dependent TreeSHAP gives feature j
   *   v (o_j − z_j) Σ over S ⊆ path∖{j} of w_k(|S|) Π_{i∈S} o_i Π_{i∉S, i≠j} z_i,  w_k(s) = s!(k−1−s)!/k!.
   * Only sets S of followed features count. Let F be the followed set (m of them) and Z the
   * product of the others' zero fractions. Then every feature outside F gets the same −v Z G,
   * G = Σ_t w_k(m−t) e_t(z_F), and a followed j gets v (1 − z_j) Z Σ_t w_k(m−1−t) e_t(z_F∖{j}),
   * where e_t are the elementary symmetric polynomials, built in O(m²) and deflated by z_j.
   */
  private addLeaf(start: number, length: number, mask: number, leafValue: number, contributions: Float64Array): void {
    const { pathFeature, pathZero, symmetric } = this;
    const weights = SHAPLEY_WEIGHTS[length];
    let followed = 0;
    let others = 1;
    symmetric[0] = 1;
    for (let index = 0; index < length; index += 1) {
      const zero = pathZero[start + index];
      if (((mask >> index) & 1) === 0) {
        others *= zero;
        continue;
      }
      followed += 1;
      symmetric[followed] = 0;
      for (let degree = followed; degree > 0; degree -= 1) symmetric[degree] += zero * symmetric[degree - 1];
    }
    let notFollowedShare = 0;
    if (followed < length) {
      let sum = 0;
      for (let degree = 0; degree <= followed; degree += 1) sum += weights[followed - degree] * symmetric[degree];
      notFollowedShare = -leafValue * others * sum;
    }
    for (let index = 0; index < length; index += 1) {
      const feature = pathFeature[start + index];
      if (((mask >> index) & 1) === 0) {
        contributions[feature] += notFollowedShare;
        continue;
      }
      const zero = pathZero[start + index];
      // e_t(z_F∖{j}) = e_t(z_F) − z_j e_{t−1}(z_F∖{j}), one degree at a time.
      let withoutFeature = 1;
      let sum = weights[followed - 1];
      for (let degree = 1; degree < followed; degree += 1) {
        withoutFeature = symmetric[degree] - zero * withoutFeature;
        sum += weights[followed - 1 - degree] * withoutFeature;
      }
      contributions[feature] += leafValue * (1 - zero) * others * sum;
    }
  }
}

interface PathFeature {
  feature: number;
  /** The product of the path's cover fractions at this feature's splits. */
  zeroFraction: number;
}

interface TabledLeaf {
  /** Its path's distinct features with their zero fractions, in the order of their mask bits. */
  features: PathFeature[];
}

/** The table's own arrays per node of the ensemble, filled by the walk in `TreeShapTable.of`. */
interface TabledNodes {
  maskBit: Int32Array;
  firstOnPath: Uint8Array;
  leafSlot: Int32Array;
}

/** w_k(s) = s!(k−1−s)!/k! for each path length k up to the limit: the Shapley weight of a set of s other features. */
const SHAPLEY_WEIGHTS: readonly Float64Array[] = Array.from({ length: MAX_TABLED_PATH_FEATURES + 1 }, (_, length) =>
  Float64Array.from({ length: Math.max(length, 1) }, (_unused, size) => (factorial(size) * factorial(length - 1 - size)) / factorial(length)),
);

function factorial(value: number): number {
  let product = 1;
  for (let factor = 2; factor <= value; factor += 1) product *= factor;
  return product;
}
